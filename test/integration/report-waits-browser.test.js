// The wait classes over time as a person sees them in the HTML report, in headless Chromium: the
// stacked chart under the latency chart with its title and a legend entry per class in its
// colour, its time axis drawn where the latency chart's is, and the "Where the time went" table.
// The screenshot stays in test-output/screenshots.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeHtmlReport } from '../../lib/report/render-report.js'
import { WAIT_CHART_TITLE, WAIT_CLASS_COLOURS } from '../../lib/report/wait-chart.js'
import { chromiumSkip, chromiumForFile } from '../helpers/chromium.js'
import { keepVegaViews, assertPageLooksRight, chartsDrawn, openReportPage } from '../helpers/page-checks.js'
import { withWaitSeries } from '../helpers/waits-results.js'

const skip = chromiumSkip
const { shots: dir, newPage } = chromiumForFile('pgload-waits-page-')
const fixture = () => JSON.parse(readFileSync(new URL('../fixtures/results/tpcb-a.json', import.meta.url), 'utf8'))

/** Per chart (its aria-label), where its time axis is drawn on the page and what it spans. */
function timeAxes () {
  return [...document.querySelectorAll('.chart')].map((el) => {
    const axis = [...el.querySelectorAll('svg .role-axis')].find((a) => (a.getAttribute('aria-label') ?? '').startsWith('X-axis titled \'time (s)\''))
    const line = axis?.querySelector('.role-axis-domain path, .role-axis-domain line')
    const box = line?.getBoundingClientRect()
    return { label: el.getAttribute('aria-label'), aria: axis?.getAttribute('aria-label') ?? null, left: box?.left ?? null, width: box?.width ?? null, ticks: [...(axis?.querySelectorAll('.role-axis-label text') ?? [])].map((t) => t.textContent) }
  })
}

test('the report shows where the time went: the stacked chart on the latency chart\'s time axis, its legend, and the table', { skip, timeout: 60_000 }, async (t) => {
  const file = await writeHtmlReport([withWaitSeries(fixture())], join(dir, 'waits.html'))
  const page = await newPage({ viewport: { width: 1200, height: 900 } })
  try {
    await keepVegaViews(page)
    await openReportPage(page, file)
    t.diagnostic(`screenshot ${await assertPageLooksRight(page, 'report-waits')}`)
    const chart = (await chartsDrawn(page)).find((c) => c.name === WAIT_CHART_TITLE)
    assert.ok(chart, (await chartsDrawn(page)).map((c) => c.name).join(', '))
    assert.ok(chart.axes.includes('average active sessions'), chart.axes.join(', '))
    assert.ok(chart.marks.includes('area'), chart.marks.join(', '))
    assert.match(chart.subtitle, /shaded: checkpoint, dashed: autovacuum/)
    const legend = chart.legends.find((l) => 'CPU' in l)
    assert.deepEqual(Object.keys(legend), ['CPU', 'IO', 'Lock', 'idle in transaction'])
    for (const [cls, colour] of Object.entries(legend)) assert.equal(colour.toLowerCase(), WAIT_CLASS_COLOURS[cls], cls)

    // one time axis: drawn at the same place, as wide, over the same span as the latency chart's
    const axes = await page.evaluate(timeAxes)
    const waits = axes.find((a) => a.label === WAIT_CHART_TITLE)
    for (const other of ['Latency over time', 'Throughput over time']) {
      const o = axes.find((a) => a.label === other)
      t.diagnostic(JSON.stringify([o, waits]))
      assert.ok(o?.left !== null && waits?.left !== null, JSON.stringify(axes))
      assert.ok(Math.abs(o.left - waits.left) <= 1.5, `${other}: time axes start at ${o.left} and ${waits.left} px`)
      assert.ok(Math.abs(o.width - waits.width) <= 1.5, `${other}: time axes ${o.width} and ${waits.width} px wide`)
      assert.deepEqual(waits.ticks, o.ticks, other)
      assert.equal(waits.aria.replace(/^.*?values from/, ''), o.aria.replace(/^.*?values from/, ''), other)
    }
    // the chart comes right after the latency chart
    assert.equal(axes.findIndex((a) => a.label === WAIT_CHART_TITLE), axes.findIndex((a) => a.label === 'Latency over time') + 1)

    const text = await page.innerText('body')
    assert.match(text, /Where the time went\n/)
    assert.match(text, /tpcb-like\tLock:transactionid 60 %, CPU 30 %, IO:WALSync 10 %\t1\.200 ± 0\.050\t0\.400 ± 0\.060\t2,000/)
    assert.match(text, /select-only\tCPU 100 %\t0\.200 ± 0\.010\t~0 ± 0\.020/)
  } finally {
    await page.close()
  }
})
