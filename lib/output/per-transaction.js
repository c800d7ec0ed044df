// Figures per transaction (blocks, WAL bytes, microseconds of CPU) as the summary and the report
// print them: a small one keeps its significant digits instead of rounding to 0.0.

/**
 * A per-transaction figure with `digits` decimals, or more for a non-zero figure below 1, enough
 * for two significant digits: 22.9, 0.04, 0.51.
 * @param {number} x
 * @param {number} [digits] the decimals of figures of 1 and more
 * @param {{ grouping?: boolean }} [opts] grouping: thousands separators (1,234.5)
 * @returns {string}
 */
export function formatPerTransaction (x, digits = 1, { grouping = true } = {}) {
  const a = Math.abs(x)
  const max = a > 0 && a < 1 ? Math.max(digits, Math.ceil(-Math.log10(a)) + 1) : digits
  return x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: max, useGrouping: grouping })
}
