// Rounding for figures written to results and charts: three decimals, no float noise such as
// 0.30000000000000004 (one thousandth of a millisecond is a microsecond, the clock's unit).

/**
 * Round to three decimals.
 * @param {number} x
 * @returns {number}
 */
export function round3 (x) {
  return Math.round(x * 1000) / 1000
}
