// Opens the sweep report in a real headless Chromium from file:// and checks every chart renders
// with no console errors and no request other than the file itself, that the lines, whiskers and
// labels are there, and that the knee chart's point labels do not overlap. Needs /usr/bin/chromium.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { renderSweepReport } from '../../lib/report/sweep/render.js'
import { loadSweep, withFailedCell, asTpcc, asRateSweep, asChbench, SWEEP_FILE } from '../fixtures/sweep/variants.js'
import { openReportPage } from '../helpers/page-checks.js'
import { chromiumSkip, chromiumForFile } from '../helpers/chromium.js'

const skip = chromiumSkip
// Screenshots go to a temporary directory, removed at the end unless PGLOAD_KEEP_SHOTS is set.
const { shots, newPage } = chromiumForFile('pgload-sweep-shots-')

/** What the page drew: per chart its marks, lines, whiskers and the boxes of its point labels. */
function inspect () {
  const box = (t) => { const b = t.getBoundingClientRect(); return { x: b.x, y: b.y, w: b.width, h: b.height, text: t.textContent } }
  return {
    ...window.pgloadReport,
    charts: [...document.querySelectorAll('.chart')].map((el) => ({
      label: el.getAttribute('aria-label'),
      marks: el.querySelectorAll('svg .role-mark').length,
      lines: el.querySelectorAll('svg .mark-line path').length,
      whiskers: el.querySelectorAll('svg .mark-rule line').length,
      width: el.querySelector('svg')?.getBoundingClientRect().width ?? 0,
      labels: [...el.querySelectorAll('svg .mark-text.role-mark text')].map(box)
    })),
    bestRows: document.querySelectorAll('table.best tbody tr').length
  }
}

/** The report open once every chart is drawn, with the console's errors and the requests made. */
async function openReport (file) {
  const page = await newPage({ viewport: { width: 1200, height: 900 } })
  return { page, ...await openReportPage(page, file) }
}

const overlap = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h

/** The fixture with scale 10's figures moved onto scale 1's: the knee chart's points coincide. */
function crowded () {
  const sweep = loadSweep()
  for (const c of sweep.cells.filter((x) => x.cell.scale === 10)) {
    const twin = sweep.cells.find((x) => x.cell.scale === 1 && x.cell.clients === c.cell.clients)
    Object.assign(c, { tps: { ...twin.tps, median: twin.tps.median + 5 }, p50Ms: twin.p50Ms, p99Ms: { ...twin.p99Ms, median: twin.p99Ms.median * 1.01 } })
  }
  return sweep
}

const cases = [
  ['tpcb', () => loadSweep(), { lines: [2, 4, 4, 6], best: 4 }],
  ['failed-cell', () => withFailedCell({ scale: 10, clients: 16 }), { lines: [2, 4, 4, 6], best: 4 }],
  ['tpcc', () => asTpcc(), { lines: [2, 4, 4, 6], best: 4 }],
  ['rate', () => asRateSweep(), { lines: [2, 2, 2, 6], best: 2 }],
  ['crowded', crowded, { lines: [2, 4, 4, 6], best: 4 }]
]

for (const [name, make, expected] of cases) {
  test(`sweep report (${name}) renders every chart in Chromium`, { skip, timeout: 60_000 }, async (t) => {
    const file = join(shots, `${name}.html`)
    await renderSweepReport(make(), { out: file, source: SWEEP_FILE, p99LimitMs: 10 })
    const { page, problems, requests } = await openReport(file)
    const status = await page.evaluate(inspect)
    const shot = join(shots, `${name}.png`)
    await page.screenshot({ path: shot, fullPage: true })
    await page.close()
    t.diagnostic(`${status.rendered}/${status.total} charts; screenshot ${shot}`)
    assert.deepEqual(status.errors, [])
    assert.equal(status.total, 4)
    assert.equal(status.rendered, 4)
    assert.deepEqual(status.charts.map((c) => c.label.replace('the target rate', 'clients')),
      ['Throughput against clients', 'Latency against clients', 'Latency against throughput', 'Throughput against database size'])
    // One line per scale (and the target line of a rate sweep); per scale a p50 and a p99 panel;
    // p50 and p99 per scale; two panels per client count (or rate).
    assert.deepEqual(status.charts.map((c) => c.lines), expected.lines)
    for (const c of status.charts) {
      assert.ok(c.marks > 0, `${c.label} has no marks`)
      assert.ok(c.width > 500, `${c.label} is ${c.width}px wide`)
    }
    // Whiskers: an errorbar is a rule plus two ticks per cell in the throughput chart.
    const cells = make().cells.length
    assert.ok(status.charts[0].whiskers >= cells, `${status.charts[0].whiskers} whisker rules for ${cells} cells`)
    const labels = status.charts[2].labels.filter((l) => /^\d[\d,]*(\/s)?$/.test(l.text))
    assert.ok(labels.length >= 2, `knee labels: ${labels.map((l) => l.text).join(' ')}`)
    for (let i = 0; i < labels.length; i++) {
      for (let j = i + 1; j < labels.length; j++) assert.ok(!overlap(labels[i], labels[j]), `labels ${labels[i].text} and ${labels[j].text} overlap`)
    }
    assert.equal(status.bestRows, expected.best)
    assert.deepEqual(problems, [])
    assert.deepEqual(requests, [pathToFileURL(file).href], 'no request besides the file itself')
    assert.ok(statSync(shot).size > 50_000, 'screenshot has content')
  })
}

