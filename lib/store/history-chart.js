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
import { fill } from '../report/html.js'

const TEMPLATE = new URL('../../reports/report.html', import.meta.url)
/** The output formats, by the file's extension. */
export const HISTORY_FORMATS = ['.html', '.svg', '.png']

/**
 * The Vega-Lite spec of a metric's trend.
 * @param {import('./history.js').HistoryRun[]} runs
 * @param {string} metric
 * @returns {any}
 */
export function historySpec (runs, metric) {
  const m = historyMetric(metric)
  const spec = loadSpec('history')
  const unit = m.unit && m.unit !== m.title ? ` (${m.unit})` : ''
  spec.title = { ...spec.title, text: `History: ${m.title}` }
  spec.encoding.y.title = `${m.title}${unit}`
  spec.datasets = {
    runs: runs.filter((r) => r.value !== null && r.startTime !== null).map((r) => ({
      runId: r.runId, startTime: r.startTime, value: r.value, workload: r.workload, series: r.label ?? r.workload
    }))
  }
  return spec
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
    scripts: bundles.map((b) => `<script data-lib="${h(b.name)}@${h(b.version)}">\n${b.code}\n</script>`).join('\n')
  }
  return fill(readFileSync(TEMPLATE, 'utf8'), values)
}
