// `pgload report <results..>`: charts of one or several results files as HTML, SVG and PNG.

import { basename } from 'node:path'
import { readResults } from '../results/read.js'
import { parseOutputPath } from '../options/parse.js'
import { renderReport, REPORT_DEFAULTS } from '../report/render-report.js'

export const command = 'report <results..>'
export const describe = 'Draw charts of results files: one self-contained HTML file, or SVG/PNG per chart'

/** @param {import('yargs').Argv} yargs */
export function builder (yargs) {
  return yargs
    .positional('results', { type: 'string', array: true, describe: 'results JSON files written by pgload run (several: overlaid per workload, named by their --label or by what differs)' })
    .option('format', { alias: 'f', type: 'string', describe: 'comma-separated output formats: html, svg, png [default: html]' })
    .option('out', { alias: 'o', type: 'string', describe: 'output directory [default: current directory]' })
    .option('log-scale', { type: 'boolean', describe: 'logarithmic latency axes (latency over time, percentile spectrum)' })
}

/** @param {any} argv */
export async function handler (argv) {
  const files = argv.results
  const outDir = parseOutputPath(argv.out, '--out', 'directory') ?? REPORT_DEFAULTS.outDir
  const docs = []
  for (const file of files) docs.push(await readResults(file))
  const timings = {}
  const notes = []
  const t0 = performance.now()
  const written = await renderReport(docs, {
    formats: argv.format ?? REPORT_DEFAULTS.formats,
    outDir,
    logScale: argv.logScale ?? REPORT_DEFAULTS.logScale,
    sources: files.map((f) => basename(f)),
    notes,
    timings
  })
  for (const note of notes) console.error(`pgload: ${note}`)
  for (const file of written) console.log(file)
  if (argv.verbose) {
    const parts = Object.entries(timings).map(([k, v]) => `${k} ${Math.round(v)} ms`).join(', ')
    console.error(`report: ${written.length} files in ${Math.round(performance.now() - t0)} ms (${parts})`)
  }
}
