// The report of a staged run and of a capacity document in a real headless Chromium: the stages
// shaded and numbered on the time charts, latency against throughput per stage, and for capacity
// latency against the offered rate with the --until limit and the answer marked.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { writeHtmlReport } from '../../lib/report/render-report.js'
import { stagedResults, capacityResults } from '../helpers/staged-results.js'
import { chromiumSkip, chromiumForFile } from '../helpers/chromium.js'

const skip = chromiumSkip
const { shots, newPage } = chromiumForFile('pgload-stage-shots-')

async function openReport (doc, name) {
  const file = await writeHtmlReport([doc], join(shots, `${name}.html`))
  const page = await newPage({ viewport: { width: 1200, height: 900 } })
  const problems = []
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`) })
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
  await page.goto(pathToFileURL(file).href)
  await page.waitForFunction(() => window.pgloadReport?.done === true, null, { timeout: 30_000 })
  const status = await page.evaluate(() => ({
    ...window.pgloadReport,
    charts: [...document.querySelectorAll('.chart')].map((el) => ({
      label: el.getAttribute('aria-label'),
      title: [...el.querySelectorAll('svg .role-title text')].map((t) => t.textContent).join(' | '),
      // the stage bands: rect marks whose tooltip names a stage; their labels: text marks
      bands: [...el.querySelectorAll('svg .mark-rect path')].filter((p) => /\bstage: stage \d+: /.test(p.getAttribute('aria-label') ?? '')).length,
      texts: [...el.querySelectorAll('svg .mark-text text')].map((t) => t.textContent),
      axes: [...el.querySelectorAll('svg .role-axis')].map((a) => a.getAttribute('aria-label') ?? ''),
      points: el.querySelectorAll('svg .mark-symbol.role-mark path').length
    }))
  }))
  const shot = join(shots, `${name}.png`)
  await page.screenshot({ path: shot, fullPage: true })
  await page.close()
  assert.deepEqual(problems, [])
  assert.deepEqual(status.errors, [])
  assert.equal(status.rendered, status.total)
  assert.ok(statSync(shot).size > 50_000, 'screenshot has content')
  return { ...status, shot }
}

test('a staged run: every time chart shades and numbers its stages; latency against achieved throughput per stage', { skip, timeout: 60_000 }, async (t) => {
  const doc = stagedResults()
  const { charts, shot } = await openReport(doc, 'staged')
  t.diagnostic(`screenshot ${shot}`)
  for (const label of ['Throughput over time', 'Latency over time', 'Server activity']) {
    const c = charts.find((x) => x.label === label)
    assert.ok(c, `${label}: ${charts.map((x) => x.label).join(', ')}`)
    assert.ok(c.bands >= doc.stages.length, `${label}: ${c.bands} stage bands`)
    assert.match(c.title, /numbered bands: the stages/)
  }
  const tput = charts.find((x) => x.label === 'Throughput over time')
  for (const n of ['1', '2', '3']) assert.ok(tput.texts.includes(n), `stage ${n} labelled: ${tput.texts.join(',')}`)
  const lat = charts.find((x) => x.label === 'Latency against throughput')
  assert.ok(lat, charts.map((x) => x.label).join(', '))
  assert.ok(lat.axes.some((a) => a.startsWith("X-axis titled 'achieved throughput (tps)'")), lat.axes.join('; '))
  assert.equal(lat.points, 2 * doc.stages.length, 'p50 and p99 of each stage')
})

test('a capacity document: latency against the offered rate, the --until limit and the answer marked', { skip, timeout: 60_000 }, async (t) => {
  const doc = capacityResults()
  const { charts, shot } = await openReport(doc, 'capacity')
  t.diagnostic(`screenshot ${shot}`)
  const c = charts.find((x) => x.label === 'Latency against throughput')
  assert.ok(c, charts.map((x) => x.label).join(', '))
  assert.match(c.title, /^Latency against offered rate/)
  assert.ok(c.axes.some((a) => /^X-axis titled 'offered rate \(arrivals per second\)' for a linear scale with values from 0 to [\d,]+/.test(a)), c.axes.join('; '))
  assert.ok(c.texts.includes('p(99) < 60ms'), `the limit labelled: ${c.texts.join(', ')}`)
  assert.ok(c.texts.includes(`capacity ${doc.capacity.answer.rate}/s`), `the answer labelled: ${c.texts.join(', ')}`)
  assert.equal(c.points, 2 * doc.capacity.steps.length)
  assert.match(c.title, /dashed red: the --until limit/)
})
