import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { buildCharts, loadSpec, RUN_CHARTS, COMPARE_CHART } from '../../../lib/report/charts.js'
import { labelRuns } from '../../../lib/report/render-report.js'
import { packageRoot } from '../../../lib/report/assets.js'

const require = createRequire(import.meta.url)
const fixture = (name) => JSON.parse(readFileSync(new URL(`../../fixtures/results/${name}`, import.meta.url), 'utf8'))
const SETS = [['tpcb-a.json'], ['tpcc.json'], ['tpcb-a.json', 'tpcb-b.json'], ['recorded-tpcb-pgbouncer.json']]
// the runs that have a chart more than TPC-B's five: TPC-C's, and the pooler's of a run through PgBouncer
const SIX_CHARTS = ['tpcc.json', 'recorded-tpcb-pgbouncer.json']
const built = (set, opts = {}) => buildCharts(labelRuns(set.map(fixture), set), opts)

/**
 * JSON-schema validation against vega-lite's own build/vega-lite-schema.json with ajv 6
 * (present through eslint's dependencies); null when ajv cannot be loaded.
 */
function schemaValidator () {
  let Ajv
  try { Ajv = require('ajv') } catch { return null }
  const schema = JSON.parse(readFileSync(join(packageRoot('vega-lite'), 'build', 'vega-lite-schema.json'), 'utf8'))
  const ajv = new Ajv({ allErrors: false, extendRefs: true, schemaId: 'auto', unknownFormats: 'ignore' })
  ajv.addFormat('color-hex', /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/)
  return ajv.compile(schema)
}

let validate
const getValidator = () => (validate === undefined ? (validate = schemaValidator()) : validate)

/** Structural checks that hold whatever the validator: named data only, all of it supplied. */
function namedData (spec) {
  const names = []
  const walk = (node) => {
    if (Array.isArray(node)) return node.forEach(walk)
    if (!node || typeof node !== 'object') return
    if (node.data) {
      assert.equal(node.data.values, undefined, 'static specs hold no inline values')
      assert.equal(node.data.url, undefined, 'static specs load nothing')
      names.push(node.data.name)
    }
    for (const [k, v] of Object.entries(node)) if (k !== 'datasets') walk(v)
  }
  walk(spec)
  return names
}

test('the static specs in reports/ use named data only', () => {
  const files = readdirSync(new URL('../../../reports/', import.meta.url)).filter((f) => f.endsWith('.vl.json'))
  const ids = [...RUN_CHARTS.map((c) => c.id), COMPARE_CHART.id]
  ids.push('history') // pgload history's trend (lib/store/history-chart.js)
  assert.deepEqual(files.map((f) => f.replace('.vl.json', '')).sort(), [...ids].sort())
  for (const id of ids) {
    const spec = loadSpec(id)
    assert.equal(spec.datasets, undefined, id)
    assert.ok(namedData(spec).length > 0, id)
  }
})

test('the schema validator rejects a broken spec (so passing means something)', (t) => {
  const v = getValidator()
  if (!v) return t.skip('ajv not installed: schema validation replaced by the structural checks')
  assert.equal(v({ data: { name: 'x' }, mark: 'no-such-mark', encoding: {} }), false)
  assert.equal(v({ data: { name: 'x' }, mark: 'line', encoding: { x: { field: 't', type: 'quantitative', scale: { type: 'logarithm' } } } }), false)
})

