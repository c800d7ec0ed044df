// A sweep's live dashboard in a real headless Chromium: the page opened during the first run shows
// its place and its live charts, then (the same page, without reloading) the second run with the
// first cell in the table of cells done, then the sweep's report, without console errors. Needs
// /usr/bin/chromium.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { startWithDashboard } from '../helpers/cli.js'
import { chromiumSkip, launchChromium } from '../helpers/chromium.js'

const skip = chromiumSkip
const dir = mkdtempSync(join(tmpdir(), 'pgload-sweep-live-browser-'))
let server
let browser

before(async () => {
  if (skip) return
  server = await getTestServer()
  browser = await launchChromium()
})
after(async () => {
  await browser?.close()
  rmSync(dir, { recursive: true, force: true })
})

test('the dashboard of a running sweep: the run counter advances, the cells done grow, then the sweep report', { skip, timeout: 120_000 }, async () => {
  const { child, url, exited, output } = startWithDashboard(['sweep', 'tpcb', '-S', '--scale', '1', '--clients', '1,2', '--repeat', '1', '-T', '6', '--rate', '200',
    '--url', server.url, '--dir', join(dir, 'sweep'), '--dashboard', '127.0.0.1:0'])
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
    const problems = []
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`) })
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
    await page.goto(await url)
    // the run's place in the header, and its live charts with a point at least
    const live = ([want, points]) => (document.getElementById('pgload-header')?.textContent ?? '').includes(want) && window.pgloadLive?.points >= points && window.pgloadLive.charts >= 3 * points
    const until = (want, points) => page.waitForFunction(live, [want, points], { timeout: 40_000 }).catch(async (err) => {
      const at = await page.evaluate(() => ({ header: document.getElementById('pgload-header')?.textContent, status: window.pgloadLive })).catch(() => null)
      throw new Error(`${want}: ${err.message.split('\n')[0]}; the page: ${JSON.stringify(at)}; pgload: ${output.stderr}`)
    })
    // the runs' order is shuffled (the sweep's order seed): either cell may come first
    await until('run 1 of 2: cell ', 1)
    const first = await page.evaluate(() => ({ header: document.getElementById('pgload-header').textContent, rows: document.querySelectorAll('table.sweep-cells-done tbody tr').length, svgs: document.querySelectorAll('#pgload-charts svg').length }))
    assert.equal(first.rows, 0)
    assert.ok(first.svgs >= 3, `charts drawn: ${first.svgs}`)
    // a fresh view: its header at once (its points may be few on a busy machine)
    await until('run 2 of 2: cell ', 0)
    const second = await page.evaluate(() => ({ rows: [...document.querySelectorAll('table.sweep-cells-done tbody tr')].map((tr) => [...tr.cells].map((td) => td.textContent)) }))
    assert.equal(second.rows.length, 1, JSON.stringify(second))
    const firstCell = /run 1 of 2: cell \d of 2 \(scale 1, clients (\d)/.exec(first.header)?.[1]
    assert.deepEqual(second.rows[0].slice(0, 4), ['1', firstCell, '200', '1/1'], 'the first run\'s cell, one run of one')
    await page.waitForFunction(() => window.pgloadLive?.final === true && window.pgloadReport?.done === true, null, { timeout: 40_000 })
    const final = await page.evaluate(() => ({ title: document.title, report: window.pgloadReport, svgs: document.querySelectorAll('.chart svg').length }))
    assert.match(final.title, /^pgload sweep report: tpcb/)
    assert.deepEqual(final.report.errors, [])
    assert.ok(final.svgs >= 2, JSON.stringify(final))
    assert.deepEqual(problems, [])
    assert.equal((await exited).code, 0, output.stderr)
  } finally {
    child.kill('SIGKILL')
  }
})
