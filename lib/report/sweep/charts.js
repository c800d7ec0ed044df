// The sweep report's charts: which spec in reports/sweep/ each uses, the datasets it is filled
// with, when it is skipped (and why), and the render-time adjustments (x scale, line order).

import { loadSpec } from '../charts.js'
import { axisTitle, axisInTitle } from './axes.js'
import { throughputRows, latencyRows, figureRows, kneeRows, kneeLabels, sizeRows, sizeBases, sizeLineKeys, sizeMeasure } from './datasets.js'

/** Names in the order their rows first appear (rows come in numeric order of their axes). */
const inOrder = (rows, field) => [...new Set(rows.map((r) => r[field]))]

/**
 * Visit every object of a spec (encodings included), depth first.
 * @param {any} node
 * @param {(obj: any) => void} fn
 */
function visit (node, fn) {
  if (Array.isArray(node)) return node.forEach((n) => visit(n, fn))
  if (!node || typeof node !== 'object') return
  fn(node)
  for (const [k, v] of Object.entries(node)) if (k !== 'datasets') visit(v, fn)
}

/**
 * Give every color channel on `field` the explicit order `domain`, so legends read 1, 2, 10, and
 * the legend the axes its lines stand for.
 */
function orderColors (spec, field, domain, title) {
  visit(spec, (o) => { if (o.color?.field === field) Object.assign(o.color, { scale: { ...o.color.scale, domain }, title }) })
}

/** The legend's title of the lines: the axes that split them ("scale"), or the workload. */
function seriesTitle (shape) {
  const keys = shape.seriesKeys.length > 0 ? shape.seriesKeys : [shape.sizeKey].filter((k) => k && k !== shape.xKey)
  return keys.join(', ') || 'workload'
}

/**
 * The x scale of a clients (or rate) axis: logarithmic when the values span a factor of 8 or
 * more (1, 2, 4 ... 64 would crowd the left of a linear axis), base 2 for powers of two, with a
 * tick at each value swept.
 * @param {number[]} values ascending
 * @returns {{ scale: object, axis: object }}
 */
export function xScaleFor (values) {
  // Whole numbers (clients, streams) read as such: vega would print 1.0 and 2.0 for a short span.
  // Not d3's 'd': with it vega drops the middle tick of three evenly spaced values (0, 1, 2).
  const format = values.every(Number.isInteger) ? '.0f' : '~g'
  const positive = values.filter((v) => v > 0)
  // 0 analytic streams, the baseline, has no place on a log axis
  if (positive.length < values.length || positive.length < 2 || positive[positive.length - 1] / positive[0] < 8) return { scale: { zero: false }, axis: { values, format } }
  const base = positive.every((v) => Number.isInteger(Math.log2(v))) ? 2 : 10
  return { scale: { type: 'log', base }, axis: { values: positive, format } }
}

/** Point the spec's x encodings on field `x` at the sweep's x axis. */
function tuneX (spec, shape) {
  const { scale, axis } = xScaleFor(shape.values[shape.xKey])
  visit(spec, (o) => {
    if (o.x?.field === 'x') Object.assign(o.x, { title: axisTitle(shape.xKey), scale, axis: { ...o.x.axis, ...axis } })
  })
  spec.title.text = spec.title.text.replace('against clients', `against ${axisInTitle(shape.xKey)}`)
}

function useLog (spec) {
  visit(spec, (o) => { if (o.y?.title?.startsWith('latency')) o.y.scale = { type: 'log' } })
}

/**
 * A chart of one figure only CH-benCHmark's runs record (lib/sweep/cells.js CHBENCH_FIGURES),
 * drawn from reports/sweep/figure.vl.json: the interference picture, what the analytic streams
 * cost the transactions and what they did themselves.
 * @param {{ id: string, field: string, title: string, yTitle: string, format: string }} what
 */
function figureChart ({ id, field, title, yTitle, format }) {
  return {
    id,
    spec: 'figure',
    title,
    when: (sweep) => sweep.cells.some((c) => field in c),
    data: (sweep, shape) => ({ sweepFigure: figureRows(sweep, shape, field) }),
    skip: (d) => (d.sweepFigure.length === 0 ? `no cell has ${yTitle}` : null),
    tune: (spec, d, shape) => {
      spec.title.text = title
      spec.datasets = { [`sweep-${id}`]: d.sweepFigure }
      visit(spec, (o) => {
        if (o.name === 'sweepFigure') o.name = `sweep-${id}`
        if (o.y?.title === 'figure') o.y.title = yTitle
        if (o.tooltip) for (const t of o.tooltip) if (t.format) t.format = format
      })
      tuneX(spec, shape)
      orderColors(spec, 'series', inOrder(d.sweepFigure, 'series'), seriesTitle(shape))
    }
  }
}

/**
 * The chart catalogue in report order. `when(sweep)`, where given, says whether the chart
 * belongs to this sweep's report at all; `data(sweep, shape, opts)` returns the named datasets;
 * `skip(data, sweep)` the reason the chart is left out, or null; `tune(spec, data, shape, opts,
 * sweep)` adjusts the copy; `spec` names its file in reports/sweep/ when it is not the id.
 */
