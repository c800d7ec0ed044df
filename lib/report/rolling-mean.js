// A centred rolling mean over a time series, for per-interval figures too noisy to read alone
// (TPC-C's New-Order count per second is a handful of transactions).

/** Rolling window of the TPC-C tpmC line, seconds (shortened to the run's length). */
export const TPMC_WINDOW_S = 30

/**
 * The window actually used: the wanted one, or the series' time span when that is shorter.
 * @param {{ t: number }[]} rows in time order
 * @param {number} windowS
 * @param {number} stepS the interval length
 * @returns {number}
 */
export function effectiveWindowS (rows, windowS, stepS) {
  if (rows.length === 0) return windowS
  const spanS = rows[rows.length - 1].t - rows[0].t + stepS
  return Math.min(windowS, Math.round(spanS * 1000) / 1000)
}

/**
 * Mean of `field` over the rows whose t lies within windowS/2 either side of each row's t
 * (fewer rows near the ends of the run, where the window is cut).
 * @template {{ t: number }} R
 * @param {R[]} rows in time order, equal steps
 * @param {string} field
 * @param {number} windowS
 * @returns {{ t: number, value: number }[]}
 */
export function rollingMean (rows, field, windowS) {
  const half = windowS / 2 + 1e-9
  const out = []
  let lo = 0
  let hi = 0
  let sum = 0
  for (const row of rows) {
    while (hi < rows.length && rows[hi].t <= row.t + half) sum += rows[hi++][field]
    while (rows[lo].t < row.t - half) sum -= rows[lo++][field]
    out.push({ t: row.t, value: Math.round((sum / (hi - lo)) * 1000) / 1000 })
  }
  return out
}
