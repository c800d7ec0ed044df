// pgload's own CPU over the measured window, as the summary and the report print it: per
// transaction when the run is fast enough for that to mean the transactions' cost, else as a
// share of one core.

import { formatPerTransaction } from './per-transaction.js'
import { fewForPerTransaction } from './enough-data.js'
import { plural } from '../format/plural.js'

// The summary's lines print figures as pgbench does, without thousands separators.
const plain = (v) => formatPerTransaction(v, 1, { grouping: false })

// Below this window the process's fixed CPU (start-up compilation, the first connections, the
// stats sampler's first read) is most of what was measured, and a share of a core says nothing
// about the run: a one-transaction run showed 362 % of one core on one thread.
export const CORE_SHARE_MIN_WINDOW_S = 1

export { PER_TRANSACTION_MIN_TPS, PER_TRANSACTION_MIN_TRANSACTIONS, perTransactionMeaningful } from './enough-data.js'

/**
 * The client's CPU as shares of one core over the measured window (0.25 = a quarter of a core).
 * @param {any} client the results' client section
 * @param {number} durationS the measured window
 * @param {number} transactions the run's transactions (committed and failed), which the
 *   per-transaction figures divide by
 * @returns {{ cpuCoreShare: number|null, userCoreShare: number|null, systemCoreShare: number|null }}
 */
export function coreShares (client, durationS, transactions) {
  const none = { cpuCoreShare: null, userCoreShare: null, systemCoreShare: null }
  if (!client || !(durationS >= CORE_SHARE_MIN_WINDOW_S)) return none
  const windowUs = durationS * 1e6
  const share = (us) => typeof us === 'number' && Number.isFinite(us) ? Math.round(us / windowUs * 10000) / 10000 : null
  const total = typeof client.cpuUs === 'number' ? client.cpuUs : (client.cpuUsPerTxn ?? NaN) * transactions
  const split = (perTxn) => typeof perTxn === 'number' && transactions > 0 ? perTxn * transactions : null
  return { cpuCoreShare: share(total), userCoreShare: share(split(client.userUsPerTxn)), systemCoreShare: share(split(client.systemUsPerTxn)) }
}

/**
 * The summary's client CPU line, or null without CPU figures.
 * @param {any} results a results document
 * @returns {string|null}
 */
export function clientCpuLine (results) {
  const c = results.client
  if (!c?.cpuUsPerTxn && !(c?.cpuUs > 0)) return null
  const loop = `event loop ${Math.round(100 * (c.eventLoopUtilization ?? 0))}% busy`
  const { transactions, durationS } = runSize(results)
  const few = fewForPerTransaction(transactions, durationS)
  if (c.cpuUsPerTxn && !few) {
    const split = typeof c.userUsPerTxn === 'number' && typeof c.systemUsPerTxn === 'number'
      ? `${plain(c.userUsPerTxn)} user, ${plain(c.systemUsPerTxn)} kernel; `
      : ''
    return `client CPU per transaction = ${plain(c.cpuUsPerTxn)} us (${split}${loop})`
  }
  const s = sharesOf(c, durationS, transactions, results.run?.threads)
  if (s.unshown) return `client CPU: ${s.unshown} (${loop}; ${few ?? 'no per-transaction figure'})`
  if (s.cpuCoreShare === null) return null
  const split = s.userCoreShare !== null && s.systemCoreShare !== null ? `${pct(s.userCoreShare)} user, ${pct(s.systemCoreShare)} kernel; ` : ''
  return `client CPU = ${pct(s.cpuCoreShare)} of one core (${split}${loop}; ${few ?? 'no per-transaction figure'})`
}

/**
 * The report header's client CPU words (no line label), or undefined without CPU figures.
 * @param {any} results
 * @returns {string|undefined}
 */
export function clientCpuFact (results) {
  const c = results.client
  const { transactions, durationS } = runSize(results)
  const num = (v) => typeof v === 'number' && Number.isFinite(v)
  if (num(c?.cpuUsPerTxn) && !fewForPerTransaction(transactions, durationS)) {
    const f = formatPerTransaction
    return `${f(c.cpuUsPerTxn)} us CPU per transaction` + (num(c.userUsPerTxn) && num(c.systemUsPerTxn) ? ` (${f(c.userUsPerTxn)} user, ${f(c.systemUsPerTxn)} kernel)` : '')
  }
  const s = sharesOf(c, durationS, transactions, results.run?.threads)
  if (s.unshown) return `CPU: ${s.unshown}`
  if (s.cpuCoreShare === null) return undefined
  return `CPU ${pct(s.cpuCoreShare)} of one core` + (s.userCoreShare !== null && s.systemCoreShare !== null ? ` (${pct(s.userCoreShare)} user, ${pct(s.systemCoreShare)} kernel)` : '')
}

function runSize (results) {
  const s = results.summary ?? {}
  return { transactions: (s.transactions ?? 0) + (s.failed ?? 0), durationS: results.run?.durationS ?? 0 }
}

// Recorded shares when the file has them, else computed from the per-transaction figures; none
// over a window too short to mean anything, or above what the run's threads can use (a file
// written before the window had a minimum).
function sharesOf (c, durationS, transactions, threads) {
  const s = typeof c?.cpuCoreShare === 'number'
    ? { cpuCoreShare: c.cpuCoreShare, userCoreShare: c.userCoreShare ?? null, systemCoreShare: c.systemCoreShare ?? null }
    : coreShares(c, durationS, transactions)
  const known = (typeof c?.cpuUs === 'number' && c.cpuUs > 0) || typeof c?.cpuUsPerTxn === 'number'
  // with worker threads (-j 2 and more) the main thread plans, merges and samples besides them
  const most = threads > 1 ? threads + 1 : 1
  if (known && !(durationS >= CORE_SHARE_MIN_WINDOW_S)) {
    return { ...s, unshown: `not shown: the measured window (${Number(durationS || 0).toFixed(3)} s) is too short for a share of a core` }
  }
  if (s.cpuCoreShare > most) return { ...s, unshown: `not shown: ${pct(s.cpuCoreShare)} of one core is more than ${plural(most, 'thread')} can use` }
  return s
}

function pct (share) {
  const p = share * 100
  return `${p.toFixed(p < 10 ? 1 : 0)}%`
}
