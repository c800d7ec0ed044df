// The figures of the results' `waits` section (docs/results-format.md, "waits") from its counts:
// per transaction type and statement, the share of sampled server time by wait event, the server
// time per transaction the samples estimate, the time outside the server, and what the slowest
// transactions (above the type's p99) waited on beside the others. The wait sampler derives them
// when it writes the section, the merge of partitions again from the counts added up.

import { round3 } from '../format/round.js'

/** Latency buckets per doubling: each about 9 % wide. */
const PER_OCTAVE = 8
/** The bucket of a sample whose transaction's latency is not known (it failed, or was not seen to end). */
export const NO_LATENCY = -1
/** The statement of a sample whose statement is not known (the connection moved on while sampled). */
export const NO_STATEMENT = -1

/**
 * @param {number} latencyUs
 * @returns {number} the latency's bucket
 */
export function latencyBucket (latencyUs) {
  return latencyUs >= 1 ? Math.floor(Math.log2(latencyUs) * PER_OCTAVE) : 0
}

/**
 * @param {number} bucket
 * @returns {number} the least latency in the bucket, microseconds
 */
export function bucketFloorUs (bucket) {
  return 2 ** (bucket / PER_OCTAVE)
}

/**
 * A type's counts as the section keeps them (JSON): they add up across partitions.
 * @typedef {object} WaitCounts
 * @property {number} sampledMs the samples times the time each stands for
 * @property {Record<string, [number, number][]>} buckets event -> [latency bucket, samples]
 * @property {Record<string, Record<string, number>>} statements statement index -> event -> samples
 */

/**
 * One type's figures from its counts.
 * @param {WaitCounts} counts
 * @param {{ count?: number, failed?: number, latencyMs?: { mean?: number|null, stddev?: number|null, p99?: number|null } }|undefined} txn
 *   the type's entry of results.transactions
 * @param {Record<string, string|null>} names statement index -> name
 */
export function waitTypeFigures (counts, txn, names) {
  const n = (txn?.count ?? 0) + (txn?.failed ?? 0)
  const events = new Map(Object.entries(counts.buckets).map(([event, list]) => [event, new Map(list)]))
  const byEvent = new Map([...events].map(([event, buckets]) => [event, sumOf(buckets.values())]))
  const samples = sumOf(byEvent.values())
  const p99Ms = txn?.latencyMs?.p99 ?? null
  const split = splitAtP99(events, p99Ms)
  return {
    samples,
    transactions: n,
    events: shares(byEvent, samples),
    ...timeFigures(counts.sampledMs, samples, n, txn?.latencyMs),
    statements: statementFigures(counts.statements, names),
    slow: { aboveMs: p99Ms, samples: split.slowSamples, events: shares(split.slow, split.slowSamples) },
    typical: { samples: split.typicalSamples, events: shares(split.typical, split.typicalSamples) },
    unknownLatency: sumOf(split.unknown.values()),
    counts
  }
}

/**
 * Server time per transaction from the samples (the time they stand for / transactions), and the
 * time outside the server (mean latency minus that), each with a standard error: the samples
 * counted as Poisson, the mean latency's from its standard deviation.
 * @param {number} sampledMs @param {number} samples @param {number} transactions
 * @param {{ mean?: number|null, stddev?: number|null }} [latencyMs]
 */
export function timeFigures (sampledMs, samples, transactions, latencyMs) {
  if (!(transactions > 0) || !(samples > 0)) return { serverMs: null, serverMsStderr: null, outsideMs: null, outsideMsStderr: null }
  const serverMs = sampledMs / transactions
  const serverErr = serverMs / Math.sqrt(samples)
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
  return Object.entries(statements)
    .map(([index, events]) => [Number(index), new Map(Object.entries(events))])
    .sort((a, b) => a[0] - b[0])
    .map(([index, events]) => {
      const samples = sumOf(events.values())
      const name = index === NO_STATEMENT ? null : names?.[index] ?? null
      return { index, name, samples, events: shares(events, samples) }
    })
}

/**
 * The counts of several partitions' sections of one type, added up.
 * @param {WaitCounts[]} list
 * @returns {WaitCounts}
 */
export function addWaitCounts (list) {
  const buckets = {}
  const statements = {}
  let sampledMs = 0
  for (const c of list) {
    sampledMs += c.sampledMs
    for (const [event, pairs] of Object.entries(c.buckets)) {
      const into = buckets[event] ??= new Map()
      for (const [b, n] of pairs) into.set(b, (into.get(b) ?? 0) + n)
    }
    for (const [index, events] of Object.entries(c.statements)) {
      const into = statements[index] ??= {}
      for (const [event, n] of Object.entries(events)) into[event] = (into[event] ?? 0) + n
    }
  }
  const sorted = Object.fromEntries(Object.entries(buckets).map(([e, m]) => [e, [...m].sort((a, b) => a[0] - b[0])]))
  return { sampledMs: round3(sampledMs), buckets: sorted, statements }
}

function sumOf (values) {
  let n = 0
  for (const v of values) n += v
  return n
}
