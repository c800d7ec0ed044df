// The HTML chart of `pgload history` in headless Chromium: the chart renders with a point per
// run, no console errors and no request other than the file itself. Needs /usr/bin/chromium.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { writeHistoryChart } from '../../lib/store/history-chart.js'
import { formatHistory } from '../../lib/store/history.js'

const CHROMIUM = process.env.PGLOAD_CHROMIUM ?? '/usr/bin/chromium'
const skip = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (apt-get install chromium)`
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
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] })
  try {
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } })
    const problems = []
    const requests = []
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`) })
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
    page.on('request', (r) => requests.push(r.url()))
    await page.goto(pathToFileURL(file).href)
    await page.waitForFunction(() => window.pgloadReport?.done === true, null, { timeout: 30_000 })
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
