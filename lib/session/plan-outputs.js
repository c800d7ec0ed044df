// The outputs a plan asks for by itself, whichever command runs it: --trigger, --failover's measurements,
// --threshold's verdicts, and the results file (`--out`, else the default path; none for a
// capacity step's run), whose place is known once the run is measured.

import { resultsFileOutput } from '../results/results-file-output.js'
import { thresholdOutput } from '../compare/thresholds/threshold-output.js'
import { failoverOutput } from '../failover/failover-output.js'
import { triggerOutput } from '../failover/trigger-output.js'

/**
 * The outputs that follow the run: registered after the command's, so that the thresholds are the
 * last to finish the document (they may judge what the others add).
 * @param {Readonly<Record<string, any>>} plan
 * @param {{ env?: Record<string, string|undefined>, err: { write(s: string): any } }} io
 * @returns {import('./output.js').Output[]}
 */
export function planOutputs (plan, { env, err }) {
  const outputs = []
  if (plan.trigger !== undefined) outputs.push(triggerOutput(plan, { env, err }))
  if (plan.failover) outputs.push(failoverOutput(plan, { env }))
  if (plan.thresholds?.length) outputs.push(thresholdOutput(plan.thresholds))
  return outputs
}

/**
 * The results file's output, the first told the end: the outputs that end after it read the file.
 * @param {string|null} file the results file the run writes (null: none)
 * @returns {import('./output.js').Output[]}
 */
export function fileOutputs (file) {
  return file ? [resultsFileOutput(file)] : []
}
