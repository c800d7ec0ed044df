// The results' `targets` (--route) and `staleness` (--staleness) sections: their rules, beside the
// document's in schema.js.

import { object, mapOf, arrayOf, boolean } from './rules.js'
import { count, counts, amount, amountOrNull, text, textOrNull, anyNumberOrNull } from './schema-values.js'

const figures = mapOf(amountOrNull)

/** What a server counted itself over the run (lib/server/stats/target-stats.js), or why not. */
const serverFigures = object({
  standby: boolean,
  replayLagMs: amountOrNull,
  maxReplayLagMs: amountOrNull,
  error: textOrNull,
  xact_commit: anyNumberOrNull,
  tup_returned: anyNumberOrNull,
  series: arrayOf(object({ t: amount, commits: anyNumberOrNull, replayLagMs: amountOrNull }, { required: ['t'] }))
}, { nullable: true })

/** @type {import('./rules.js').Rule} */
export const targets = mapOf(object({
  server: text,
  types: arrayOf(text),
  count,
  failed: count,
  tps: amountOrNull,
  latencyMs: figures,
  errors: counts,
  stats: serverFigures
}, { required: ['server', 'types', 'count', 'failed'] }), { nullable: true })

/** @type {import('./rules.js').Rule} */
export const staleness = object({
  stamps: count,
  stampErrors: count,
  reads: count,
  readErrors: count,
  unchecked: count,
  violations: count,
  behindMs: figures,
  behindStamps: figures,
  histogram: text
}, { nullable: true, required: ['reads', 'violations'] })
