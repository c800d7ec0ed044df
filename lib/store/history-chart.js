// The trend chart of `pgload history`: reports/history.vl.json filled with the runs, written as
// SVG or PNG (rendered in Node) or as a self-contained HTML page (the report's template).

import { readFileSync } from 'node:fs'
import { writeFileAtomic } from '../atomic-write.js'
import { extname } from 'node:path'
import { PgloadError } from '../errors.js'
import { loadSpec } from '../report/charts.js'
import { renderSvg } from '../report/svg.js'
import { svgToPng } from '../report/png.js'
import { browserBundles } from '../report/assets.js'
import { escapeHtml as h, jsonForScript } from '../report/escape.js'
import { TOOL_VERSION } from '../version.js'
import { historyMetric } from './history.js'
import { trendNames } from './history-trends.js'
import { fill } from '../report/html.js'

const TEMPLATE = new URL('../../reports/report.html', import.meta.url)
/** The output formats, by the file's extension. */
export const HISTORY_FORMATS = ['.html', '.svg', '.png']

/**
 * The Vega-Lite spec of a metric's trend: one chart, or one per workload when the runs are of
 * several (a TPC-C p99 and a pgbench one are not figures of one scale, as in `pgload report`).
 * @param {import('./history.js').HistoryRun[]} runs
 * @param {string} metric
 * @returns {any}
 */
export function historySpec (runs, metric) {
  const m = historyMetric(metric)
  const spec = loadSpec('history')
  const unit = m.unit && m.unit !== m.title ? ` (${m.unit})` : ''
  spec.title = { ...spec.title, text: `History: ${m.title}` }
  const series = trendNames(runs)
  const drawn = runs.map((r, i) => ({ r, series: series[i] })).filter(({ r }) => r.value !== null && r.startTime !== null)
  const rows = drawn.map(({ r, series }) => ({ runId: r.runId, startTime: r.startTime, value: r.value, workload: r.workload, series }))
  const axis = timeAxis(drawn.map(({ r }) => Date.parse(r.startTime)))
  const workloads = [...new Set(rows.map((r) => r.workload))]
  const { $schema, description, title, ...chart } = spec
  const panel = (workload) => {
    const p = structuredClone(chart)
    p.encoding.y.title = `${workload ? `${workload}: ` : ''}${m.title}${unit}`
    Object.assign(p.encoding.x.axis, axis)
    if (workload) p.transform = [{ filter: { field: 'workload', equal: workload } }]
    return p
  }
  if (workloads.length <= 1) return { $schema, description, title, ...panel(null), datasets: { runs: rows } }
  return {
    $schema,
    description,
    title: { ...title, subtitle: [`one chart per workload, each on its own scale; ${title.subtitle}`] },
    datasets: { runs: rows },
    vconcat: workloads.map(panel),
    resolve: { scale: { x: 'shared', y: 'independent', color: 'independent' } }
  }
}

// Tick intervals, finest first, with the label format that tells their ticks apart.
const DAY_MS = 86400e3
const TICKS = [
  ...[1, 5, 15, 30].map((step) => ({ unit: 'second', step, ms: step * 1e3, format: '%H:%M:%S' })),
  ...[1, 5, 15, 30].map((step) => ({ unit: 'minute', step, ms: step * 60e3, format: '%H:%M' })),
  ...[1, 3, 6, 12].map((step) => ({ unit: 'hour', step, ms: step * 3600e3, format: '%b %d %H:%M' })),
  ...[1, 2, 7, 14].map((step) => ({ unit: 'day', step, ms: step * DAY_MS, format: '%b %d' })),
  ...[1, 3, 6].map((step) => ({ unit: 'month', step, ms: step * 30 * DAY_MS, format: '%b %Y' })),
  ...[1, 2, 5, 10, 20, 50].map((step) => ({ unit: 'year', step, ms: step * 365 * DAY_MS, format: '%Y' }))
]
const MAX_TICKS = 8

