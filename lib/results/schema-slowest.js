// The results' `slowest` section (--explain-slowest, lib/explain): its rule, beside the document's
// in schema.js. A statement has a plan (EXPLAIN's JSON, kept as the server gave it) or a reason.

import { number, boolean, object, mapOf, arrayOf } from './rules.js'
import { count, amount, amountOrNull, text, textOrNull } from './schema-values.js'

const statement = object({
  command: number({ min: 0, integer: true }),
  line: number({ min: 0, integer: true }),
  sql: text,
  parameters: arrayOf(textOrNull),
  plan: object({ Plan: object({}) }, { required: ['Plan'] }),
  totalMs: amountOrNull,
  topNode: text,
  reason: text
}, { required: ['command', 'sql', 'parameters'] })

// what the wait sampler saw of the transaction, when it was sampled
const transactionWaits = object({ samples: count, sampledMs: amount, events: arrayOf(object({ event: text, samples: count }, { required: ['event', 'samples'] })) }, { required: ['samples', 'events'] })

/** @type {import('./rules.js').Rule} */
export const slowest = object({
  available: boolean,
  perType: number({ min: 1, integer: true }),
  reason: textOrNull,
  explain: text,
  types: mapOf(arrayOf(object({ latencyMs: amount, waits: transactionWaits, statements: arrayOf(statement) }, { required: ['latencyMs', 'statements'] })))
}, { nullable: true, required: ['available'] })
