// `pgload report <results..>`: charts of one or several results files, or of one sweep document,
// as HTML, SVG and PNG.

import { statSync } from 'node:fs'
import { basename, dirname, extname } from 'node:path'
import { PgloadError } from '../errors.js'
import { readResults, RESULTS_INVALID } from '../results/read.js'
import { parseOutputPath } from '../options/parse.js'
import { renderReport, REPORT_DEFAULTS } from '../report/render-report.js'
import { readSweepIfAny } from '../report/sweep/read.js'
import { renderSweepReport } from '../report/sweep/render.js'
import { parseP99LimitMs } from '../report/sweep/best-cells.js'
import { plural } from '../format/plural.js'

export const command = 'report <results..>'
export const describe = 'Draw charts of results files or of a sweep: one self-contained HTML file, or SVG/PNG per chart'

/** @param {import('yargs').Argv} yargs */
export function builder (yargs) {
  return yargs
    .positional('results', { type: 'string', array: true, describe: 'results JSON files written by pgload run (several: overlaid per workload, named by their --label or by what differs), or one sweep (its sweep.json or its directory)' })
    .option('format', { alias: 'f', type: 'string', describe: 'comma-separated output formats: html, svg, png [default: html]' })
    .option('out', { alias: 'o', type: 'string', describe: 'output directory, or one HTML file (x.html); for a sweep also x.svg / x.png with every chart [default: beside the (first) results file: RUN.html, report.html for several, sweep-report.html]' })
    .option('log-scale', { type: 'boolean', describe: 'logarithmic latency axes (latency over time, percentile spectrum; a sweep\'s latency charts)' })
    .option('p99-limit', { type: 'string', describe: 'sweeps: the best cell whose p99 stays within this latency in every repeat (10ms, 0.5s; a bare number is ms) [default: a ladder of round limits]' })
}

/**
 * A results document, or, when the file is none, the sweep document it may be, or a sweep's
 * directory (read only then, so results files are read once).
 * @param {string} file
 * @returns {Promise<{ results: any } | { sweep: any, file: string }>}
 */
async function readInput (file) {
  try {
    return { results: await readResults(file) }
  } catch (err) {
    const sweep = err?.code === RESULTS_INVALID ? await readSweepIfAny(file) : null
    if (!sweep) throw err
    return sweep
  }
}

/**
 * Where a run report goes: a directory, or with `-o x.html` that one HTML file (a run report's
 * charts are several files, so an .svg or .png name is refused); without -o, beside the results.
 * @param {string|undefined} out
 * @param {string[]|string|undefined} format
 * @param {string[]} files the results files
 */
function runReportOutput (out, format, files) {
  if (out === undefined) return { formats: format ?? REPORT_DEFAULTS.formats, ...besideResults(files) }
  const ext = extname(out).toLowerCase()
  if (ext === '.svg' || ext === '.png') {
    throw new PgloadError(`--out ${out}: a run report has several charts; give --out a directory and --format ${ext.slice(1)}`, { code: 'USAGE' })
  }
  if (ext !== '.html') return { formats: format ?? REPORT_DEFAULTS.formats, outDir: out }
  if (format !== undefined && String(format).toLowerCase() !== 'html') {
    throw new PgloadError(`--out ${out} is one HTML file but --format asks for ${format}: give --out a directory for other formats`, { code: 'USAGE' })
  }
  return { formats: ['html'], outDir: dirname(out), htmlName: basename(out) }
}

/**
 * Without --out the report goes next to the (first) results file, not into the current
 * directory: beside pgload-results/run.json as pgload-results/run.html, or report.html for
 * several files.
 * @param {string[]} files
 */
function besideResults (files) {
  const stem = basename(files[0]).replace(/\.json(\.gz)?$/i, '')
  return { outDir: dirname(files[0]), htmlName: files.length === 1 ? `${stem}.html` : REPORT_DEFAULTS.htmlName }
}

/**
 * The file names --out takes, by what is reported: a sweep's charts go into one .svg or .png, a
 * run report's are several files (a directory); any other extension would silently become a
 * directory's name.
 */
const OUT_EXTENSIONS = { sweep: ['.html', '.svg', '.png'], runs: ['.html'] }

/**
 * --out is a directory, or a file with one of the extensions that work for this input: `-o
 * out.pdf` or `-o out.htm` is refused, not made a directory of that name (an existing directory,
 * or a name ending in /, is one), and the message names only what works.
 * @param {string|undefined} out
 * @param {'sweep'|'runs'} input
 */
function checkOutName (out, input) {
  if (out === undefined || /[/\\]$/.test(out)) return
  const ext = extname(out).toLowerCase()
  const allowed = OUT_EXTENSIONS[input]
  if (ext === '' || allowed.includes(ext) || isDirectory(out) || OUT_EXTENSIONS.sweep.includes(ext)) return
  throw new PgloadError(`--out ${out}: ${ext} is not a report format; give a file ending in ${orList(allowed)}, or a directory`, { code: 'USAGE' })
}

const orList = (items) => items.length === 1 ? items[0] : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`

function isDirectory (path) {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/** @param {any} argv */
export async function handler (argv) {
  const files = argv.results
  const outDir = parseOutputPath(argv.out, '--out', 'directory')
  const inputs = []
  for (const file of files) inputs.push(await readInput(file))
  const sweepAt = inputs.findIndex((i) => 'sweep' in i)
  checkOutName(outDir, sweepAt !== -1 && files.length === 1 ? 'sweep' : 'runs')
  if (sweepAt !== -1) {
    if (files.length > 1) throw new PgloadError(`${files[sweepAt]} is a sweep document: report it on its own, without other files`, { code: 'USAGE' })
    return reportSweep(inputs[0].sweep, inputs[0].file, outDir ?? dirname(inputs[0].file), argv)
  }
  if (argv.p99Limit !== undefined) throw new PgloadError('--p99-limit applies to a sweep document (the sweep.json of pgload sweep), not to results files', { code: 'USAGE' })
  const timings = {}
  const notes = []
  const t0 = performance.now()
  const written = await renderReport(inputs.map((i) => i.results), {
    ...runReportOutput(outDir, argv.format, files),
    logScale: argv.logScale ?? REPORT_DEFAULTS.logScale,
    sources: files.map((f) => basename(f)),
    notes,
    timings
  })
  for (const note of notes) console.error(`pgload: ${note}`)
  for (const file of written) console.log(file)
  if (argv.verbose) {
    const parts = Object.entries(timings).map(([k, v]) => `${k} ${Math.round(v)} ms`).join(', ')
    console.error(`pgload: report: ${plural(written.length, 'file')} in ${Math.round(performance.now() - t0)} ms (${parts})`)
  }
}

/** The report of one sweep document. */
async function reportSweep (sweep, file, out, argv) {
  const notes = []
  const written = await renderSweepReport(sweep, {
    out,
    formats: argv.format,
    p99LimitMs: argv.p99Limit === undefined ? null : parseP99LimitMs(argv.p99Limit),
    logScale: argv.logScale ?? REPORT_DEFAULTS.logScale,
    source: file,
    notes
  })
  for (const note of notes) console.error(`pgload: ${note}`)
  for (const f of written) console.log(f)
}
