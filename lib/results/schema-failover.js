// The results' `failover` section (--failover, lib/failover): its rule, beside the document's in
// schema.js. Times are seconds of the measured window; the server's own timestamps are text.

import { boolean, object, mapOf } from './rules.js'
import { count, amountOrNull, textOrNull } from './schema-values.js'

/** @type {import('./rules.js').Rule} */
export const failover = object({
  detected: boolean,
  firstErrorS: amountOrNull,
  reconnectedS: amountOrNull,
  reconnectMs: amountOrNull,
  tpsBefore: amountOrNull,
  recoveredS: amountOrNull,
  recoveryMs: amountOrNull,
  noCommitsS: amountOrNull,
  failed: object({ before: count, during: count, after: count }),
  errors: object({ before: mapOf(count), during: mapOf(count), after: mapOf(count) }),
  outcomeUnknown: count,
  outageMs: amountOrNull,
  lastCommitBefore: textOrNull,
  firstCommitAfter: textOrNull,
  rpo: object({ checked: count, found: count, missing: count, server: textOrNull }, { nullable: true }),
  serverCheck: textOrNull
}, { nullable: true })
