// Which arrival rate `pgload capacity` offers next: geometric steps up from the start rate until
// a step fails, then a bisection between the highest rate that held and the lowest that failed,
// until they are within the precision asked for.

/**
 * @typedef {object} SearchSettings
 * @property {number} startRate the first step's arrivals per second
 * @property {number} growth factor between geometric steps (> 1)
 * @property {number} precision stop when lowestFailed <= highestHeld * (1 + precision)
 * @property {number} maxRate no step above this rate (Infinity: none)
 * @property {number} maxSteps no more steps than this
 */

/**
 * @typedef {object} SearchState
 * @property {number|null} held the highest offered rate that held
 * @property {number|null} failed the lowest offered rate that failed
 * @property {number} steps steps taken
 */

/** @returns {SearchState} */
export function startSearch () {
  return { held: null, failed: null, steps: 0 }
}

/**
 * The state after a step at `rate` held or failed.
 * @param {SearchState} state
 * @param {number} rate
 * @param {boolean} held
 * @returns {SearchState}
 */
export function recordStep (state, rate, held) {
  const next = { ...state, steps: state.steps + 1 }
  if (held && (next.held === null || rate > next.held)) next.held = rate
  if (!held && (next.failed === null || rate < next.failed)) next.failed = rate
  return next
}

/**
 * The next step's offered rate, or null when the search is over, with why.
 * @param {SearchState} state
 * @param {SearchSettings} s
 * @returns {{ rate: number|null, phase: 'geometric'|'bisection'|null, why: string|null }}
 */
export function nextRate (state, s) {
  if (state.steps >= s.maxSteps) return { rate: null, phase: null, why: `the step limit (${s.maxSteps}) was reached` }
  if (state.steps === 0) return { rate: roundRate(s.startRate), phase: 'geometric', why: null }
  if (state.failed === null) {
    if (state.held >= s.maxRate) return { rate: null, phase: null, why: `the highest rate asked for (${s.maxRate}/s) held` }
    return { rate: roundRate(Math.min(s.maxRate, state.held * s.growth)), phase: 'geometric', why: null }
  }
  if (state.held === null) {
    // the first rate already failed: go down geometrically until one holds, or stop near zero
    const lower = roundRate(state.failed / s.growth)
    if (lower < 1 || lower >= state.failed) return { rate: null, phase: null, why: 'no rate held, down to 1/s' }
    return { rate: lower, phase: 'geometric', why: null }
  }
  if (state.failed <= state.held * (1 + s.precision)) return { rate: null, phase: null, why: null }
  // the geometric mean: the gap halves on a log scale, as the steps up were geometric
  const mid = roundRate(Math.sqrt(state.held * state.failed))
  if (mid <= state.held || mid >= state.failed) return { rate: null, phase: null, why: null }
  return { rate: mid, phase: 'bisection', why: null }
}

/**
 * Rates as a person reads them: three significant digits (4,180 rather than 4,183.7), at least 1.
 * @param {number} rate
 */
export function roundRate (rate) {
  if (!(rate > 0)) return 0
  const digits = Math.max(0, Math.floor(Math.log10(rate)) - 2)
  const unit = 10 ** digits
  return Math.max(1, Math.round(rate / unit) * unit)
}
