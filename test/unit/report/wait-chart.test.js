// The wait classes over time in the report: a stacked chart after the latency chart, on its time
// axis, a fixed colour per class in a stable legend order; the "Where the time went" section.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { buildCharts } from '../../../lib/report/charts.js'
import { labelRuns } from '../../../lib/report/render-report.js'
import { renderSvg } from '../../../lib/report/svg.js'
import { runHeaderHtml } from '../../../lib/report/header.js'
import { withWaitSeries } from '../../helpers/waits-results.js'
import { WAIT_CHART_TITLE, WAIT_CLASS_COLOURS, waitClassRows } from '../../../lib/report/wait-chart.js'

const fixture = () => JSON.parse(readFileSync(new URL('../../fixtures/results/tpcb-a.json', import.meta.url), 'utf8'))
const withWaits = () => withWaitSeries(fixture())

const chartsOf = (doc) => buildCharts(labelRuns([doc], ['a']))

test('the chart follows the latency chart, stacked by class in a stable order with fixed colours', async () => {
  const doc = withWaits()
  const { charts } = chartsOf(doc)
  const ids = charts.map((c) => c.id)
  assert.equal(ids.indexOf('waits-over-time'), ids.indexOf('latency-over-time') + 1)
  const chart = charts.find((c) => c.id === 'waits-over-time')
  assert.equal(chart.title, WAIT_CHART_TITLE)
  const layer = chart.spec.layer.find((l) => l.data.name === 'waitClasses')
  assert.deepEqual(layer.encoding.color.scale.domain, ['CPU', 'IO', 'Lock', 'idle in transaction'])
  assert.deepEqual(layer.encoding.color.scale.range, ['CPU', 'IO', 'Lock', 'idle in transaction'].map((c) => WAIT_CLASS_COLOURS[c]))
  // every class in every interval (0 where absent), so that the areas stack
  const rows = waitClassRows(doc)
  assert.equal(rows.length, doc.intervals.length * 4)
  assert.deepEqual(rows.filter((r) => r.t === doc.intervals[13].t).map((r) => [r.class, r.sessions]), [['CPU', 1], ['IO', 0], ['Lock', 3], ['idle in transaction', 0]])
  // the checkpoint span and the autovacuum marker, as the other time charts have them
  assert.match(chart.spec.title.subtitle, /shaded: checkpoint, dashed: autovacuum/)
  const { svg, warnings } = await renderSvg(chart.spec)
  assert.deepEqual(warnings, [])
  for (const cls of ['CPU', 'IO', 'Lock', 'idle in transaction']) assert.ok(svg.includes(`>${cls}</text>`), `legend entry ${cls}`)
})

test('the same time axis as the latency chart: one domain end', () => {
  const doc = withWaits()
  const { charts } = chartsOf(doc)
  const spec = charts.find((c) => c.id === 'waits-over-time').spec
  const latest = Math.max(...doc.intervals.map((iv) => iv.t))
  const domains = spec.layer.filter((l) => l.encoding.x.scale).map((l) => l.encoding.x.scale.domain)
  assert.ok(domains.length > 0)
  for (const d of domains) assert.deepEqual(d, [0, latest])
})

test('without the sampler: no chart and no mention; not sampled: skipped with the reason', () => {
  const doc = fixture()
  assert.equal(chartsOf(doc).charts.some((c) => c.id === 'waits-over-time'), false)
  assert.equal(chartsOf(doc).skipped.some((c) => c.id === 'waits-over-time'), false)
  doc.waits = { available: false, reason: 'the sampler could not start: permission denied' }
  const skipped = chartsOf(doc).skipped.find((c) => c.id === 'waits-over-time')
  assert.equal(skipped.reason, 'wait events not sampled: the sampler could not start: permission denied')
})

test('the "Where the time went" section: per type the top events, server time, time outside the server', () => {
  const doc = withWaits()
  doc.intervals[14].latencyMs = { ...doc.intervals[14].latencyMs, p99: 40 * Math.max(...doc.intervals.map((iv) => iv.latencyMs?.p99 ?? 0)) }
  const html = runHeaderHtml(doc, null)
  assert.match(html, /<h3>Where the time went<\/h3>/)
  assert.match(html, /<th scope="row">tpcb-like<\/th><td>Lock:transactionid 60 %, CPU 30 %, IO:WALSync 10 %<\/td><td>1\.200 ± 0\.050<\/td><td>0\.400 ± 0\.060<\/td><td>2,000<\/td>/)
  assert.match(html, /<th scope="row">select-only<\/th><td>CPU 100 %<\/td><td>0\.200 ± 0\.010<\/td><td>~0 ± 0\.020<\/td>/)
  assert.match(html, /<p class="spike">latency spike at 14-15 s \(p99 [\d.]+ ms, [\d.]+x the median interval\) with a checkpoint and a lock pile-up; Lock:transactionid 75 % of sampled sessions( \(\d+ more intervals? alike\))?<\/p>/)
  assert.doesNotMatch(runHeaderHtml(fixture(), null), /Where the time went/)
})
