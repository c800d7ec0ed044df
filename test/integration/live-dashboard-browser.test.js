// The live dashboard in a real headless Chromium: open the page of a running `pgload run` at
// second 2, see the report's charts render without console errors and gain points as the run
// goes on (one full update, then only the changes), a second page opened later hold the same
// rows in its views, then see the final report (the page `pgload report` writes) when it ends, both looked at as a
// person looks (test/helpers/page-checks.js); the page and
// its events carry no password. Needs /usr/bin/chromium.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { runCli, startWithDashboard } from '../helpers/cli.js'
import { chromiumSkip, launchChromium } from '../helpers/chromium.js'
import { keepVegaViews, assertPageLooksRight, chartsDrawn } from '../helpers/page-checks.js'
import { WAIT_CHART_TITLE } from '../../lib/report/wait-chart.js'

const skip = chromiumSkip
const dir = mkdtempSync(join(tmpdir(), 'pgload-live-'))
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
let server
let browser

before(async () => {
  if (skip) return
  server = await getTestServer()
  const r = await runCli(['init', 'tpcb', '--scale', '1', '--force', '--url', server.url])
  assert.equal(r.code, 0, r.stderr)
  browser = await launchChromium()
})
after(async () => {
  await browser?.close()
  rmSync(dir, { recursive: true, force: true })
})

test('the dashboard of a running pgload run: charts render, gain points, then the final report', { skip, timeout: 120_000 }, async () => {
  const out = join(dir, 'run.json')
  const saved = join(dir, 'dashboard.html')
  const run = startWithDashboard(['run', 'tpcb', '-S', '-c', '2', '-T', '8', '--rate', '300', '--url', server.url, '--out', out,
    '--dashboard', '127.0.0.1:0', '--dashboard-out', saved])
  try {
    const url = await run.url
    await sleep(2000)
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
    const problems = []
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`) })
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
    await keepVegaViews(page)
    await page.goto(url)
    await page.waitForFunction(() => window.pgloadLive?.updates >= 1 && window.pgloadLive.charts >= 3, null, { timeout: 20_000 })
    await assertPageLooksRight(page, 'dashboard-running')
    // the server panels at second 2: one sample drawn (as points, waiting for a second) or lines
    const serverAt2 = (await chartsDrawn(page)).find((c) => c.name === 'Server activity')
    assert.ok(serverAt2, 'server activity drawn at second 2')
    if (/waiting for a second sample/.test(serverAt2.subtitle)) assert.ok(serverAt2.marks.includes('symbol'), JSON.stringify(serverAt2))
    else assert.ok(serverAt2.marks.some((m) => m === 'line' || m === 'area'), JSON.stringify(serverAt2))
    const first = await page.evaluate(() => ({ ...window.pgloadLive, svgs: document.querySelectorAll('#pgload-charts svg').length }))
    assert.ok(first.points >= 1, JSON.stringify(first))
    assert.ok(first.svgs >= 3, `charts drawn: ${first.svgs}`)
    assert.deepEqual(first.errors, [])
    await page.waitForFunction((n) => window.pgloadLive?.points > n, first.points + 1, { timeout: 20_000 })
    const later = await page.evaluate(() => ({ ...window.pgloadLive, marks: document.querySelectorAll('#pgload-charts svg .role-mark').length }))
    assert.ok(later.points > first.points + 1, `${first.points} -> ${later.points} points`)
    // after the first full update, the page got only the changes, inserted into its views
    assert.equal(later.full, 1, JSON.stringify(later))
    assert.ok(later.deltas >= 1, JSON.stringify(later))
    // a page opened now receives everything so far at once, and holds what the first one holds
    const second = await browser.newPage({ viewport: { width: 1200, height: 900 } })
    second.on('pageerror', (e) => problems.push(`pageerror (second page): ${e.message}`))
    await second.goto(url)
    await second.waitForFunction(() => window.pgloadLive?.updates >= 1 && window.pgloadLive.charts >= 3, null, { timeout: 20_000 })
    const v = await second.evaluate(() => window.pgloadLive.version)
    await page.waitForFunction((n) => window.pgloadLive.version >= n, v, { timeout: 20_000 })
    await second.waitForFunction((n) => window.pgloadLive.version >= n, v, { timeout: 20_000 })
    // read both between two updates (one a second)
    let rows1, rows2
    for (let i = 0; i < 10; i++) {
      [rows1, rows2] = await Promise.all([page, second].map((p) => p.evaluate(() => ({ version: window.pgloadLive.version, rows: window.pgloadLive.rows() }))))
      if (rows1.version === rows2.version) break
      await sleep(200)
    }
    assert.equal(rows1.version, rows2.version)
    assert.deepEqual(rows1.rows, rows2.rows)
    assert.ok(rows1.rows.find((c) => c.name === 'throughput').throughput >= later.points, JSON.stringify(rows1.rows))
    await second.close()
    const html = await page.content()
    assert.doesNotMatch(html, new RegExp(new URL(server.url).password || 'no-password-in-url'))
    // the run ends: the page becomes the final report
    await page.waitForFunction(() => window.pgloadLive?.final === true && window.pgloadReport?.done === true, null, { timeout: 40_000 })
    const final = await page.evaluate(() => ({ title: document.title, report: window.pgloadReport, svgs: document.querySelectorAll('.chart svg').length }))
    await assertPageLooksRight(page, 'dashboard-final')
    // each backend state in the colour it had at second 2
    const states = (c) => Object.assign({}, ...c.legends.filter((l) => 'idle' in l || 'active' in l))
    const early = states(serverAt2)
    const late = states((await chartsDrawn(page)).find((c) => c.name === 'Server activity'))
    assert.ok(Object.keys(early).length > 0, JSON.stringify(serverAt2.legends))
    for (const [state, colour] of Object.entries(early)) if (state in late) assert.equal(late[state], colour, `${state} at 2 s and at the end`)
    // where the time went: the run's backends by wait class, CPU among them
    const waits = (await chartsDrawn(page)).find((c) => c.name === WAIT_CHART_TITLE)
    assert.ok(waits && waits.legends.some((l) => 'CPU' in l), JSON.stringify(waits))
    assert.match(final.title, /^pgload report: tpcb/)
    assert.deepEqual(final.report.errors, [])
    assert.ok(final.report.rendered >= 4 && final.svgs >= 4, JSON.stringify(final))
    assert.deepEqual(problems, [])
    await page.close()
    const { code, stderr } = await run.exited
    assert.equal(code, 0, stderr)
    assert.match(stderr, /dashboard report written to/)
    const file = readFileSync(saved, 'utf8')
    assert.match(file, /<title>pgload report: tpcb<\/title>/)
    // the saved page is the one the report of the results file is built from
    assert.equal(JSON.parse(readFileSync(out, 'utf8')).summary.transactions > 0, true)
  } finally {
    run.child.kill('SIGKILL')
  }
})
