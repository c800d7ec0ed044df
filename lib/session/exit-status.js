// The exit status of a finished run, in one place: 2 when it was aborted, 99 when a --threshold
// failed, 130/143 when it was interrupted; thrown as an error once the results are out.

import { PgloadError } from '../errors.js'
import { thresholdTally } from '../compare/format.js'
import { interruptedError } from './interrupts.js'

/** Exit status of a run whose --threshold failed. */
export const THRESHOLD_EXIT_CODE = 99

/**
 * Throw the error that carries a finished run's exit status (nothing for a clean run).
 * @param {any} results the results document
 * @param {{ exitCode: number, terminated?: boolean }} outcome
 * @param {{ json?: boolean, err?: { write(s: string): any }, interrupted?: string }} [opts]
 *   interrupted: the message of an interrupted run
 */
export function throwForOutcome (results, { exitCode, terminated = false }, { json = false, err = process.stderr, interrupted = `the run was ${terminated ? 'terminated' : 'interrupted'}; the results cover what was measured` } = {}) {
  if (exitCode === 2) {
    if (results.run.abortReason === 'connection-lost') err.write('pgload: error: the server could not be reached again: the run ended early\n')
    if (results.run.abortReason === 'exit-on-abort') err.write('pgload: error: Run was aborted due to an error in thread 0\n')
    throw new PgloadError('error: Run was aborted; the above results are incomplete.', { code: 'RUN_ABORTED', exitCode: 2 })
  }
  if (results.thresholds?.some((t) => !t.pass)) {
    // the summary's last line says it on stdout; --json's stdout is the document alone, so stderr does
    throw new PgloadError(thresholdTally(results.thresholds), { code: 'THRESHOLD_FAILED', exitCode: THRESHOLD_EXIT_CODE, reported: !json })
  }
  if (results.run.interrupted) throw interruptedError(interrupted, { terminated })
}
