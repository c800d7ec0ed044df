// Whether a printed figure has enough data behind it: the one rule the summary and the report
// use, so that no line states a figure as settled next to another that says the same data is
// too thin.

import { plural } from '../format/plural.js'

// A figure counted from n events (tpmC from New-Orders, a share of rollbacks, Delivery's 90 %
// within 80 s) varies from run to run by about 1.96 / sqrt(n) of itself (95 %, Poisson); below
// this many events that is more than ±20 %.
export const MIN_EVENTS = 100

// A figure per transaction (CPU, waits for a CPU) is mostly not the transactions' cost below
// either bound: the run's fixed CPU (its tick, the stats sampler, timers, garbage collection)
// was about 3 ms per second with 2 clients here, 30 us or more per transaction under 100 tps and
// 2,000 us at 2 tps; and the kernel splits user and system time by sampling ticks.
export const PER_TRANSACTION_MIN_TPS = 100
export const PER_TRANSACTION_MIN_TRANSACTIONS = 1000

/**
 * Why a figure counted from `n` events is not settled, or null when it has enough behind it.
 * @param {number} n the events counted (0 and more)
 * @param {string} what what was counted, plural ("New-Orders")
 * @param {string} [figure] the figure that rests on them
 * @returns {string|null} e.g. "only 4 New-Orders: too few to settle the figure"
 */
export function fewEvents (n, what, figure = 'the figure') {
  if (!(n >= 0) || n >= MIN_EVENTS) return null
  return `only ${n} ${what}: too few to settle ${figure}`
}

/**
 * How far a count of `n` events varies from run to run by chance alone, in percent of itself
 * (95 %, Poisson): 98 for 4 events, 20 for 100.
 * @param {number} n
 * @returns {number}
 */
export function countSpreadPct (n) {
  return n > 0 ? Math.min(100, Math.round(196 / Math.sqrt(n))) : 100
}

/**
 * Why a per-transaction figure would mostly not be the transactions' cost, or null when it is.
 * @param {number} transactions the run's transactions (committed and failed)
 * @param {number} durationS the measured window
 * @returns {string|null}
 */
export function fewForPerTransaction (transactions, durationS) {
  if (transactions >= PER_TRANSACTION_MIN_TRANSACTIONS && durationS > 0 && transactions / durationS >= PER_TRANSACTION_MIN_TPS) return null
  const tps = durationS > 0 ? transactions / durationS : 0
  return `${plural(transactions, 'transaction')} at ${tps.toFixed(tps < 10 ? 1 : 0)} tps: too few for a per-transaction figure`
}

/**
 * Whether the per-transaction CPU figure means something for this run.
 * @param {number} transactions
 * @param {number} durationS
 */
export function perTransactionMeaningful (transactions, durationS) {
  return fewForPerTransaction(transactions, durationS) === null
}
