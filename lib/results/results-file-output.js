// The results file as an output of the run session: the document is written once, after every
// output has added what it contributes (thresholds' verdicts, sections of its own), and before
// the outputs that read the file (the report, the store) are told the run ended. Where it goes
// was checked before the run started (ensureWritable), so a failure here is rare (a full disk)
// and, unlike another output's, is the command's failure.

import { writeResults } from './write.js'

/**
 * @param {string} file where the document goes
 * @returns {{ name: string, required: true, end: (results: object) => Promise<void> }} an output (lib/session/output.js)
 */
export function resultsFileOutput (file) {
  return {
    name: 'results file',
    required: true,
    async end (results) {
      await writeResults(file, results)
    }
  }
}