test('sweep report of clients 1 and 2 beside other tables: whole-number client ticks, the workload\'s tables measured against shared_buffers', { skip, timeout: 60_000 }, async () => {
  const sweep = loadSweep()
  sweep.axes.clients = [1, 2]
  sweep.runs = sweep.runs.filter((r) => r.cell.clients !== 16)
  sweep.cells = sweep.cells.filter((c) => c.cell.clients !== 16)
  for (const x of [...sweep.runs, ...sweep.cells]) if (x.cell.clients === 4) x.cell.clients = 2
  // the pgbench tables are a fraction of a database that also holds TPC-C tables
  for (const c of sweep.cells) { c.tablesSizeBytes = c.cell.scale * 15_000_000; c.dbSizeBytes = 150_000_000 + c.tablesSizeBytes }
  const file = join(shots, 'clients-1-2.html')
  await renderSweepReport(sweep, { out: file, source: SWEEP_FILE })
  const page = await newPage({ viewport: { width: 1200, height: 900 } })
  await page.goto(pathToFileURL(file).href)
  await page.waitForFunction(() => window.pgloadReport?.done === true, null, { timeout: 30_000 })
  const seen = await page.evaluate(() => ({
    axes: [...document.querySelectorAll('.chart svg .role-axis')].map((a) => ({
      aria: a.getAttribute('aria-label') ?? '',
      labels: [...a.querySelectorAll('.role-axis-label text')].map((t) => t.textContent)
    })),
    cellsHead: [...document.querySelectorAll('table.cells thead th')].map((th) => th.textContent)
  }))
  await page.close()
  const clientAxes = seen.axes.filter((a) => a.aria.startsWith("X-axis titled 'clients'"))
  assert.ok(clientAxes.length >= 2, seen.axes.map((a) => a.aria).join('\n'))
  for (const a of clientAxes) assert.deepEqual(a.labels, ['1', '2'])
  const sizeAxes = seen.axes.filter((a) => /^X-axis titled '.*\/ (shared_buffers|memory)'/.test(a.aria))
  assert.deepEqual(sizeAxes.map((a) => /^X-axis titled '(.*)' for a/.exec(a.aria)[1]), ["workload's tables / shared_buffers", "workload's tables / memory"])
  assert.ok(seen.cellsHead.includes("workload's tables") && seen.cellsHead.includes('whole database'), seen.cellsHead.join(' | '))
  assert.ok(seen.cellsHead.includes('tables × shared_buffers'), seen.cellsHead.join(' | '))
})

test('sweep report of a chbench sweep: tpmC, New-Order p90 and queries per hour against the analytic streams, every stream count on the axis', { skip, timeout: 60_000 }, async (t) => {
  const file = join(shots, 'chbench.html')
  await renderSweepReport(asChbench(), { out: file, source: SWEEP_FILE })
  const { page, problems } = await openReport(file)
  const status = await page.evaluate(inspect)
  const axes = await page.evaluate(() => [...document.querySelectorAll('.chart')].map((el) => ({
    label: el.getAttribute('aria-label'),
    axes: [...el.querySelectorAll('svg .role-axis')].map((a) => ({
      aria: a.getAttribute('aria-label') ?? '',
      labels: [...a.querySelectorAll('.role-axis-label text')].map((x) => x.textContent)
    }))
  })))
  const shot = join(shots, 'chbench.png')
  await page.screenshot({ path: shot, fullPage: true })
  await page.close()
  t.diagnostic(`${status.rendered}/${status.total} charts; screenshot ${shot}`)
  assert.deepEqual(status.errors, [])
  assert.deepEqual(problems, [])
  assert.equal(status.rendered, 7)
  const figures = { 'tpmC against analytic streams': 'tpmC (New-Orders committed per minute)', 'New-Order p90 against analytic streams': 'New-Order p90 latency (ms)', 'Analytic queries per hour against analytic streams': 'analytic queries per hour' }
  for (const [title, yTitle] of Object.entries(figures)) {
    const chart = status.charts.find((c) => c.label === title)
    assert.ok(chart, `${title} is drawn: ${status.charts.map((c) => c.label).join(' | ')}`)
    assert.equal(chart.lines, 2, `${title}: one line per warehouse count`)
    assert.ok(chart.whiskers >= 6, `${title}: ${chart.whiskers} whisker rules`)
    const own = axes.find((c) => c.label === title).axes
    const x = own.find((a) => a.aria.startsWith("X-axis titled 'analytic streams'"))
    assert.ok(x, own.map((a) => a.aria).join('\n'))
    // every stream count has its tick, 1 between 0 and 2 as well
    assert.deepEqual(x.labels, ['0', '1', '2'])
    assert.ok(own.some((a) => a.aria.startsWith(`Y-axis titled '${yTitle}'`)), own.map((a) => a.aria).join('\n'))
  }
  assert.ok(statSync(shot).size > 50_000, 'screenshot has content')
})
