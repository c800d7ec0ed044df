// The HTML chart of `pgload history` in headless Chromium: the chart renders with a point per
// run, no console errors and no request other than the file itself. Needs /usr/bin/chromium.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { writeHistoryChart } from '../../lib/store/history-chart.js'
import { formatHistory } from '../../lib/store/history.js'
import { openReportPage } from '../helpers/page-checks.js'
import { chromiumSkip, launchChromium } from '../helpers/chromium.js'

const skip = chromiumSkip
const dir = mkdtempSync(join(tmpdir(), 'pgload-history-shots-'))

// two labels over eight days, one run a day each
const runs = Array.from({ length: 16 }, (_, i) => {
  const label = i % 2 ? 'patched' : 'main'
  const p99 = (label === 'main' ? 12 : 10) + (i % 5) * 0.4
  return { runId: i + 1, startTime: `2026-03-${String(1 + (i >> 1)).padStart(2, '0')}T0${i % 2}:00:00.000Z`, label, workload: 'tpcb', clients: 8, scale: 10, tps: 900 - i, p50: 3, p99, max: 30, value: p99 }
})

test('the history chart renders in Chromium', { skip, timeout: 60_000 }, async (t) => {
  const file = join(dir, 'history.html')
  await writeHistoryChart(runs, 'p99', file, { table: formatHistory(runs, 'p99') })
  const browser = await launchChromium()
  try {
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } })
    const { problems, requests } = await openReportPage(page, file)
    const status = await page.evaluate(() => ({
      ...window.pgloadReport,
      points: document.querySelectorAll('#chart-0 svg path[aria-roledescription="point"]').length,
      lines: document.querySelectorAll('#chart-0 svg path[aria-roledescription="line mark"]').length,
      table: document.querySelector('pre')?.textContent.split('\n').length
    }))
    const shot = join(dir, 'history.png')
    await page.screenshot({ path: shot, fullPage: true })
    if (process.env.PGLOAD_KEEP_SHOTS) t.diagnostic(`screenshot ${shot}`)
    assert.deepEqual(status.errors, [])
    assert.equal(status.rendered, 1)
    assert.equal(status.points, runs.length)
    assert.equal(status.lines, 2) // one per label
    assert.equal(status.table, runs.length + 2) // header, runs, final newline
    assert.deepEqual(problems, [])
    assert.deepEqual(requests, [pathToFileURL(file).href], 'no request besides the file itself')
    assert.ok(statSync(shot).size > 20_000, 'screenshot has content')
  } finally {
    await browser.close()
    if (!process.env.PGLOAD_KEEP_SHOTS) rmSync(dir, { recursive: true, force: true })
  }
})

test('history chart of runs minutes apart, of two set-ups: tick labels all differ, one line per set-up', { skip, timeout: 60_000 }, async () => {
  const d = mkdtempSync(join(tmpdir(), 'pgload-history-ticks-'))
  // a scale 10, 16 clients run, then a sweep's scale 1 runs, then scale 10 again, a few minutes in all
  const at = (s) => new Date(Date.parse('2026-03-01T21:46:00.000Z') + s * 1000).toISOString()
  const setups = [[10, 16], [1, 1], [1, 4], [1, 1], [1, 4], [10, 16]]
  const mixed = setups.map(([scale, clients], i) => ({ runId: i + 1, startTime: at(i * 25), label: null, workload: 'tpcb', clients, scale, connections: clients, rate: null, protocol: 'prepared', jobs: 1, scripts: null, workloadOptions: null, tps: 900, p50: 1, p99: 5, max: 9, value: 500 + 100 * i }))
  const file = join(d, 'ticks.html')
  await writeHistoryChart(mixed, 'tps', file)
  const browser = await launchChromium()
  try {
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } })
    await page.goto(pathToFileURL(file).href)
    await page.waitForFunction(() => window.pgloadReport?.done === true, null, { timeout: 30_000 })
    const seen = await page.evaluate(() => ({
      ticks: [...document.querySelectorAll('#chart-0 svg .role-axis')]
        .filter((a) => (a.getAttribute('aria-label') ?? '').startsWith('X-axis'))
        .flatMap((a) => [...a.querySelectorAll('.role-axis-label text')].map((t) => t.textContent)),
      lines: document.querySelectorAll('#chart-0 svg path[aria-roledescription="line mark"]').length,
      legend: [...document.querySelectorAll('#chart-0 svg .role-legend-label text')].map((t) => t.textContent)
    }))
    assert.ok(seen.ticks.length >= 3, seen.ticks.join(', '))
    assert.equal(new Set(seen.ticks).size, seen.ticks.length, `tick labels repeat: ${seen.ticks.join(', ')}`)
    assert.equal(seen.lines, 3, 'one line per set-up')
    assert.deepEqual(seen.legend.sort(), ['tpcb scale 1, 1 client', 'tpcb scale 1, 4 clients', 'tpcb scale 10, 16 clients'])
  } finally {
    await browser.close()
    rmSync(d, { recursive: true, force: true })
  }
})
