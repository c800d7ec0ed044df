// The results' `scenarios` section (run --scenarios, lib/scenarios): its rule, beside the
// document's in schema.js, built from the run's own rules (each scenario has the run's shapes).

import { waits } from './schema-waits.js'
import { object, mapOf, refine } from './rules.js'
import { countOrNull, amount, amountOrNull, text } from './schema-values.js'

/**
 * @param {{ summary: import('./rules.js').Rule, transaction: import('./rules.js').Rule, intervals: import('./rules.js').Rule, stages: import('./rules.js').Rule }} run
 *   the rules of the run's summary, a transaction type, the intervals and the stages
 * @returns {import('./rules.js').Rule} the rule of `scenarios`: each one's figures and its window
 */
export function scenariosRule ({ summary, transaction, intervals, stages }) {
  const scenario = refine(object({
    workload: text,
    startS: amount,
    endS: amount,
    openedS: amountOrNull,
    tags: mapOf(text),
    options: object({}),
    clients: countOrNull,
    connections: countOrNull,
    summary,
    transactions: mapOf(transaction),
    intervals,
    stages,
    waits
  }, { required: ['startS', 'endS', 'summary', 'transactions'] }), (s) => s.endS < s.startS ? `endS is ${s.endS}, before startS ${s.startS}` : null)
  return mapOf(scenario, { nullable: true })
}
