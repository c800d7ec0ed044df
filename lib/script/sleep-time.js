// \sleep durations: the count read as C's atoi() reads it, and the longest sleep. Node's timers
// hold at most 2^31-1 ms (about 24.8 days); a longer one would fire at once with a
// TimeoutOverflowWarning, so it is refused: at load time when written as a number, by aborting
// the client when a variable holds it.

/** Microseconds per \sleep unit (the unit is case-insensitive; no unit means seconds). */
export const SLEEP_UNIT_US = Object.freeze({ us: 1, ms: 1000, s: 1000000 })

/** The longest sleep, in microseconds. */
export const MAX_SLEEP_US = 2147483647 * 1000

/** The limit as the error messages say it. */
export const MAX_SLEEP_TEXT = 'at most 2147483647 ms, about 24.8 days'

/**
 * The leading integer of a sleep time, as atoi() reads it (0 when there is none). Read whole,
 * not wrapped to 32 bits as C's int would: that would turn a long sleep into some other one.
 * @param {string} s
 * @returns {number}
 */
export function sleepCount (s) {
  const m = /^[ \t\n\v\f\r]*([+-]?[0-9]+)/.exec(s)
  return m ? Number(m[1]) : 0
}

/**
 * Whether a sleep count in a unit exceeds MAX_SLEEP_US.
 * @param {number} count
 * @param {number} unitUs microseconds per unit
 */
export function sleepTooLong (count, unitUs) {
  return count * unitUs > MAX_SLEEP_US
}
