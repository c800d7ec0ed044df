// What `pgload run` (and capacity) show, as outputs of a run session: the set-up phases and the
// progress lines on stderr while the run goes, and the summary (or the results document with
// --json) on stdout once it is over, with the results file's place.

import { attachRunMessages, formatRunOutput, phaseMessage } from './run-messages.js'

/**
 * The set-up phases, the progress lines and the run's warnings, on `err`.
 * @param {Readonly<Record<string, any>>} plan
 * @param {{ err?: { write(s: string): any, isTTY?: boolean }, log: any, phases?: boolean }} io
 *   phases: false leaves the set-up lines out (a sweep says its own)
 * @returns {import('../session/output.js').Output}
 */
export function progressOutput (plan, { err = process.stderr, log, phases = true }) {
  let progress = null
  return {
    name: 'progress',
    needs: { sampler: Boolean(plan.progressServer) },
    phase (phase, info) {
      if (!phases) return
      const line = phaseMessage(phase, info, plan)
      if (line) err.write(line)
    },
    start ({ run, sampler }) {
      progress = attachRunMessages(run, { progressS: plan.progressS, progressTimestamp: plan.progressTimestamp, rampUp: Boolean(plan.rampUp), err, log, sampler })
    },
    end () { progress?.close(); progress = null },
    close () { progress?.close(); progress = null }
  }
}

/**
 * The summary (the results document with --json) on `out`, and where the results file is.
 * @param {{ json?: boolean, out?: { write(s: string): any }, err?: { write(s: string): any } }} [opts]
 * @returns {import('../session/output.js').Output}
 */
export function summaryOutput ({ json = false, out = process.stdout, err = process.stderr } = {}) {
  return {
    name: 'summary',
    end (results, { file }) {
      out.write(formatRunOutput(results, { json }))
      if (file) err.write(`pgload: results written to ${file}\n`)
    }
  }
}
