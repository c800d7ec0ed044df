// Summaries of repeated bench measurements.

import { median } from '../../lib/compare/statistics/distribution-free.js'

/**
 * The median of the finite values (a failed measurement is NaN); NaN when there is none.
 * @param {number[]} xs
 * @returns {number}
 */
export function finiteMedian (xs) {
  const v = xs.filter(Number.isFinite)
  return v.length === 0 ? NaN : median(v)
}

/**
 * The lowest and highest of the finite values; NaN for both when there is none.
 * @param {number[]} xs
 * @returns {{ min: number, max: number }}
 */
export function finiteRange (xs) {
  const v = xs.filter(Number.isFinite)
  return v.length === 0 ? { min: NaN, max: NaN } : { min: Math.min(...v), max: Math.max(...v) }
}
