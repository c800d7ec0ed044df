// The report of a CH-benCHmark run (1 warehouse, 2 analytic streams beside unpaced TPC-C, 20 s)
// as a person sees it in headless Chromium: throughput over time with one line for the analytic
// queries beside TPC-C's five types, the latency chart with each stream's complete sets marked,
// the header's CH-benCHmark block, and nothing drawn over anything. Screenshot under
// test-output/screenshots.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeHtmlReport } from '../../lib/report/render-report.js'
import { chromiumSkip, chromiumForFile } from '../helpers/chromium.js'
import { keepVegaViews, assertPageLooksRight, chartsDrawn, openReportPage } from '../helpers/page-checks.js'

const skip = chromiumSkip
const { shots: dir, newPage } = chromiumForFile('pgload-chbench-report-')
const recorded = () => JSON.parse(readFileSync(new URL('../fixtures/results/recorded-chbench-k2.json', import.meta.url), 'utf8'))

test('the report of a chbench run: one analytic line over time and by percentile, the streams\' sets marked, nothing overlapping', { skip, timeout: 60_000 }, async (t) => {
  const doc = recorded()
  const file = await writeHtmlReport([doc], join(dir, 'chbench.html'))
  const page = await newPage({ viewport: { width: 1200, height: 900 } })
  try {
    await keepVegaViews(page)
    await openReportPage(page, file)
    t.diagnostic(`screenshot ${await assertPageLooksRight(page, 'chbench-run')}`)
    const charts = await chartsDrawn(page)
    const throughput = charts.find((c) => c.name === 'Throughput over time')
    const lines = throughput.legends.map((l) => Object.keys(l)).find((names) => names.includes('analytic queries'))
    assert.deepEqual(lines, ['new-order', 'payment', 'order-status', 'delivery', 'stock-level', 'analytic queries'])
    // the whole-run charts too: the queries as one line, not 22 in repeated colours
    const byPercentile = charts.find((c) => c.name === 'Latency by percentile')
    assert.deepEqual(byPercentile.legends.map((l) => Object.keys(l)).find((names) => names.includes('analytic queries')), lines)
    const latency = charts.find((c) => c.name === 'Latency over time')
    assert.match(latency.subtitle, /TPC-C's transactions only .*; dotted: an analytic stream completes a set of its queries/)
    // the latency drawn is the transactions': no interval's max near a query's seconds
    const maxMs = await page.evaluate(() => {
      const latest = new Map(window.__pgloadViews.filter((v) => v.el?.isConnected).map((v) => [v.el, v.view]))
      const view = [...latest].find(([el]) => el.closest('.chart')?.getAttribute('aria-label') === 'Latency over time')[1]
      return Math.max(...view.data('latency').map((r) => r.ms))
    })
    assert.ok(maxMs < 1000, `latency over time reaches ${maxMs} ms`)
    // one dotted rule per complete set
    const sets = doc.chbench.sets.reduce((n, s) => n + s.endsS.length, 0)
    assert.ok(sets > 0)
    assert.equal(await page.evaluate(() => {
      const latest = new Map(window.__pgloadViews.filter((v) => v.el?.isConnected).map((v) => [v.el, v.view]))
      const view = [...latest].find(([el]) => el.closest('.chart')?.getAttribute('aria-label') === 'Latency over time')[1]
      return view.data('streamSets').length
    }), sets)
    const text = await page.innerText('body')
    assert.match(text, /throughput\s+\d+\.\d TPC-C transactions per second, \d+\.\d{3} analytic queries per second/)
    assert.match(text, /answers\s+checked: q16 \(the others read what the TPC-C terminals change/)
  } finally {
    await page.close()
  }
})
