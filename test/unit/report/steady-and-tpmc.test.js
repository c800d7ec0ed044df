// The throughput chart's time-to-steady-state marker and the TPC-C chart's rolling tpmC.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { buildCharts } from '../../../lib/report/charts.js'
import { labelRuns } from '../../../lib/report/render-report.js'
import { rollingMean, effectiveWindowS } from '../../../lib/report/rolling-mean.js'
import { renderSvg } from '../../../lib/report/svg.js'

const fixture = (name) => JSON.parse(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8'))
const chart = (doc, id) => buildCharts(labelRuns([doc])).charts.find((c) => c.id === id)

/** The tpcb fixture warming up: throughput climbing over its first 8 s. */
function warmingRun () {
  const doc = fixture('results/tpcb-a.json')
  doc.serverStats.events = []
  doc.intervals.forEach((iv, i) => {
    const f = Math.min(1, (i + 1) / 9)
    iv.count = { 'tpcb-like': Math.round(600 * f) }
  })
  return doc
}

test('the throughput chart marks the time to steady state with a rule, a label and its band', async () => {
  const { spec } = chart(warmingRun(), 'throughput')
  assert.deepEqual(spec.datasets.steadyState, [{ t: 8, label: 'steady from 8 s (±10 % of 600 tps)' }])
  // its label above the plot (negative y), clear of the data and the event markers
  assert.deepEqual(spec.datasets.steadyLabel.map(({ t, label, y, align }) => [t, label, y < 0, align]), [[8, 'steady from 8 s (±10 % of 600 tps)', true, 'left']])
  assert.deepEqual(spec.datasets.steadyBand.map(({ t, t2, lo, hi }) => [t, t2, lo, hi]), [[8, 30, 540, 660]])
  const { svg } = await renderSvg(spec)
  assert.ok(svg.includes('>steady from 8 s (±10 % of 600 tps)</text>'))
})

test('a run that never settles says so in the throughput chart instead of a marker', () => {
  const doc = warmingRun()
  doc.intervals.forEach((iv, i) => { iv.count = { 'tpcb-like': 100 + 40 * i } })
  const { spec } = chart(doc, 'throughput')
  assert.deepEqual(spec.datasets.steadyState, [])
  assert.ok(spec.title.subtitle.some((l) => /^no steady state: /.test(l)), JSON.stringify(spec.title.subtitle))
  assert.ok(!spec.layer.some((l) => l.data?.name === 'steadyState'), 'no empty marker layer')
})

test('rolling mean: centred, cut at the ends, exact on a constant series', () => {
  const rows = Array.from({ length: 10 }, (_, i) => ({ t: i + 1, v: i % 2 ? 120 : 0 }))
  const m = rollingMean(rows, 'v', 4)
  assert.deepEqual(m.slice(0, 3).map((r) => r.value), [40, 60, 48], 'ends use the part of the window inside the run')
  assert.equal(m[5].value, 72) // t 4..8: 120, 0, 120, 0, 120
  assert.deepEqual(rollingMean([{ t: 1, v: 5 }, { t: 2, v: 5 }, { t: 3, v: 5 }], 'v', 30).map((r) => r.value), [5, 5, 5])
  assert.equal(effectiveWindowS(rows, 30, 1), 10, 'a run shorter than the window: the run length')
  assert.equal(effectiveWindowS(rows, 4, 1), 4)
})

test('TPC-C tpmC: a 30 s rolling mean drawn bold over the faint per-interval line, window in the legend', () => {
  const doc = fixture('results/tpcc.json')
  const { spec } = chart(doc, 'tpcc')
  const lines = spec.datasets.tpmcLines
  const names = [...new Set(lines.map((r) => r.series))]
  assert.deepEqual(names, ['per 1 s interval', '30 s rolling mean'])
  const enc = spec.vconcat[0].layer[0].encoding
  // the dashed whole-run line is in the legend too, in its own colour
  assert.deepEqual(enc.color.scale.domain, [...names, 'whole-run tpmC'])
  assert.equal(enc.color.scale.range.length, 3)
  assert.deepEqual(spec.datasets.tpccSummary.map((r) => r.series), ['whole-run tpmC'])
  assert.deepEqual(enc.strokeWidth.scale.range, [1, 2.6], 'faint per-interval line, bold mean')
  assert.match(spec.title.subtitle[0], /centred 30 s rolling mean/)
  // The mean is smoother than the per-interval values: a smaller spread over the run.
  const spread = (name) => { const v = lines.filter((r) => r.series === name).map((r) => r.tpmC); return Math.max(...v) - Math.min(...v) }
  assert.ok(spread('30 s rolling mean') < spread('per 1 s interval') / 2, `${spread('30 s rolling mean')} vs ${spread('per 1 s interval')}`)
  // A 20 s run states a 20 s window.
  doc.intervals = doc.intervals.slice(0, 20)
  assert.deepEqual([...new Set(chart(doc, 'tpcc').spec.datasets.tpmcLines.map((r) => r.series))], ['per 1 s interval', '20 s rolling mean'])
})

test('the overlay of several runs marks each run\'s time to steady state in its colour', () => {
  const cold = warmingRun()
  cold.run.label = 'cold'
  const warm = fixture('results/tpcb-a.json')
  warm.run.label = 'warm'
  warm.intervals.forEach((iv) => { iv.count = { 'tpcb-like': 600 } })
  const overlay = buildCharts(labelRuns([cold, warm])).charts.find((c) => c.id === 'compare')
  assert.deepEqual(overlay.spec.datasets.compareSteady, [{ run: 'cold', t: 8, label: '8 s' }, { run: 'warm', t: 0, label: '0 s' }])
  assert.equal(overlay.spec.vconcat[0].layer[1].encoding.color.field, 'run')
})

test('the HTML run header gives the label and the time to steady state', async () => {
  const { runHeaderHtml } = await import('../../../lib/report/header.js')
  const doc = warmingRun()
  doc.run.label = 'cold cache'
  const html = runHeaderHtml(doc, null)
  assert.match(html, /<dt>label<\/dt><dd>cold cache<\/dd>/)
  assert.match(html, /<dt>time to steady state<\/dt><dd>8 s \(then within ±10 % of 600 tps\)<\/dd>/)
})

test('a staged or capacity run: no time to steady state judged; the chart says it does not apply, the header leaves it out', async () => {
  const { stagedResults, capacityResults } = await import('../../helpers/staged-results.js')
  const { runHeaderHtml } = await import('../../../lib/report/header.js')
  for (const doc of [stagedResults(), capacityResults()]) {
    const { spec } = chart(doc, 'throughput')
    assert.deepEqual(spec.datasets.steadyState, [])
    assert.ok(spec.title.subtitle.includes('time to steady state: does not apply: the load changes from stage to stage on purpose'), JSON.stringify(spec.title.subtitle))
    assert.ok(!spec.title.subtitle.some((l) => /no steady state|green: time to steady state/.test(l)), JSON.stringify(spec.title.subtitle))
    assert.doesNotMatch(runHeaderHtml(doc, null), /time to steady state/)
  }
})

test('the time charts\' subtitles list only the marks drawn: no checkpoint or autovacuum where the run had none', () => {
  const doc = warmingRun()
  const charts = buildCharts(labelRuns([doc])).charts
  for (const c of charts.filter((x) => ['throughput', 'latency-over-time', 'server-activity'].includes(x.id))) {
    const text = [c.spec.title.subtitle].flat().join(' | ')
    assert.doesNotMatch(text, /shaded: checkpoint|dashed: autovacuum/, `${c.id}: ${text}`)
  }
  const busy = fixture('results/tpcb-a.json')
  const lines = chart(busy, 'throughput').spec.title.subtitle
  assert.ok(lines.includes('shaded: checkpoint, dashed: autovacuum'), JSON.stringify(lines))
  assert.match(chart(busy, 'latency-over-time').spec.title.subtitle, /; shaded: checkpoint$/)
})

test('TPC-C: the response-time legend names only the verdicts there are; the efficiency above its ceiling says so', () => {
  const doc = fixture('results/recorded-tpcc-short.json')
  doc.tpcc.efficiency = 101.1
  const { spec } = chart(doc, 'tpcc')
  const status = spec.vconcat[1].layer.find((l) => l.encoding.color?.field === 'status').encoding.color.scale
  assert.deepEqual(status.domain, ['within limit'])
  assert.deepEqual(status.range, ['#2ca02c'])
  assert.deepEqual(spec.datasets.tpccSummary[0].label.slice(0, 2), ['whole run: tpmC 12 · efficiency 101.1 %', 'above the 98.0 % these waits allow on average, by chance'])
})

test('TPC-C unpaced (--no-wait): no ceiling, and the whole-run label is made without one', () => {
  const doc = fixture('results/recorded-tpcc-short.json')
  doc.tpcc.efficiency = 1864.3
  doc.tpcc.efficiencyCeiling = null
  const { spec } = chart(doc, 'tpcc')
  assert.deepEqual(spec.datasets.tpccSummary[0].label.slice(0, 1), ['whole run: tpmC 12 · efficiency 1864.3 %'])
  assert.ok(!spec.datasets.tpccSummary[0].label.some((l) => /above the/.test(l)))
})
