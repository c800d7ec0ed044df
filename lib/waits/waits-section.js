// The results' `waits` section from the sampler's counts: per type its counts as the document
// keeps them (they add up across partitions) and the figures derived from them
// (lib/results/waits-figures.js).

import { round3 } from '../format/round.js'
import { waitTypeFigures } from '../results/waits-figures.js'

/**
 * @typedef {object} WaitsContext
 * @property {string[]} typeNames the run's transaction types, by index
 * @property {(string|null)[][]} [statementNames] per type, the name of each statement index
 * @property {Record<string, any>} transactions results.transactions (count, failed, latencyMs)
 * @property {number} hz the sampling rate asked for
 * @property {{ done: number, skipped: number, failed: number }} ticks
 * @property {number} windowMs how long the sampler ran
 * @property {boolean} pgWaitSampling
 * @property {import('../results/wait-classes.js').WaitInterval[]} [series] sampled sessions by wait class per interval
 */

/**
 * @param {import('./wait-tally.js').WaitTally} tally
 * @param {WaitsContext} ctx
 */
export function waitsSection (tally, ctx) {
  // each completed read stands for the time between reads, skipped and failed ones included
  const intervalMs = ctx.ticks.done > 0 ? ctx.windowMs / ctx.ticks.done : 0
  const types = {}
  tally.types.forEach((t, i) => {
    if (t.samples === 0) return
    const name = ctx.typeNames[i]
    types[name] = waitTypeFigures(countsOf(t, intervalMs), ctx.transactions[name], namesOf(t, ctx.statementNames?.[i]))
  })
  return {
    source: 'pg_stat_activity',
    pgWaitSampling: ctx.pgWaitSampling,
    hz: ctx.hz,
    intervalMs: round3(intervalMs),
    ticks: { ...ctx.ticks },
    samples: {
      total: tally.total,
      inTransaction: tally.types.reduce((n, t) => n + t.samples, 0),
      idle: tally.idle,
      outside: tally.outside,
      moved: tally.moved,
      hidden: tally.hidden,
      gone: tally.gone
    },
    types,
    series: ctx.series ?? []
  }
}

/**
 * A type's tally as the section's counts.
 * @param {import('./wait-tally.js').TypeTally} t
 * @param {number} intervalMs
 * @returns {import('../results/waits-figures.js').WaitCounts}
 */
function countsOf (t, intervalMs) {
  const buckets = {}
  for (const [event, byBucket] of t.events) buckets[event] = [...byBucket].sort((a, b) => a[0] - b[0])
  const statements = {}
  for (const [index, byEvent] of t.statements) statements[index] = Object.fromEntries(byEvent)
  return { sampledMs: round3(t.samples * intervalMs), buckets, statements }
}

/** The names of the statements a type's samples name: index -> name. */
function namesOf (t, names) {
  const out = {}
  for (const index of t.statements.keys()) if (index >= 0) out[index] = names?.[index] ?? null
  return out
}
