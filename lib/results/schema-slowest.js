// The results' `slowest` section (--explain-slowest, lib/explain): its rule, beside the document's
// in schema.js. A statement has a plan (EXPLAIN's JSON, kept as the server gave it) or a reason.

import { number, boolean, object, mapOf, arrayOf } from './rules.js'
import { amount, amountOrNull, text, textOrNull } from './schema-values.js'

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

/** @type {import('./rules.js').Rule} */
export const slowest = object({
  available: boolean,
  perType: number({ min: 1, integer: true }),
  reason: textOrNull,
  explain: text,
  types: mapOf(arrayOf(object({ latencyMs: amount, statements: arrayOf(statement) }, { required: ['latencyMs', 'statements'] })))
}, { nullable: true, required: ['available'] })
