// The outputs a plan asks for by itself, whichever command runs it: --threshold's verdicts and
// the results file (`--out`, else the default path; none for a capacity step's run).

import { resultsFileOutput } from '../results/results-file-output.js'
import { thresholdOutput } from '../compare/thresholds/threshold-output.js'

/**
 * @param {Readonly<Record<string, any>>} plan
 * @param {string|null} file the results file the run writes (null: none)
 * @returns {import('./output.js').Output[]} thresholds first (they finish the document), the file last
 */
export function planOutputs (plan, file) {
  const outputs = []
  if (plan.thresholds?.length) outputs.push(thresholdOutput(plan.thresholds))
  if (file) outputs.push(resultsFileOutput(file))
  return outputs
}