for (const set of SETS) {
  for (const logScale of [false, true]) {
    test(`filled specs of ${set.join(' + ')}${logScale ? ' (log scale)' : ''} validate and compile cleanly`, async (t) => {
      const vl = await import('vega-lite')
      const { charts } = built(set, { logScale })
      const expected = set.length > 1 ? 1 + 5 * set.length : SIX_CHARTS.includes(set[0]) ? 6 : 5
      assert.equal(charts.length, expected)
      const v = getValidator()
      if (!v) t.diagnostic('ajv not installed: structural checks only')
      for (const c of charts) {
        for (const name of namedData(c.spec)) assert.ok(Array.isArray(c.spec.datasets[name]), `${c.name}: dataset ${name} missing`)
        if (v) assert.ok(v(c.spec), `${c.name}: ${JSON.stringify(v.errors?.slice(0, 2))}`)
        const warnings = []
        const logger = { level () { return this }, warn: (...a) => warnings.push(a.join(' ')), info () {}, debug () {}, error: (...a) => warnings.push(a.join(' ')) }
        const compiled = vl.compile(c.spec, { logger }).spec
        assert.deepEqual(warnings, [], c.name)
        assert.ok(Array.isArray(compiled.marks) && compiled.marks.length > 0, c.name)
        assert.doesNotMatch(JSON.stringify(c.spec.datasets), /"(inv|ms|tps|value|tpmC)":null/, `${c.name}: null values in data`)
      }
      if (logScale) {
        const lot = charts.find((c) => c.id === 'latency-over-time')
        assert.equal(lot.spec.layer.find((l) => l.data.name === 'latency').encoding.y.scale.type, 'log')
        const pooler = charts.find((c) => c.id === 'pooler')
        if (pooler) assert.equal(pooler.spec.vconcat[0].layer[0].encoding.y.scale.type, 'log')
      }
    })
  }
}

test('spectrum x domain covers the data on whole decades', () => {
  const { charts } = built(['tpcb-a.json'])
  const spec = charts.find((c) => c.id === 'percentile-spectrum').spec
  const maxInv = Math.max(...spec.datasets.spectrum.map((r) => r.inv))
  const [lo, hi] = spec.layer[0].encoding.x.scale.domain
  assert.equal(lo, 1)
  assert.ok(hi >= maxInv && hi < maxInv * 10 && Math.log10(hi) % 1 === 0, `${hi} vs ${maxInv}`)
  assert.equal(spec.layer.length, 1, 'no threshold layers without thresholds')
  assert.doesNotMatch(spec.title.subtitle, /thresholds/, 'no legend for thresholds that are not drawn')
  const withThresholds = built(['tpcb-b.json']).charts.find((c) => c.id === 'percentile-spectrum').spec
  assert.equal(withThresholds.layer.length, 3)
  assert.match(withThresholds.title.subtitle, /dashed: thresholds$/)
})

test('charts with absent data are skipped with a reason', () => {
  const doc = fixture('tpcb-a.json')
  delete doc.serverStats
  delete doc.intervals
  const { charts, skipped } = buildCharts(labelRuns([doc]))
  assert.deepEqual(charts.map((c) => c.id), ['percentile-spectrum', 'latency-distribution'])
  assert.deepEqual(skipped.map((s) => s.id), ['throughput', 'latency-over-time', 'server-activity'], 'a TPC-B run has no TPC-C chart to skip')
  assert.match(skipped.find((s) => s.id === 'server-activity').reason, /serverStats\.series/)
})

