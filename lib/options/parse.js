// Parsers for the value syntaxes users type: durations, rates, counts. Each names the flag on error.

import { PgloadError } from '../errors.js'
import { shownValue } from './shown.js'
import { rangeText } from './ranges.js'

const DURATION_UNITS = { us: 1e-6, ms: 1e-3, s: 1, m: 60, min: 60, h: 3600 }

/**
 * Parse a duration such as `30s`, `10m`, `1h`, `1.5s`, `500ms` or a bare number of seconds.
 * @param {string|number} value
 * @param {string} flag the flag name for the error message, e.g. '--duration'
 * @param {{ min?: number, max?: number }} [range] the shortest and longest accepted, in seconds (lib/options/ranges.js)
 * @returns {number} seconds
 */
export function parseDurationS (value, flag, { min = 0, max = Infinity } = {}) {
  let s = NaN
  if (typeof value === 'number') {
    if (Number.isFinite(value) && value >= 0) s = value
  } else if (typeof value === 'string') {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(us|ms|s|m|min|h)?\s*$/i.exec(value)
    if (m) s = Number(m[1]) * DURATION_UNITS[(m[2] ?? 's').toLowerCase()]
  }
  if (s > max) throw new PgloadError(`${flag} must be a duration of at most ${durationText(max)}, got ${shownValue(value)}`, { code: 'BAD_OPTION' })
  if (s < min) throw new PgloadError(`${flag} must be a duration of at least ${durationText(min)}, got ${shownValue(value)}`, { code: 'BAD_OPTION' })
  if (!Number.isNaN(s)) return s
  const negative = typeof value === 'number' ? value < 0 : /^\s*-\s*\d/.test(String(value))
  throw new PgloadError(`${flag} must be a duration like 30s, 10m or 1h${negative ? ', not negative' : ''}, got ${shownValue(value)}`, { code: 'BAD_OPTION' })
}

/** A bound in seconds as a reader takes it in: `31536000 s (365 days)`. */
function durationText (s) {
  const days = s / 86400
  return days >= 1 ? `${s} s (${Math.floor(days * 10) / 10} days)` : `${s} s`
}

/**
 * @param {unknown} value
 * @param {string} flag
 * @param {{ min?: number, max?: number }} [range]
 * @returns {number}
 */
export function parseInteger (value, flag, { min = -Infinity, max = Infinity } = {}) {
  const n = typeof value === 'number' ? value : (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : NaN)
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new PgloadError(`${flag} must be an integer ${rangeText({ min, max })}, got ${shownValue(value)}`, { code: 'BAD_OPTION' })
  }
  return n
}

/**
 * @param {unknown} value
 * @param {string} flag
 * @param {{ min?: number, max?: number, exclusiveMin?: boolean }} [range]
 * @returns {number}
 */
export function parseNumber (value, flag, { min = -Infinity, max = Infinity, exclusiveMin = false } = {}) {
  const n = typeof value === 'number' ? value : (typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN)
  if (!Number.isFinite(n) || n < min || (exclusiveMin && n === min) || n > max) {
    throw new PgloadError(`${flag} must be a number ${rangeText({ min, max, exclusiveMin })}, got ${shownValue(value)}`, { code: 'BAD_OPTION' })
  }
  return n
}

/**
 * A file or directory to write to, when the flag was given: an empty name (`-o ""`) would
 * otherwise mean "no output" or "the current directory" without a word.
 * @param {unknown} value
 * @param {string} flag
 * @param {'file' | 'directory'} [kind]
 * @returns {string | undefined}
 */
export function parseOutputPath (value, flag, kind = 'file') {
  if (value === undefined) return undefined
  if (typeof value !== 'string' || value.trim() === '') {
    throw new PgloadError(`${flag} needs a ${kind} name, got ${shownValue(value)}`, { code: 'BAD_OPTION' })
  }
  return value
}

/**
 * Parse a percentage option: `2`, `2%` or `0.5` (all percent).
 * @param {unknown} v
 * @param {string} flag
 * @param {{ max?: number }} [range] the largest percentage
 * @returns {number|undefined} a fraction (0.02 for 2 %)
 */
export function parsePercent (v, flag, { max = Infinity } = {}) {
  if (v === undefined) return undefined
  const m = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(String(v))
  if (!m) throw new PgloadError(`${flag} must be a percentage such as 2 or 2%, got ${shownValue(v)}`)
  if (Number(m[1]) > max) throw new PgloadError(`${flag} must be a percentage in 0..${max}, got ${shownValue(v)}`, { code: 'BAD_OPTION' })
  return Number(m[1]) / 100
}
