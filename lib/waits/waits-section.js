// The results' `waits` section from the sampler's counts (docs/results-format.md, "waits"): per
// transaction type and statement, the share of sampled server time by wait event, the server time
// per transaction the samples estimate, the time outside the server, and what the slowest
// transactions (above the type's p99) waited on beside the others.

import { round3 } from '../format/round.js'
import { bucketFloorUs, NO_LATENCY, NO_STATEMENT } from './wait-tally.js'

/**
 * @typedef {object} WaitsContext
 * @property {string[]} typeNames the run's transaction types, by index
 * @property {(string|null)[][]} [statementNames] per type, the name of each statement index
 * @property {Record<string, any>} transactions results.transactions (count, failed, latencyMs)
 * @property {number} hz the sampling rate asked for
 * @property {{ done: number, skipped: number, failed: number }} ticks
 * @property {number} windowMs how long the sampler ran
 * @property {boolean} pgWaitSampling
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
    if (t.samples > 0) types[ctx.typeNames[i]] = typeFigures(t, ctx.transactions[ctx.typeNames[i]], intervalMs, ctx.statementNames?.[i])
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
    types
  }
}

/** One type's figures. */
function typeFigures (t, txn, intervalMs, names) {
  const n = (txn?.count ?? 0) + (txn?.failed ?? 0)
  const byEvent = new Map([...t.events].map(([event, buckets]) => [event, sumOf(buckets.values())]))
  const p99Ms = txn?.latencyMs?.p99 ?? null
  const split = splitAtP99(t.events, p99Ms)
  return {
    samples: t.samples,
    transactions: n,
    events: shares(byEvent, t.samples),
    ...timeFigures(t.samples, n, intervalMs, txn?.latencyMs),
    statements: statementFigures(t.statements, names),
    slow: { aboveMs: p99Ms, samples: split.slowSamples, events: shares(split.slow, split.slowSamples) },
    typical: { samples: split.typicalSamples, events: shares(split.typical, split.typicalSamples) },
    unknownLatency: sumOf(split.unknown.values())
  }
}

/**
 * Server time per transaction from the samples (samples x interval / transactions), and the time
 * outside the server (mean latency minus that), each with a standard error: the samples counted
 * as Poisson, the mean latency's from its standard deviation.
 * @param {number} samples @param {number} transactions @param {number} intervalMs
 * @param {{ mean?: number|null, stddev?: number|null }} [latencyMs]
 */
export function timeFigures (samples, transactions, intervalMs, latencyMs) {
  if (!(transactions > 0) || !(intervalMs > 0)) return { serverMs: null, serverMsStderr: null, outsideMs: null, outsideMsStderr: null }
  const serverMs = samples * intervalMs / transactions
  const serverErr = Math.sqrt(samples) * intervalMs / transactions
  const mean = latencyMs?.mean
  if (typeof mean !== 'number') return { serverMs: round3(serverMs), serverMsStderr: round3(serverErr), outsideMs: null, outsideMsStderr: null }
  const meanErr = typeof latencyMs.stddev === 'number' ? latencyMs.stddev / Math.sqrt(transactions) : 0
  return {
    serverMs: round3(serverMs),
    serverMsStderr: round3(serverErr),
    outsideMs: round3(mean - serverMs),
    outsideMsStderr: round3(Math.sqrt(serverErr * serverErr + meanErr * meanErr))
  }
}

/**
 * A type's samples split at its p99: buckets wholly above it are the slowest transactions', the
 * others the typical ones'; samples without a latency are in neither.
 * @param {Map<string, Map<number, number>>} events
 * @param {number|null} p99Ms
 */
export function splitAtP99 (events, p99Ms) {
  const slow = new Map()
  const typical = new Map()
  const unknown = new Map()
  const p99Us = p99Ms === null ? Infinity : p99Ms * 1000
  for (const [event, buckets] of events) {
    for (const [bucket, count] of buckets) {
      const into = bucket === NO_LATENCY ? unknown : bucketFloorUs(bucket) >= p99Us ? slow : typical
      into.set(event, (into.get(event) ?? 0) + count)
    }
  }
  return { slow, typical, unknown, slowSamples: sumOf(slow.values()), typicalSamples: sumOf(typical.values()) }
}

/**
 * Events by share of the samples, largest first.
 * @param {Map<string, number>} counts
 * @param {number} total
 * @returns {{ event: string, samples: number, share: number }[]}
 */
export function shares (counts, total) {
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([event, samples]) => ({ event, samples, share: total > 0 ? round3(samples / total) : 0 }))
}

function statementFigures (statements, names) {
  return [...statements]
    .sort((a, b) => a[0] - b[0])
    .map(([index, events]) => {
      const samples = sumOf(events.values())
      const name = index === NO_STATEMENT ? null : names?.[index] ?? null
      return { index, name, samples, events: shares(events, samples) }
    })
}

function sumOf (values) {
  let n = 0
  for (const v of values) n += v
  return n
}
