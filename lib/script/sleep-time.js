// The longest \sleep: Node's timers hold at most 2^31-1 ms (about 24.8 days). A longer one would
// fire at once with a TimeoutOverflowWarning, so it is refused, at load time when it is a number
// and by aborting the client when a variable holds it.

/** The longest sleep, in microseconds. */
export const MAX_SLEEP_US = 2147483647 * 1000

/** The limit as the error messages say it. */
export const MAX_SLEEP_TEXT = 'at most 2147483647 ms, about 24.8 days'

/**
 * Whether a sleep count (its leading integer, as C's atoi reads it) in a unit exceeds MAX_SLEEP_US.
 * The number is read whole: atoi would wrap a count past 32 bits into some other duration.
 * @param {string} text
 * @param {number} unitUs microseconds per unit
 */
export function sleepTooLong (text, unitUs) {
  const m = /^[ \t\n\v\f\r]*([+-]?[0-9]+)/.exec(text)
  return m !== null && Number(m[1]) * unitUs > MAX_SLEEP_US
}