/**
 * The time axis' ticks and labels: the finest interval that gives at most MAX_TICKS ticks over
 * the runs' span, and labels to that precision, so that no two ticks read alike (runs minutes
 * apart would otherwise all read "21:46"). The ticks are listed (UTC), not left to vega.
 * @param {number[]} times epoch ms
 * @returns {{ values: number[], format: string }}
 */
export function timeAxis (times) {
  if (times.length === 0) return { values: [], format: TICKS[0].format }
  const lo = Math.min(...times)
  const hi = Math.max(...times)
  const t = TICKS.find((x) => (hi - lo) / x.ms <= MAX_TICKS) ?? TICKS.at(-1)
  const values = []
  for (let v = floorTo(lo, t); v <= hi; v = next(v, t)) if (v >= lo) values.push(v)
  if (values.length === 0) values.push(lo) // one run, or runs within one step: its own time
  return { values, format: values.length === 1 && hi === lo ? '%b %d %H:%M:%S' : t.format }
}

// The tick at or before `ms` on the interval's grid (UTC).
function floorTo (ms, t) {
  const d = new Date(ms)
  if (t.unit === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - d.getUTCMonth() % t.step)
  if (t.unit === 'year') return Date.UTC(d.getUTCFullYear() - d.getUTCFullYear() % t.step, 0)
  return Math.floor(ms / t.ms) * t.ms
}

function next (ms, t) {
  const d = new Date(ms)
  if (t.unit === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + t.step)
  if (t.unit === 'year') return Date.UTC(d.getUTCFullYear() + t.step, 0)
  return ms + t.ms
}

/**
 * The output format of `-o FILE`, from its extension.
 * @param {string} file
 * @returns {'.html'|'.svg'|'.png'}
 */
export function historyFormat (file) {
  const ext = extname(file).toLowerCase()
  if (!HISTORY_FORMATS.includes(ext)) throw new PgloadError(`-o ${file}: the chart file must end in .html, .svg or .png`, { code: 'BAD_OPTION' })
  return /** @type {any} */ (ext)
}

/**
 * Write the chart of a metric's trend to a file (.html, .svg or .png), atomically.
 * @param {import('./history.js').HistoryRun[]} runs
 * @param {string} metric
 * @param {string} file
 * @param {{ table?: string }} [opts] table: the runs' table, shown above the chart in HTML
 * @returns {Promise<string>} the file written
 */
export async function writeHistoryChart (runs, metric, file, { table = '' } = {}) {
  const format = historyFormat(file)
  const spec = historySpec(runs, metric)
  let data
  if (format === '.html') {
    data = historyHtml(spec, table)
  } else {
    const { svg } = await renderSvg(spec)
    data = format === '.svg' ? svg : await svgToPng(svg)
  }
  try {
    await writeFileAtomic(file, data)
  } catch (err) {
    throw new PgloadError(`-o ${file}: cannot write (${err.code ?? err.message})`, { code: 'BAD_OPTION', cause: err })
  }
  return file
}

/** The report's HTML template holding one chart and the runs' table; opens from file://. */
function historyHtml (spec, table) {
  const { $schema, ...inline } = spec
  const bundles = browserBundles()
  const values = {
    generator: h(`pgload ${TOOL_VERSION} (${bundles.map((b) => `${b.name} ${b.version}`).join(', ')})`),
    title: h(spec.title.text),
    subtitle: h(`${spec.datasets.runs.length} stored run${spec.datasets.runs.length === 1 ? '' : 's'}`),
    skipped: '',
    header: table ? `<h2>Runs</h2>\n<pre>${h(table)}</pre>` : '',
    charts: `<div class="chart" id="chart-0" role="img" aria-label="${h(spec.title.text)}"></div>`,
    specs: jsonForScript([inline]),
    scripts: bundles.map((b) => `<script data-lib="${h(b.name)}@${h(b.version)}">\n${b.code}\n</script>`).join('\n'),
    live: ''
  }
  return fill(readFileSync(TEMPLATE, 'utf8'), values)
}
