// renderSweepReport: a sweep document -> its report, as one HTML file, one SVG or PNG holding
// every chart, or a directory with the HTML file and one SVG/PNG per chart.

import { mkdir } from 'node:fs/promises'
import { dirname, join, resolve, extname } from 'node:path'
import { PgloadError } from '../../errors.js'
import { FORMATS, checkFormats } from '../files.js'
import { writeFileAtomic } from '../../atomic-write.js'
import { renderSvg } from '../svg.js'
import { svgToPng } from '../png.js'
import { ensureValidSweep } from './read.js'
import { sweepShape, missingCells } from './axes.js'
import { bestCells } from './best-cells.js'
import { buildSweepCharts, stackCharts } from './charts.js'
import { buildSweepHtml } from './html.js'

/** File names inside an output directory. */
export const SWEEP_REPORT_NAMES = { html: 'sweep-report.html' }

/**
 * Where the report goes: `--out` ending in .html, .svg or .png is that one file (every chart in
 * it); anything else is a directory, as for run reports.
 * @param {string|undefined} out
 * @param {string[]|string|undefined} formats --format, when given
 * @returns {{ file: string, format: string } | { dir: string, formats: string[] }}
 */
export function sweepOutput (out, formats) {
  const list = formats === undefined ? null : checkFormats(formats)
  const ext = extname(out ?? '').slice(1).toLowerCase()
  if (FORMATS.includes(ext)) {
    if (list && (list.length !== 1 || list[0] !== ext)) {
      throw new PgloadError(`--out ${out} is one ${ext.toUpperCase()} file but --format asks for ${list.join(',')}: give --out a directory for other or several formats`, { code: 'USAGE' })
    }
    return { file: resolve(out), format: ext }
  }
  return { dir: resolve(out ?? '.'), formats: list ?? ['html'] }
}

async function makeDir (dir) {
  try {
    await mkdir(dir, { recursive: true })
  } catch (err) {
    throw new PgloadError(`--out ${dir}: cannot create the directory (${err.code ?? err.message})`, { code: 'USAGE', cause: err })
  }
}

/**
 * One chart (or the stack of all) as an SVG and/or a PNG file.
 * @param {any} spec
 * @param {{ svg?: string, png?: string }} files
 * @param {string[]} written
 */
async function writeImages (spec, files, written) {
  const { svg } = await renderSvg(spec)
  if (files.svg) { await writeFileAtomic(files.svg, svg); written.push(files.svg) }
  if (files.png) { await writeFileAtomic(files.png, await svgToPng(svg)); written.push(files.png) }
}

/**
 * Render the report of a sweep.
 * @param {any} sweep a sweep document (checked here, unless the reader of this module read it)
 * @param {{ out?: string, formats?: string[]|string, p99LimitMs?: number|null, logScale?: boolean, source?: string, notes?: string[] }} [opts]
 *   out: a directory, or one .html/.svg/.png file; source: the sweep document's path (its run
 *   files are linked relative to it); notes: filled with notes for the user (missing cells)
 * @returns {Promise<string[]>} paths of the files written
 */
export async function renderSweepReport (sweep, opts = {}) {
  ensureValidSweep(sweep, opts.source ?? 'sweep')
  const target = sweepOutput(opts.out, opts.formats)
  const shape = sweepShape(sweep)
  const missing = missingCells(sweep, shape)
  if (missing.length > 0 && opts.notes) opts.notes.push(`${missing.length} cell${missing.length === 1 ? ' has' : 's have'} no finished run and ${missing.length === 1 ? 'is' : 'are'} not drawn: ${missing.map((m) => m.name).join('; ')}`)
  const built = buildSweepCharts(sweep, shape, { logScale: opts.logScale ?? false })
  const formats = 'file' in target ? [target.format] : target.formats
  // An HTML report of a sweep with no finished cell still lists its runs and their errors.
  if (built.charts.length === 0 && formats.some((f) => f !== 'html')) {
    throw new PgloadError(`${opts.source ?? 'sweep'}: no chart to draw: ${built.skipped.map((s) => s.reason).join('; ')}`, { code: 'USAGE' })
  }
  const htmlFile = 'file' in target ? target.file : join(target.dir, SWEEP_REPORT_NAMES.html)
  await makeDir(dirname(htmlFile))
  const written = []
  if ('file' in target && target.format !== 'html') {
    await writeImages(stackCharts(built.charts), { [target.format]: target.file }, written)
    return written
  }
  if ('dir' in target && formats.some((f) => f !== 'html')) {
    for (const chart of built.charts) {
      const base = join(target.dir, chart.name)
      await writeImages(chart.spec, Object.fromEntries(formats.filter((f) => f !== 'html').map((f) => [f, `${base}.${f}`])), written)
    }
  }
  if (formats.includes('html')) {
    const html = sweepHtml(sweep, shape, built, { ...opts, missing, htmlDir: dirname(htmlFile) })
    await writeFileAtomic(htmlFile, html)
    written.push(htmlFile)
  }
  return written
}

/**
 * The HTML report of a sweep as text (what renderSweepReport writes as its HTML file): the live
 * dashboard of a sweep shows it when the sweep ends.
 * @param {any} sweep a sweep document (checked here)
 * @param {{ p99LimitMs?: number|null, logScale?: boolean, source?: string, htmlDir?: string }} [opts]
 *   source: the sweep document's path; htmlDir: where the page will be, its run files linked relative to it
 * @returns {string}
 */
export function sweepReportHtml (sweep, opts = {}) {
  ensureValidSweep(sweep, opts.source ?? 'sweep')
  const shape = sweepShape(sweep)
  const built = buildSweepCharts(sweep, shape, { logScale: opts.logScale ?? false })
  return sweepHtml(sweep, shape, built, { ...opts, missing: missingCells(sweep, shape) })
}

function sweepHtml (sweep, shape, built, { p99LimitMs = null, source, missing, htmlDir }) {
  const best = bestCells(sweep, shape, { p99LimitMs })
  const sweepDir = source ? dirname(resolve(source)) : undefined
  return buildSweepHtml(sweep, shape, built, { best, missing, source, sweepDir, htmlDir })
}
