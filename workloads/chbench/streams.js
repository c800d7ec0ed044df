// CH-benCHmark's analytic streams: each runs the 22 queries in an order of its own (a
// permutation drawn from its random generator), then again in a new order, for as long as the
// run lasts. A stream's state counts its complete sets and the time each took.

import { CH_QUERIES } from './queries.js'

const ALL_QUERIES = CH_QUERIES.map((_, i) => i)

/**
 * @typedef {object} StreamState
 * @property {number} stream the stream's number (0-based)
 * @property {number[]} queries indexes into CH_QUERIES of the queries a set holds
 * @property {number[]} order indexes into CH_QUERIES for the current set
 * @property {number} next position in `order` of the next query
 * @property {number|null} setStartUs when the current set began (epoch microseconds), null before its first query ends
 * @property {number[]} setsS the times of the complete sets that ended in the measured window, in seconds
 * @property {number[]} setEndsS when those sets ended, in seconds from the measured window's start (the intervals' time)
 */

/**
 * A stream's state, with its first order drawn.
 * @param {number} stream
 * @param {{ int(lo: number, hi: number): number }} random
 * @param {number[]} queries indexes into CH_QUERIES of the queries a set holds (all 22 unless --queries)
 * @returns {StreamState}
 */
export function streamState (stream, random, queries = ALL_QUERIES) {
  return { stream, queries, order: permutation(random, queries), next: 0, setStartUs: null, setsS: [], setEndsS: [], random }
}

/**
 * The index (into CH_QUERIES) of the stream's next query; a new order once a set is done.
 * @param {StreamState} s
 */
export function nextQuery (s) {
  if (s.next === s.order.length) {
    s.order = permutation(s.random, s.queries)
    s.next = 0
  }
  return s.order[s.next++]
}

/**
 * A query of the stream ended: a set is complete when its last query did.
 * @param {StreamState} s
 * @param {{ endEpochUs: number, latencyUs: number }} info
 * @param {boolean} measuring whether the measured window is open
 * @param {number|null} [windowEpochUs] when the measured window opened (epoch microseconds)
 */
export function queryEnded (s, info, measuring, windowEpochUs = null) {
  if (s.setStartUs === null) s.setStartUs = info.endEpochUs - info.latencyUs
  if (s.next < s.order.length) return
  if (measuring) {
    s.setsS.push((info.endEpochUs - s.setStartUs) / 1e6)
    if (windowEpochUs !== null) s.setEndsS.push(Math.round((info.endEpochUs - windowEpochUs) / 1e3) / 1e3)
  }
  s.setStartUs = null
}

/** Fisher-Yates over the set's query indexes. */
function permutation (random, queries) {
  const order = queries.slice()
  for (let i = order.length - 1; i > 0; i--) {
    const j = random.int(0, i)
    const t = order[i]; order[i] = order[j]; order[j] = t
  }
  return order
}

/**
 * The analytic figures of a run: queries per hour, the geometric mean of the 22 queries' mean
 * times, and each stream's complete sets.
 * @param {{ durationS: number, transactions?: Record<string, { count: number, failed?: number, latencyMs?: { mean?: number } }> }} runInfo
 * @param {StreamState[]} streams
 * @param {Map<string, number>} rows rows returned per query over the run
 * @param {(name: string) => object|null} answerOf a query's answer (answers.js), null when it never completed
 */
export function analyticFigures (runInfo, streams, rows, answerOf = () => null) {
  const tx = runInfo.transactions ?? {}
  const perQuery = {}
  let count = 0
  let logSum = 0
  let timed = 0
  for (const q of CH_QUERIES) {
    const x = tx[q.name] ?? { count: 0 }
    count += x.count
    const meanMs = x.count > 0 ? x.latencyMs?.mean ?? null : null
    if (meanMs > 0) { logSum += Math.log(meanMs); timed++ }
    perQuery[q.name] = { count: x.count, meanMs, rows: rows.get(q.name) ?? 0, answer: answerOf(q.name) }
  }
  return {
    streams: streams.length,
    queries: count,
    queriesPerHour: runInfo.durationS > 0 ? round2(count * 3600 / runInfo.durationS) : 0,
    // only when every query ran: a mean over some of them is not the benchmark's figure
    geoMeanMs: timed === CH_QUERIES.length ? round2(Math.exp(logSum / timed)) : null,
    sets: streams.map((s) => ({
      stream: s.stream,
      complete: s.setsS.length,
      meanS: s.setsS.length ? round2(s.setsS.reduce((a, b) => a + b, 0) / s.setsS.length) : null,
      endsS: s.setEndsS
    })),
    perQuery
  }
}

const round2 = (x) => Math.round(x * 100) / 100
