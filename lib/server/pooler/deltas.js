// A pooler's readings as the results keep them: one entry per interval (the pool at the reading,
// rates from SHOW STATS counters between two readings) and the run's figures over the entries.

import { round3 } from '../../format/round.js'

/**
 * One reading of the admin console.
 * @typedef {object} PoolerReading
 * @property {number} atMs when it was read, on a monotonic clock
 * @property {number} t the run's time of the interval it closes (seconds since the measured window opened)
 * @property {import('./admin-rows.js').PoolReading|null} pool
 * @property {{ transactions: number|null, queries: number|null, waitUs: number|null }|null} totals
 */

/**
 * One entry of the `pooler.series` (docs/results-format.md).
 * @typedef {object} PoolerEntry
 * @property {number} t
 * @property {number} lengthS since the reading before
 * @property {number|null} clientsActive
 * @property {number|null} clientsWaiting
 * @property {number|null} maxWaitMs
 * @property {number|null} serversActive
 * @property {number|null} serversIdle
 * @property {number|null} serversUsed
 * @property {number|null} transactions the transactions the pooler counted since the reading before
 * @property {number|null} tps transactions per second as the pooler counted them
 * @property {number|null} qps queries per second as the pooler counted them
 * @property {number|null} waitS the clients' time waiting for a server, added up
 * @property {number|null} waitMs that time per transaction
 */

const delta = (a, b, key) => (a?.[key] ?? null) === null || (b?.[key] ?? null) === null ? null : Math.max(0, b[key] - a[key])
const figure = (v) => v === null || v === undefined ? null : round3(v)

/**
 * The entry of one interval, from the reading at its close and the one before it.
 * @param {PoolerReading} before
 * @param {PoolerReading} now
 * @returns {PoolerEntry}
 */
export function poolerEntry (before, now) {
  const seconds = (now.atMs - before.atMs) / 1000
  const transactions = delta(before.totals, now.totals, 'transactions')
  const queries = delta(before.totals, now.totals, 'queries')
  const waitUs = delta(before.totals, now.totals, 'waitUs')
  const rate = (n) => n === null || !(seconds > 0) ? null : n / seconds
  const p = now.pool
  return {
    t: round3(now.t),
    lengthS: round3(Math.max(0, now.t - before.t)),
    clientsActive: p?.clientsActive ?? null,
    clientsWaiting: p?.clientsWaiting ?? null,
    maxWaitMs: figure(p?.maxWaitMs),
    serversActive: p?.serversActive ?? null,
    serversIdle: p?.serversIdle ?? null,
    serversUsed: p?.serversUsed ?? null,
    transactions,
    tps: figure(rate(transactions)),
    qps: figure(rate(queries)),
    waitS: waitUs === null ? null : round3(waitUs / 1e6),
    waitMs: waitUs === null || !transactions ? null : round3(waitUs / transactions / 1000)
  }
}

// Clients waiting for a server, on average over an interval (their wait over its length), below
// which the pooler's count of wait time is its own bookkeeping rather than a queue.
const QUEUED_CLIENTS = 0.01

/**
 * Whether clients queued in the pooler during an entry's interval: some waited at its reading,
 * or their time waiting for a server came to a hundredth of a client waiting all along.
 * @param {PoolerEntry} e
 */
export function clientsQueued (e) {
  return (e.clientsWaiting ?? 0) > 0 || (e.lengthS > 0 && (e.waitS ?? 0) / e.lengthS >= QUEUED_CLIENTS)
}

/**
 * The run's figures over its entries.
 * @param {PoolerEntry[]} series
 * @returns {{ maxClientsWaiting: number|null, waitingIntervals: number, waitingS: number, longestWaitMs: number|null, maxServersActive: number|null, transactions: number|null, waitS: number|null, waitMs: number|null }}
 */
export function poolerTotals (series) {
  const max = (key) => series.reduce((m, e) => e[key] === null ? m : Math.max(m ?? 0, e[key]), null)
  const queued = series.filter(clientsQueued)
  const waits = series.filter((e) => e.waitS !== null && e.transactions !== null)
  const waitS = waits.reduce((s, e) => s + e.waitS, 0)
  const transactions = waits.reduce((n, e) => n + e.transactions, 0)
  return {
    maxClientsWaiting: max('clientsWaiting'),
    waitingIntervals: queued.length,
    waitingS: round3(queued.reduce((s, e) => s + e.lengthS, 0)),
    longestWaitMs: max('maxWaitMs'),
    maxServersActive: max('serversActive'),
    transactions: waits.length ? transactions : null,
    waitS: waits.length ? round3(waitS) : null,
    waitMs: transactions > 0 ? round3(waitS * 1000 / transactions) : null
  }
}
