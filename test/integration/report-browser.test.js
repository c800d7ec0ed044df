// Opens the HTML report in a real headless Chromium from file:// and checks every chart renders
// with no console errors and no request other than the file itself. Needs /usr/bin/chromium.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, statSync } from 'node:fs'
import { join, basename } from 'node:path'
import { pathToFileURL } from 'node:url'
import { writeHtmlReport } from '../../lib/report/render-report.js'
import { openReportPage } from '../helpers/page-checks.js'
import { chromiumSkip, chromiumForFile } from '../helpers/chromium.js'

const fixture = (name) => JSON.parse(readFileSync(new URL(`../fixtures/results/${name}`, import.meta.url), 'utf8'))
const skip = chromiumSkip
// Screenshots go to a temporary directory, removed at the end unless PGLOAD_KEEP_SHOTS is set
// (then it stays for a look, and its path is printed as a diagnostic).
const { shots, newPage } = chromiumForFile('pgload-report-shots-')

/** A TPC-B run whose sampler saw no checkpoint or autovacuum (empty marker layers). */
function quietRun () {
  const doc = fixture('tpcb-a.json')
  doc.serverStats.events = []
  return doc
}

for (const set of [['tpcb-a.json'], ['tpcc.json'], ['tpcb-a.json', 'tpcb-b.json'], ['quiet'], ['recorded-tpcb.json']]) {
  test(`HTML report of ${set.join(' + ')} renders every chart in Chromium`, { skip, timeout: 60_000 }, async (t) => {
    const name = set.map((f) => basename(f, '.json')).join('+')
    const docs = set.map((f) => (f === 'quiet' ? quietRun() : fixture(f)))
    const file = await writeHtmlReport(docs, join(shots, `${name}.html`), { names: set.map((f) => basename(f, '.json')) })
    const page = await newPage({ viewport: { width: 1200, height: 900 } })
    const t0 = performance.now()
    const { problems, requests } = await openReportPage(page, file)
    const ms = Math.round(performance.now() - t0)
    const status = await page.evaluate(() => ({
      ...window.pgloadReport,
      charts: [...document.querySelectorAll('.chart')].map((el) => ({
        id: el.id,
        marks: el.querySelectorAll('svg .role-mark').length,
        width: el.querySelector('svg')?.getBoundingClientRect().width ?? 0
      }))
    }))
    const shot = join(shots, `${name}.png`)
    await page.screenshot({ path: shot, fullPage: true })
    await page.close()
    t.diagnostic(`${status.rendered}/${status.total} charts in ${ms} ms; ${(statSync(file).size / 1024).toFixed(0)} KiB HTML; screenshot ${shot}`)
    assert.deepEqual(status.errors, [])
    assert.equal(status.rendered, status.total)
    assert.equal(status.charts.length, status.total)
    for (const c of status.charts) {
      assert.ok(c.marks > 0, `${c.id} has no marks`)
      assert.ok(c.width > 300, `${c.id} is ${c.width}px wide`)
    }
    assert.deepEqual(problems, [])
    assert.deepEqual(requests, [pathToFileURL(file).href], 'no request besides the file itself')
    assert.ok(statSync(shot).size > 50_000, 'screenshot has content')
  })
}

/**
 * Open a report and read, per chart, its title, subtitle and axes (vega's aria-labels name each
 * axis' title and domain) and the tick labels of each axis.
 */
async function chartAxes (file) {
  const page = await newPage({ viewport: { width: 1200, height: 900 } })
  try {
    await page.goto(pathToFileURL(file).href)
    await page.waitForFunction(() => window.pgloadReport?.done === true, null, { timeout: 30_000 })
    return await page.evaluate(() => ({
      skippedBox: document.querySelector('.skipped')?.textContent ?? null,
      charts: [...document.querySelectorAll('.chart')].map((el) => ({
        label: el.getAttribute('aria-label'),
        text: [...el.querySelectorAll('svg .role-title text')].map((t) => t.textContent).join(' | '),
        axes: [...el.querySelectorAll('svg .role-axis')].map((a) => ({
          aria: a.getAttribute('aria-label') ?? '',
          labels: [...a.querySelectorAll('.role-axis-label text')].map((t) => t.textContent)
        }))
      }))
    }))
  } finally {
    await page.close()
  }
}

// "Y-axis titled 'latency (ms)' for a linear scale with values from 0 to 200" -> 200
const axisTop = (axis) => Number(/values from [-\d.,e]+ to ([-\d.,e]+)/.exec(axis.aria)?.[1].replace(/,/g, ''))
const latencyAxes = (chart) => chart.axes.filter((a) => /^Y-axis titled 'latency \(ms\)'/.test(a.aria))

test('HTML report of one TPC-B run: no "charts not drawn" box, the maximum on the percentile chart, no legend for absent thresholds', { skip, timeout: 60_000 }, async () => {
  const doc = fixture('tpcb-a.json')
  const file = await writeHtmlReport([doc], join(shots, 'axes-tpcb.html'))
  const { skippedBox, charts } = await chartAxes(file)
  assert.equal(skippedBox, null, 'a TPC-B report has no TPC-C charts to say it did not draw')
  const spectrum = charts.find((c) => c.label === 'Latency by percentile')
  assert.ok(spectrum, charts.map((c) => c.label).join(', '))
  const [y] = latencyAxes(spectrum)
  assert.ok(axisTop(y) >= doc.summary.latencyMs.max, `y axis to ${axisTop(y)} ms, max ${doc.summary.latencyMs.max} ms (${y.aria})`)
  assert.doesNotMatch(spectrum.text, /thresholds/)
})

test('HTML report of two runs: the compare chart\'s percentile panel reaches the slower run\'s maximum', { skip, timeout: 60_000 }, async () => {
  const docs = [fixture('tpcb-a.json'), fixture('tpcb-b.json')]
  const file = await writeHtmlReport(docs, join(shots, 'axes-compare.html'), { names: ['A', 'B'] })
  const { charts } = await chartAxes(file)
  const compare = charts.find((c) => c.label === 'Runs compared')
  const axes = latencyAxes(compare)
  const max = Math.max(...docs.map((d) => d.summary.latencyMs.max))
  // the last latency panel is the percentile one (throughput, p99 over time, by percentile)
  assert.ok(axisTop(axes.at(-1)) >= max, `percentile panel to ${axisTop(axes.at(-1))} ms, max ${max} ms`)
})

test('HTML report of a short TPC-C run: lock waits and backends have whole-number axes', { skip, timeout: 60_000 }, async () => {
  const file = await writeHtmlReport([fixture('recorded-tpcc-short.json')], join(shots, 'axes-tpcc.html'))
  const { charts } = await chartAxes(file)
  const server = charts.find((c) => c.label === 'Server activity')
  for (const title of ['lock waits', 'backends']) {
    const axis = server.axes.find((a) => a.aria.startsWith(`Y-axis titled '${title}'`))
    assert.ok(axis, `${title}: ${server.axes.map((a) => a.aria).join('; ')}`)
    assert.ok(axis.labels.length > 0)
    for (const l of axis.labels) assert.match(l, /^\d+$/, `${title} tick label ${l}`)
  }
})
