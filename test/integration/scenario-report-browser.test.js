// The report of a scenario run, looked at in headless Chromium as a person looks at it
// (test/helpers/page-checks.js): every time chart marks where each scenario starts and stops
// with its name, each scenario has its section with its figures and its own charts, and nothing
// overlaps. The screenshot stays in test-output/screenshots/scenarios.png.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeHtmlReport } from '../../lib/report/render-report.js'
import { chromiumSkip, chromiumForFile } from '../helpers/chromium.js'
import { keepVegaViews, assertPageLooksRight, chartsDrawn, openReportPage } from '../helpers/page-checks.js'

const skip = chromiumSkip
const { shots: dir, newPage } = chromiumForFile('pgload-scenario-page-')

// a 12 s run: checkout (tpcb-like at 50 tps) for all of it, reports (a script) from 4 s to 9 s
const fixture = (name) => JSON.parse(readFileSync(new URL(`../fixtures/results/${name}.json`, import.meta.url), 'utf8'))
const doc = () => fixture('recorded-scenarios')

test('a scenario run\'s report: marks, names and sections visible, nothing overlapping', { skip, timeout: 60_000 }, async (t) => {
  const file = await writeHtmlReport([doc()], join(dir, 'scenarios.html'))
  const page = await newPage({ viewport: { width: 1200, height: 900 } })
  try {
    await keepVegaViews(page)
    await openReportPage(page, file)
    assert.deepEqual(await page.evaluate(() => window.pgloadReport.errors), [])
    t.diagnostic(`screenshot ${await assertPageLooksRight(page, 'scenarios')}`)
    const headings = await page.$$eval('#pgload-charts h3', (els) => els.map((e) => e.textContent))
    assert.deepEqual(headings, ['All scenarios together', 'Scenario checkout', 'Scenario reports'])
    const facts = await page.$$eval('.scenario-facts', (els) => els.map((e) => e.textContent))
    assert.match(facts[0], /^tpcb · 0–11\.998 s of the run · 4 clients · 50 tps offered · tags: team=shop$/)
    assert.match(facts[1], /^script · 4–9\.01 s of the run · 2 clients$/)
    const charts = await chartsDrawn(page)
    const names = charts.map((c) => c.name)
    for (const s of ['checkout', 'reports']) {
      for (const title of ['Throughput over time', 'Latency over time', 'Latency distribution']) {
        assert.ok(names.includes(`Scenario ${s}: ${title}`), `${s}: ${title} drawn (charts: ${names.join(', ')})`)
      }
    }
    // every time chart carries the marks and their labels; the distribution has no time axis
    const texts = await page.evaluate(() => (window.__pgloadViews ?? []).map((v) => ({
      name: v.el.closest('.chart').getAttribute('aria-label'),
      labels: (() => { try { return v.view.data('scenarioLabels').map((d) => d.label) } catch { return null } })()
    })))
    const timeCharts = texts.filter((c) => /over time/.test(c.name))
    assert.equal(timeCharts.length, 6, 'the run\'s two time charts and each scenario\'s two')
    for (const c of timeCharts) {
      assert.deepEqual(c.labels, ['checkout starts', 'reports starts', 'reports stops', 'checkout stops'], c.name)
      assert.match(charts.find((x) => x.name === c.name).subtitle, /black: scenarios start \(solid\) and stop \(dashed\)/, c.name)
    }
    assert.ok(texts.filter((c) => /distribution/.test(c.name)).every((c) => c.labels === null), 'no marks on a chart without time')
  } finally {
    await page.close()
  }
})

test('the compare report of two scenario runs: each run\'s scenario sections, nothing overlapping', { skip, timeout: 60_000 }, async (t) => {
  const file = await writeHtmlReport([doc(), fixture('recorded-scenarios-b')], join(dir, 'scenarios-compare.html'), { names: ['A1', 'B1'] })
  const page = await newPage({ viewport: { width: 1200, height: 900 } })
  try {
    await keepVegaViews(page)
    await openReportPage(page, file)
    assert.deepEqual(await page.evaluate(() => window.pgloadReport.errors), [])
    t.diagnostic(`screenshot ${await assertPageLooksRight(page, 'scenarios-compare')}`)
    const headings = await page.$$eval('#pgload-charts h3', (els) => els.map((e) => e.textContent))
    // the runs' names (their numbers and start times) aside
    assert.deepEqual(headings.map((h) => h.replace(/: .*? ·/, ' ·').replace(/: .*$/, '')), [
      'All runs', 'Run A1', 'Run A1 · Scenario checkout', 'Run A1 · Scenario reports', 'Run B1', 'Run B1 · Scenario checkout', 'Run B1 · Scenario reports'
    ])
  } finally {
    await page.close()
  }
})
