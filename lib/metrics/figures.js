// The figures of the results document derived from histograms and counters: one definition,
// used by the Recorder when a run ends and by the results merge when partitions are combined.

import { latencySummaryMs, percentileMs } from './histogram.js'
import { round3 } from '../format/round.js'

/**
 * Events per second over a window, null for an empty window.
 * @param {number} n
 * @param {number} seconds
 * @returns {number|null}
 */
export function ratePerS (n, seconds) {
  return seconds > 0 ? round3(n / seconds) : null
}

/**
 * The exact mean and standard deviation in ms of `n` latencies from their sum and sum of squares
 * in microseconds (the histogram's own are quantised); nulls when there is none.
 * @param {number} sumUs
 * @param {number} sumSqUs
 * @param {number} n
 * @returns {{ mean: number|null, stddev: number|null }}
 */
export function meanStddevMs (sumUs, sumSqUs, n) {
  if (!(n > 0)) return { mean: null, stddev: null }
  const mean = sumUs / n
  return { mean: round3(mean / 1000), stddev: round3(Math.sqrt(Math.max(0, sumSqUs / n - mean * mean)) / 1000) }
}

/**
 * Whole-run latency figures: the histogram's percentiles with the exact mean and standard
 * deviation from the sums when there are any.
 * @param {import('./histogram.js').Histogram} h
 * @param {number} sumUs
 * @param {number} sumSqUs
 * @param {number} n
 */
export function latencyFiguresMs (h, sumUs, sumSqUs, n) {
  const figures = latencySummaryMs(h)
  if (n > 0) Object.assign(figures, meanStddevMs(sumUs, sumSqUs, n))
  return figures
}

/**
 * An interval's latency figures over all types.
 * @param {import('./histogram.js').Histogram} h
 * @returns {{ p50: number|null, p90: number|null, p99: number|null, max: number|null }}
 */
export function intervalLatencyMs (h) {
  if (h.totalCount === 0) return { p50: null, p90: null, p99: null, max: null }
  return { p50: percentileMs(h, 50), p90: percentileMs(h, 90), p99: percentileMs(h, 99), max: round3(h.maxValue / 1000) }
}

/**
 * An interval's schedule lag or queue wait figures.
 * @param {import('./histogram.js').Histogram} h
 * @returns {{ p99: number|null, max: number|null }}
 */
export function intervalTailMs (h) {
  if (h.totalCount === 0) return { p99: null, max: null }
  return { p99: percentileMs(h, 99), max: round3(h.maxValue / 1000) }
}
