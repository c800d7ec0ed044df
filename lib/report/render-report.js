// renderReport: results documents -> chart files (SVG, PNG) and/or one self-contained HTML file.
// writeHtmlReport: the HTML alone, for `pgload run --report`.

import { mkdir } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { PgloadError } from '../errors.js'
import { ensureValidResults } from '../results/read.js'
import { buildCharts } from './charts.js'
import { renderSvg } from './svg.js'
import { svgToPng } from './png.js'
import { buildHtml } from './html.js'
import { runNames } from './run-names.js'
import { sameAxisGroups } from '../compare/comparable.js'
import { FORMATS, checkFormats } from './files.js'
import { writeFileAtomic } from '../atomic-write.js'

/** Output formats and their defaults. */
export const REPORT_DEFAULTS = {
  formats: ['html'], // any of html, svg, png
  outDir: '.', // directory for report.html and the chart files
  htmlName: 'report.html', // file name of the HTML report inside outDir
  logScale: false // log-scale latency axes (latency over time, percentile spectrum, comparison)
}
export { FORMATS }

/**
 * The runs of a report with their legend labels, file-name prefixes ("a", "b", ...) and the
 * group of runs they share axes with (same workload and transaction types).
 * Labels: the caller's name (e.g. "A1" from compare), then the run's --label or a name made
 * from what differs (lib/report/run-names.js).
 * @param {any[]} docs
 * @param {string[]} [names]
 * @returns {{ runs: { doc: any, label: string, slug: string, group: number }[], groups: { workload: string, indexes: number[] }[], note: string|null }}
 */
export function labelRuns (docs, names = []) {
  const { groups, note } = sameAxisGroups(docs)
  const auto = runNames(docs, groups)
  const groupOf = new Map(groups.flatMap((g, k) => g.indexes.map((i) => [i, k])))
  const runs = docs.map((doc, i) => {
    const letter = i < 26 ? String.fromCharCode(97 + i) : `r${i + 1}`
    return { doc, label: names[i] ? `${names[i]}: ${auto[i]}` : auto[i], slug: letter, group: groupOf.get(i) }
  })
  return { runs, groups, note }
}

/**
 * Render the report of one or several results documents.
 * @param {any[]} results parsed results documents (each validated here, unless readResults read it)
 * @param {{ formats?: string[]|string, outDir?: string, names?: string[], logScale?: boolean, htmlName?: string, timings?: Record<string, number>, warnings?: string[], notes?: string[], sources?: string[] }} [opts]
 *   names: prefixes of the run labels (e.g. A1, B1); timings: filled with ms per step when given;
 *   warnings: filled with vega's warnings while rendering SVG/PNG when given; notes: filled with
 *   notes for the user (runs that are not comparable); sources: file names for error messages
 * @returns {Promise<string[]>} paths of the files written
 */
export async function renderReport (results, opts = {}) {
  if (!Array.isArray(results) || results.length === 0) throw new PgloadError('report needs at least one results document', { code: 'USAGE' })
  const formats = checkFormats(opts.formats ?? REPORT_DEFAULTS.formats)
  const outDir = resolve(opts.outDir ?? REPORT_DEFAULTS.outDir)
  const timings = opts.timings ?? {}
  const time = async (key, fn) => {
    const t0 = performance.now()
    try { return await fn() } finally { timings[key] = (timings[key] ?? 0) + performance.now() - t0 }
  }
  results.forEach((doc, i) => ensureValidResults(doc, opts.sources?.[i] ?? `results #${i + 1}`))
  const labelled = labelRuns(results, opts.names)
  const runs = labelled.runs
  // Runs of different workloads never share an axis; say so once, as compare does.
  if (labelled.note && opts.notes) opts.notes.push(`${labelled.note}; each workload is charted on its own`)
  const built = await time('build', () => buildCharts(labelled, { logScale: opts.logScale ?? REPORT_DEFAULTS.logScale }))
  try {
    await mkdir(outDir, { recursive: true })
  } catch (err) {
    throw new PgloadError(`--out ${outDir}: cannot create the directory (${err.code ?? err.message})`, { code: 'USAGE', cause: err })
  }
  const written = []
  if (formats.includes('svg') || formats.includes('png')) {
    for (const chart of built.charts) {
      const { svg, warnings } = await time('svg', () => renderSvg(chart.spec))
      if (opts.warnings) for (const w of warnings) opts.warnings.push(`${chart.name}: ${w}`)
      if (formats.includes('svg')) {
        const file = join(outDir, `${chart.name}.svg`)
        await writeFileAtomic(file, svg)
        written.push(file)
      }
      if (formats.includes('png')) {
        const png = await time('png', () => svgToPng(svg))
        const file = join(outDir, `${chart.name}.png`)
        await writeFileAtomic(file, png)
        written.push(file)
      }
    }
  }
  if (formats.includes('html')) {
    const html = await time('html', () => buildHtml(runs, built, { intro: opts.intro, title: opts.title }))
    const file = join(outDir, opts.htmlName ?? REPORT_DEFAULTS.htmlName)
    await writeFileAtomic(file, html)
    written.push(file)
  }
  return written
}

/**
 * Write the HTML report of one or several results documents to a file (used by `run --report`).
 * @param {any | any[]} results a results document or several
 * @param {string} file path of the HTML file
 * @param {{ names?: string[], logScale?: boolean, intro?: string, title?: string }} [opts] intro: HTML before the runs
 *   (ab's verdict); title: the page's, instead of the runs'
 * @returns {Promise<string>} the path written
 */
export async function writeHtmlReport (results, file, opts = {}) {
  const docs = Array.isArray(results) ? results : [results]
  const target = resolve(file)
  const [path] = await renderReport(docs, { ...opts, formats: ['html'], outDir: dirname(target), htmlName: target.slice(dirname(target).length + 1) })
  return path
}
