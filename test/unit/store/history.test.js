// history's metric names, its table and its chart spec (filled from reports/history.vl.json).

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { historyMetric, formatHistory } from '../../../lib/store/history.js'
import { historySpec, historyFormat } from '../../../lib/store/history-chart.js'

const runs = [
  { runId: 1, startTime: '2026-01-01T00:00:00.000Z', label: 'main', workload: 'tpcb', clients: 4, scale: 10, tps: 880.5, p50: 4, p99: 12.8, max: 29.8, value: 19.279 },
  { runId: 2, startTime: '2026-01-02T00:00:00.000Z', label: null, workload: 'tpcc', clients: 100, scale: 10, tps: 43.583, p50: 10.311, p99: 72.895, max: 161.571, value: 115.455 }
]

test('metrics: the valid names, and one line for another', () => {
  assert.equal(historyMetric('p99').column, 'p99_ms')
  assert.equal(historyMetric('tps').column, 'tps')
  assert.throws(() => historyMetric('p42'), { code: 'BAD_OPTION', message: /--metric must be one of tps, .*p99.*, got "p42"/ })
})

test('the table: one line per run, the metric as a column when not shown already', () => {
  const lines = formatHistory(runs, 'p999').trimEnd().split('\n')
  assert.equal(lines.length, 3)
  assert.match(lines[0], /^run\s+start \(UTC\)\s+label\s+workload\s+clients\s+scale\s+tps\s+p50 ms\s+p99 ms\s+max ms\s+p999 ms$/)
  assert.match(lines[1], /^1\s+2026-01-01 00:00:00\s+main\s+tpcb\s+4\s+10\s+880\.5\s+4\s+12\.8\s+29\.8\s+19\.279$/)
  assert.match(lines[2], /^2\s+2026-01-02 00:00:00\s+-\s+tpcc\s+100/)
  assert.doesNotMatch(formatHistory(runs, 'p99').split('\n')[0], /p99 ms.*p99/)
  assert.match(formatHistory(runs, 'tpmc').split('\n')[0], /max ms\s+tpmC$/)
  assert.match(formatHistory(runs, 'failed').split('\n')[0], /max ms\s+failed$/)
})

test('the chart spec: one point per run, series by label (the set-up without one)', () => {
  const spec = historySpec(runs, 'p999')
  assert.deepEqual(spec.datasets.runs.map((r) => [r.runId, r.value, r.series]), [[1, 19.279, 'main'], [2, 115.455, 'tpcc 10 warehouses, 100 clients']])
  assert.equal(spec.title.text, 'History: p99.9 latency')
  assert.equal(historySpec(runs.slice(0, 1), 'p999').encoding.y.title, 'p99.9 latency (ms)')
})

test('runs of two workloads: one chart each, on its own scale, never one axis for both', () => {
  const spec = historySpec(runs, 'p99')
  assert.equal(spec.encoding, undefined, 'no single chart')
  assert.deepEqual(spec.vconcat.map((p) => [p.encoding.y.title, p.transform]), [
    ['tpcb: p99 latency (ms)', [{ filter: { field: 'workload', equal: 'tpcb' } }]],
    ['tpcc: p99 latency (ms)', [{ filter: { field: 'workload', equal: 'tpcc' } }]]
  ])
  assert.equal(spec.resolve.scale.y, 'independent')
  assert.match(spec.title.subtitle[0], /^one chart per workload/)
})

test('the chart file format comes from its extension', () => {
  assert.equal(historyFormat('a/b.PNG'), '.png')
  assert.throws(() => historyFormat('chart.pdf'), { code: 'BAD_OPTION', message: '-o chart.pdf: the chart file must end in .html, .svg or .png' })
})

test('the filled chart spec compiles without warnings and renders the runs', async () => {
  const vl = await import('vega-lite')
  const warnings = []
  const logger = { level () { return this }, warn (...a) { warnings.push(a.join(' ')); return this }, error (...a) { warnings.push(a.join(' ')); return this }, info () { return this }, debug () { return this } }
  vl.compile(historySpec(runs, 'tps'), { logger })
  assert.deepEqual(warnings, [])
  const { renderSvg } = await import('../../../lib/report/svg.js')
  vl.compile(historySpec(runs.slice(0, 1), 'tps'), { logger })
  assert.deepEqual(warnings, [])
  const { svg } = await renderSvg(historySpec(runs, 'tps'))
  assert.match(svg, /History: throughput/)
  assert.equal((svg.match(/<path[^>]*aria-roledescription="point"/g) ?? []).length, 2)
})

test('a capacity search reads as one in the table, at the rate it found', () => {
  const lines = formatHistory([{ ...runs[0], workload: 'script', label: null, rate: 336, capacity: true }], 'tps').trimEnd().split('\n')
  assert.match(lines[1], /^1\s+2026-01-01 00:00:00\s+-\s+script \(capacity 336 tps\)\s+4\s+10/)
})

test('the first and last runs are drawn whole, inside the plot, not half over its edges', async () => {
  const { renderSvg } = await import('../../../lib/report/svg.js')
  const same = runs.map((r) => ({ ...r, workload: 'tpcb', label: 'main' }))
  const spec = historySpec(same, 'tps')
  const { svg } = await renderSvg(spec)
  const xs = [...svg.matchAll(/aria-roledescription="point"[^>]*transform="translate\(([\d.-]+),/g)].map((m) => Number(m[1]))
  assert.equal(xs.length, 2)
  const radius = Math.sqrt(spec.layer[1].mark.size / Math.PI)
  assert.ok(Math.min(...xs) > radius, `first point at x=${Math.min(...xs)}`)
  assert.ok(Math.max(...xs) < spec.width - radius, `last point at x=${Math.max(...xs)} of ${spec.width}`)
})
