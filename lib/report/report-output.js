// `--report` as an output of a run session: the HTML report beside the results file, once written.

import { extname } from 'node:path'
import { writeHtmlReport } from './index.js'

/**
 * @param {{ err: { write(s: string): any } }} io where its line goes
 * @returns {import('../session/output.js').Output}
 */
export function reportOutput ({ err }) {
  return {
    name: 'report',
    async end (results, { file }) {
      if (!file) return
      const html = await writeHtmlReport(results, htmlBeside(file))
      err.write(`pgload: report written to ${html}\n`)
    }
  }
}

/**
 * The report's name beside its results file: `run.json` and `run.json.gz` give `run.html`, and a
 * results file named with another extension (`-o run.txt`) gives `run.html`, not `run.txt.html`.
 * @param {string} file
 */
export function htmlBeside (file) {
  const stem = /\.json\.gz$/i.test(file) ? file.slice(0, -'.json.gz'.length) : file.slice(0, file.length - extname(file).length)
  return `${stem}.html`
}
