// `--report` as an output of a run session: the HTML report beside the results file, once written.

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
      const html = await writeHtmlReport(results, file.replace(/\.json$/, '') + '.html')
      err.write(`pgload: report written to ${html}\n`)
    }
  }
}
