// A capacity document's report states the capacity first, then its steps; a staged run's, its
// stages; neither claims a time to steady state.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { stagedResults } from '../../helpers/staged-results.js'
import { runHeaderHtml } from '../../../lib/report/header.js'
import { buildHtml } from '../../../lib/report/html.js'

const capacityDoc = () => {
  const doc = stagedResults()
  doc.run.workload = 'script'
  doc.capacity = {
    until: ['p(99) < 50ms'],
    steps: [
      { index: 1, phase: 'geometric', offeredRate: 100, achievedRate: 99.8, latencyMs: { p50: 1, p99: 5 }, held: true, thresholds: [] },
      { index: 2, phase: 'geometric', offeredRate: 336, achievedRate: 335.1, latencyMs: { p50: 9, p99: 45 }, held: true, thresholds: [] },
      { index: 3, phase: 'bisection', offeredRate: 400, achievedRate: 310, latencyMs: { p50: 90, p99: 677 }, held: false, why: 'p(99) 677 ms', thresholds: [] }
    ],
    answer: { limit: 'server', rate: 336, line: 'capacity: 336 tps sustained with p(99) 45 ms (next step 400 tps: p(99) 677 ms)' }
  }
  return doc
}

test('a capacity report: the answer first, the steps next, no time to steady state', () => {
  const html = runHeaderHtml(capacityDoc(), null)
  const answer = html.indexOf('<h2>Capacity: 336 tps</h2>')
  assert.ok(answer > 0, html.slice(0, 400))
  assert.ok(answer < html.indexOf('336 tps sustained with p(99) 45 ms (next step 400 tps: p(99) 677 ms)'))
  assert.ok(html.indexOf('<h3>Steps</h3>') < html.indexOf('<dt>workload</dt>'), 'the steps before the run\'s facts')
  assert.ok(html.indexOf('<dt>workload</dt>') < html.indexOf('Summary of the whole run'))
  assert.match(html, /<th scope="row">3<\/th><td>bisection<\/td><td>400<\/td>.*<td>failed<\/td><td>p\(99\) 677 ms<\/td>/)
  assert.doesNotMatch(html, /time to steady state/)
})

test('a capacity or staged report says so in its title; a staged run lists its stages', () => {
  const built = { charts: [], skipped: [] }
  assert.match(buildHtml([{ doc: capacityDoc(), label: null }], built), /<title>pgload capacity: script, 336 tps<\/title>/)
  const staged = stagedResults()
  assert.match(buildHtml([{ doc: staged, label: null }], built), /<title>pgload report: tpcb in 3 stages<\/title>/)
  const html = runHeaderHtml(staged, null)
  assert.match(html, /<h2>3 stages of arrival rate<\/h2>/)
  assert.doesNotMatch(html, /time to steady state/)
})

test('a capacity report: the answer, the steps with their failed and dropped arrivals, then the run\'s details under a heading of their own', () => {
  const doc = capacityDoc()
  doc.capacity.steps[2].failed = 3
  doc.capacity.steps[2].dropped = 1250
  const html = runHeaderHtml(doc, null)
  const answer = html.indexOf('<h2>Capacity: 336 tps</h2>')
  assert.equal(html.lastIndexOf('<h2>', answer - 1), -1, 'no heading before the answer')
  const steps = html.indexOf('<h3>Steps</h3>')
  const details = html.indexOf('<h2>Run details</h2>')
  assert.ok(answer < steps && steps < details && details < html.indexOf('<dt>workload</dt>'), 'answer, steps, then the run\'s details')
  assert.match(html, /<th>failed<\/th><th>dropped<\/th>/)
  assert.match(html, /<th scope="row">3<\/th><td>bisection<\/td><td>400<\/td><td>310<\/td><td>90<\/td><td>677<\/td><td>3<\/td><td>1,250<\/td><td>failed<\/td>/)
  const several = runHeaderHtml(doc, 'A')
  assert.ok(several.indexOf('<h2>Run A: capacity 336 tps</h2>') < several.indexOf('<h2>Run A: details</h2>'))
})

test('a capacity report says what the search did: steps down from a start that failed, steps up, the bisection', () => {
  const down = capacityDoc()
  const step = (index, phase, offeredRate, held) => ({ index, phase, offeredRate, achievedRate: offeredRate, latencyMs: { p50: 1, p99: 5 }, held, thresholds: [] })
  down.capacity.steps = [step(1, 'geometric', 500, false), step(2, 'geometric', 250, false), step(3, 'geometric', 125, false),
    step(4, 'geometric', 63, false), step(5, 'geometric', 32, true), step(6, 'bisection', 45, false)]
  const html = runHeaderHtml(down, null)
  assert.match(html, /The search stepped the offered rate down from 500 tps to 32 tps, then bisected in 1 step \(45 tps\)\./)
  assert.doesNotMatch(html, /stepped the offered rate up/)
  assert.match(runHeaderHtml(capacityDoc(), null), /The search stepped the offered rate up from 100 tps to 336 tps, then bisected in 1 step \(400 tps\)\./)
})
