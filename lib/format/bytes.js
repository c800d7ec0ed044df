// Sizes as PostgreSQL writes them (pg_size_pretty): bytes, kB, MB, GB, TB, each 1024 of the one
// below. The summary, the progress lines and every report use this one spelling.

/** The units, smallest first. */
export const BYTE_UNITS = Object.freeze(['bytes', 'kB', 'MB', 'GB', 'TB'])

/** Bytes in one MB. */
export const MB = 1024 * 1024

/**
 * A size in the largest unit it reaches: "512 bytes", "51.2 kB", "128 MB".
 * @param {number} v bytes
 * @param {{ digits?: number, fixed?: boolean }} [opts] digits after the point above bytes; fixed:
 *   always that many (the summary's columns), else at most that many
 * @returns {string}
 */
export function bytesText (v, { digits = 1, fixed = false } = {}) {
  let i = 0
  let x = v
  while (Math.abs(x) >= 1024 && i < BYTE_UNITS.length - 1) { x /= 1024; i++ }
  const d = i === 0 ? 0 : digits
  const text = x.toLocaleString('en-US', { minimumFractionDigits: fixed ? d : 0, maximumFractionDigits: d })
  return `${text} ${BYTE_UNITS[i]}`
}
