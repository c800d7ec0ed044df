// --threshold as an output of the run session: each threshold's verdict goes into the results
// document before its one write, whatever the verdicts are; the exit status (99) follows from
// them (lib/session/exit-status.js). Required: a gate that could not judge must not pass.

import { evaluateThresholds } from './evaluate.js'

/**
 * @param {import('./parser.js').Threshold[]} thresholds the plan's, parsed
 * @returns {{ name: string, required: true, finish: (results: Record<string, any>) => void }} an output (lib/session/output.js)
 */
export function thresholdOutput (thresholds) {
  return {
    name: 'thresholds',
    required: true,
    finish (results) {
      results.thresholds = evaluateThresholds(results, thresholds)
    }
  }
}