test('every time axis of a report starts at 0 s, however its first interval or sample falls', async () => {
  const { renderSvg } = await import('../../../lib/report/svg.js')
  const doc = fixture('recorded-tpcb.json') // intervals end at 1, 2, ... s; server samples from 1 s
  const charts = buildCharts(labelRuns([doc, fixture('recorded-tpcb.json')])).charts
  const starts = []
  for (const c of charts.filter((c) => ['throughput', 'latency-over-time', 'server-activity', 'compare'].includes(c.id))) {
    const { svg } = await renderSvg(c.spec)
    for (const m of svg.matchAll(/aria-label="X-axis titled 'time \(s\)' for a linear scale with values from (-?[\d.]+) to/g)) starts.push(`${c.name}: ${m[1]}`)
  }
  assert.ok(starts.length >= 8, starts.join('; '))
  assert.deepEqual(starts.filter((s) => !s.endsWith(': 0')), [])
})

test('server activity after one sample: drawn as points, said to wait for a second; each backend state keeps its colour', async () => {
  const doc = fixture('recorded-tpcb.json')
  const all = doc.serverStats.series
  const colourOf = (spec) => {
    const color = spec.vconcat.find((v) => v.name === 'backends').layer.find((l) => l.data?.name === 'server').encoding.color
    return (state) => color.scale.range[color.scale.domain.indexOf(state)]
  }
  doc.serverStats.series = [{ ...all[0], backends: { idle: 3 } }]
  const first = buildCharts(labelRuns([doc])).charts.find((c) => c.id === 'server-activity').spec
  const lines = first.vconcat.map((v) => v.layer.find((l) => l.data?.name === 'server').mark)
  assert.ok(lines.every((m) => m.point === true), JSON.stringify(lines))
  assert.match(first.title.subtitle, /waiting for a second sample/)
  // the points' own layer reads no domain of its own from the data: Vega-Lite compiles it without a warning
  const warnings = []
  const logger = { level () { return logger }, warn (...m) { warnings.push(m.join(' ')); return logger }, info () { return logger }, debug () { return logger }, error (...m) { warnings.push(m.join(' ')); return logger } }
  const { compile } = await import('vega-lite')
  compile(first, { logger })
  assert.deepEqual(warnings, [])
  const backends = first.vconcat.find((v) => v.name === 'backends').layer.find((l) => l.data?.name === 'server').encoding.color
  assert.deepEqual(backends.legend.values, ['idle'], 'the legend names only the states there are')
  const blocks = first.vconcat.find((v) => v.name === 'blocks').layer.find((l) => l.data?.name === 'server').encoding.color
  assert.deepEqual(blocks.legend.values, ['blocks hit', 'blocks read'])
  doc.serverStats.series = all
  const end = buildCharts(labelRuns([doc])).charts.find((c) => c.id === 'server-activity').spec
  assert.ok(end.vconcat.every((v) => !v.layer.find((l) => l.data?.name === 'server').mark.point))
  assert.doesNotMatch(end.title.subtitle, /waiting/)
  for (const state of ['idle', 'active', 'idle in transaction']) {
    assert.ok(colourOf(first)(state), state)
    assert.equal(colourOf(first)(state), colourOf(end)(state), state)
  }
})

test('the WAL panel\'s ticks read as MB/s with at most 3 decimals: a run that wrote no WAL shows 0, not 0.000000', () => {
  const spec = loadSpec('server-activity')
  const wal = spec.vconcat.find((v) => v.name === 'wal').layer.find((l) => l.data?.name === 'server')
  assert.equal(wal.encoding.y.axis.format, ',.3~f')
})

test('a run through PgBouncer: its clients and server connections under the latency, on one time axis', async () => {
  const vl = await import('vega-lite')
  const { charts } = built(['recorded-tpcb-pgbouncer.json'])
  assert.deepEqual(charts.map((c) => c.id).slice(0, 3), ['throughput', 'latency-over-time', 'pooler'])
  const { spec } = charts.find((c) => c.id === 'pooler')
  const doc = fixture('recorded-tpcb-pgbouncer.json')
  const waiting = spec.datasets.poolerClients.filter((r) => r.series === 'waiting')
  assert.deepEqual(waiting.map((r) => [r.t, r.value]), doc.pooler.series.map((e) => [e.t, e.clientsWaiting]))
  assert.deepEqual(spec.datasets.poolerSize, [{ size: 2, label: 'pool size 2' }])
  assert.deepEqual([spec.title.subtitle].flat().at(-1), 'dashed: the pool size')
  // one x scale for the three panels: a reading stands under the latency of its interval
  const compiled = vl.compile(spec).spec
  assert.deepEqual(compiled.scales.filter((s) => /(^|_)x$/.test(s.name)).map((s) => s.name), ['x'])
  // no pooler, no chart, and nothing said about one
  const plain = built(['tpcb-a.json'])
  assert.equal(plain.charts.some((c) => c.id === 'pooler'), false)
  assert.equal(plain.skipped.some((c) => c.id === 'pooler'), false)
})