export const SWEEP_CHARTS = [
  {
    id: 'throughput',
    title: 'Throughput against clients',
    data: (sweep, shape) => ({
      sweepThroughput: throughputRows(sweep, shape),
      // Against the target rate: where throughput falls below this line, the server did not keep up.
      sweepTarget: shape.xKey === 'rate' ? shape.values.rate.map((x) => ({ x, tps: x })) : []
    }),
    skip: (d) => (d.sweepThroughput.length === 0 ? 'no cell has a finished run' : null),
    tune: (spec, d, shape) => {
      tuneX(spec, shape)
      if (d.sweepTarget.length === 0) spec.layer = spec.layer.filter((l) => l.data?.name !== 'sweepTarget')
      else spec.title.subtitle = [...spec.title.subtitle, 'dashed grey: throughput equal to the target rate']
      orderColors(spec, 'series', inOrder(d.sweepThroughput, 'series'), seriesTitle(shape))
    }
  },
  {
    id: 'latency',
    title: 'Latency against clients',
    data: (sweep, shape) => ({ sweepLatency: latencyRows(sweep, shape) }),
    skip: (d) => (d.sweepLatency.length === 0 ? 'no cell has p50 or p99 figures' : null),
    tune: (spec, d, shape, opts) => {
      tuneX(spec, shape)
      orderColors(spec, 'series', inOrder(d.sweepLatency, 'series'), seriesTitle(shape))
      if (opts.logScale) useLog(spec)
    }
  },
  figureChart({ id: 'tpmc', field: 'tpmC', title: 'tpmC against clients', yTitle: 'tpmC (New-Orders committed per minute)', format: ',.1f' }),
  figureChart({ id: 'new-order-p90', field: 'newOrderP90Ms', title: 'New-Order p90 against clients', yTitle: 'New-Order p90 latency (ms)', format: ',.3f' }),
  figureChart({ id: 'queries-per-hour', field: 'queriesPerHour', title: 'Analytic queries per hour against clients', yTitle: 'analytic queries per hour', format: ',.1f' }),
  {
    id: 'knee',
    title: 'Latency against throughput',
    data: (sweep, shape, opts) => {
      const sweepKnee = kneeRows(sweep, shape)
      return { sweepKnee, sweepKneeLabels: kneeLabels(sweepKnee, opts) }
    },
    skip: (d) => (d.sweepKnee.length === 0 ? 'no cell has p50 or p99 figures' : null),
    tune: (spec, d, shape, opts) => {
      orderColors(spec, 'series', inOrder(d.sweepKnee, 'series'), seriesTitle(shape))
      if (shape.xKey !== 'clients') spec.title.subtitle[0] = spec.title.subtitle[0].replace('client order (labels: clients)', `order of ${axisInTitle(shape.xKey)}`)
      if (opts.logScale) useLog(spec)
    }
  },
  {
    id: 'size',
    title: 'Throughput against database size',
    data: (sweep, shape) => ({ sweepSize: sizeRows(sweep, shape) }),
    skip: (d, sweep) => {
      if (sizeBases(sweep).length === 0) return 'the sweep records neither shared_buffers (server.sharedBuffersBytes) nor the memory (host.memoryBytes)'
      return d.sweepSize.length === 0 ? 'no cell records its size (tablesSizeBytes, dbSizeBytes)' : null
    },
    tune: (spec, d, shape, opts, sweep) => {
      // Without the tables' sizes (a script sweep, an older document) the axes say what they show.
      if (sizeMeasure(sweep, shape).key === 'dbSizeBytes') {
        visit(spec, (o) => { if (typeof o.title === 'string') o.title = o.title.replace("workload's tables /", 'whole database /') })
        spec.title.subtitle[0] = "size of the whole database as a multiple of shared_buffers and of the machine's memory; the grey rule at 1 is where it stops fitting"
      }
      const bases = new Set(d.sweepSize.map((r) => r.basis))
      spec.hconcat = spec.hconcat.filter((panel) => bases.has(panel.name))
      const keys = sizeLineKeys(shape).filter((k) => shape.values[k].length > 0)
      orderColors(spec, 'line', inOrder(d.sweepSize, 'line'), keys.join(', ') || 'workload')
    }
  }
]

/**
 * Every chart of a sweep: filled specs plus the charts skipped with their reasons.
 * @param {any} sweep a checked sweep document
 * @param {import('./axes.js').SweepShape} shape
 * @param {{ logScale?: boolean }} [opts]
 * @returns {{ charts: { id: string, name: string, title: string, spec: any }[], skipped: { id: string, title: string, reason: string }[] }}
 */
export function buildSweepCharts (sweep, shape, opts = {}) {
  const charts = []
  const skipped = []
  for (const chart of SWEEP_CHARTS) {
    if (chart.when && !chart.when(sweep)) continue
    // A sweep that names no scale, clients or rate has nothing to draw along x.
    const d = shape.xKey === null ? null : chart.data(sweep, shape, opts)
    const reason = d === null ? 'the sweep names no scale, clients or rate for its cells (its figures are in the tables)' : chart.skip(d, sweep)
    if (reason) {
      skipped.push({ id: chart.id, title: chart.title, reason })
      continue
    }
    const spec = loadSpec(`sweep/${chart.spec ?? chart.id}`)
    spec.datasets = d
    chart.tune(spec, d, shape, opts, sweep)
    charts.push({ id: chart.id, name: `sweep-${chart.id}`, title: spec.title.text ?? chart.title, spec })
  }
  return { charts, skipped }
}

/**
 * All charts in one spec, one under the other: the single SVG or PNG of `--out FILE.svg`.
 * Dataset names differ between the charts, so their datasets merge into one table.
 * @param {{ spec: any }[]} charts
 * @returns {any}
 */
export function stackCharts (charts) {
  const datasets = {}
  const vconcat = charts.map(({ spec }) => {
    const { $schema, datasets: own, ...rest } = spec
    Object.assign(datasets, own)
    return rest
  })
  return {
    $schema: charts[0]?.spec.$schema,
    datasets,
    vconcat,
    spacing: 48,
    resolve: { scale: { color: 'independent', strokeDash: 'independent', x: 'independent', y: 'independent' }, legend: { color: 'independent', strokeDash: 'independent' } }
  }
}
