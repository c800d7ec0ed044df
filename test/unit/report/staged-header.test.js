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
