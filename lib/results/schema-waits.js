// The results' `waits` section (--wait-sampling, lib/waits): its rule, beside the document's in
// schema.js.

import { number, boolean, object, mapOf, arrayOf } from './rules.js'
import { count, amount, amountOrNull, anyNumberOrNull, text, textOrNull, counts } from './schema-values.js'

// the wait sampler's shares by event, per type and statement (docs/results-format.md)
const waitShares = arrayOf(object({ event: text, samples: count, share: amount }, { required: ['event', 'samples', 'share'] }))
const waitType = object({
  samples: count,
  transactions: count,
  events: waitShares,
  serverMs: amountOrNull,
  serverMsStderr: amountOrNull,
  outsideMs: anyNumberOrNull,
  outsideMsStderr: amountOrNull,
  statements: arrayOf(object({ index: number({ integer: true }), name: textOrNull, samples: count, events: waitShares }, { required: ['index', 'samples', 'events'] })),
  slow: object({ aboveMs: amountOrNull, samples: count, events: waitShares }),
  typical: object({ samples: count, events: waitShares }),
  unknownLatency: count,
  counts: object({ sampledMs: amount, buckets: mapOf(arrayOf(arrayOf(number({ integer: true })))), statements: mapOf(counts) }, { required: ['sampledMs', 'buckets', 'statements'] })
}, { required: ['samples', 'events'] })

// sampled sessions by wait class per interval, on the results' intervals (lib/waits/interval-classes.js)
const waitInterval = object({
  t: amount,
  lengthS: amount,
  ticks: count,
  samples: counts,
  sessions: mapOf(amount),
  events: counts
}, { required: ['t', 'ticks', 'samples'] })

/** @type {import('./rules.js').Rule} */
export const waits = object({
  available: boolean,
  reason: textOrNull,
  source: text,
  pgWaitSampling: boolean,
  hz: amount,
  intervalMs: amount,
  ticks: counts,
  samples: counts,
  types: mapOf(waitType),
  series: arrayOf(waitInterval),
  note: text
}, { nullable: true, required: ['available'] })
