// The results' `failover` section (--failover, lib/failover): its rule, beside the document's in
// schema.js. Times are seconds of the measured window; the server's own timestamps are text.

import { boolean, object, mapOf, arrayOf, number } from './rules.js'
import { count, amountOrNull, textOrNull } from './schema-values.js'

const integer = number({ integer: true })

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
  rpo: object({
    checked: count,
    found: count,
    missing: count,
    server: textOrNull,
    // the first missing commits by their pgbench_history values, and how many were not found
    // pgbench_history's values (tpcb-like, simple-update) or an orders key (TPC-C)
    missingCommits: object({ count, first: arrayOf(object({ tid: integer, bid: integer, aid: integer, delta: integer, w: integer, d: integer, oId: integer })) }, { nullable: true, required: ['count', 'first'] }),
    notListed: textOrNull
  }, { nullable: true }),
  serverCheck: textOrNull
}, { nullable: true })
