// Think and keying time distributions: `fixed:MS`, `uniform:MIN-MAX`, `exp:MEAN[:CAP]` (milliseconds).

import { PgloadError } from '../errors.js'
import { shownValue } from './shown.js'
import { rangeOf } from './ranges.js'

/**
 * @typedef {{ spec: string, meanUs: number, maxUs: number, sampleUs(random: { double(): number }): number }} Distribution
 */

/**
 * A fixed delay.
 * @param {number} us
 * @returns {Distribution}
 */
export function fixedUs (us) {
  return { spec: `fixed:${us / 1000}`, meanUs: us, maxUs: us, sampleUs: () => us }
}

/**
 * Negative exponential with the given mean, truncated at cap (TPC-C 5.2.5.4: Tt = -ln(r) * mean).
 * The mean reported is that of the truncated distribution.
 * @param {number} meanUs
 * @param {number} [capUs]
 * @returns {Distribution}
 */
export function exponentialUs (meanUs, capUs = Infinity) {
  const truncatedMean = capUs === Infinity ? meanUs : meanUs * (1 - Math.exp(-capUs / meanUs))
  return {
    spec: `exp:${meanUs / 1000}${capUs === Infinity ? '' : ':' + capUs / 1000}`,
    meanUs: truncatedMean,
    maxUs: capUs,
    sampleUs (random) {
      // 1 - double() is in (0, 1]: never log(0)
      const v = -Math.log(1 - random.double()) * meanUs
      return v > capUs ? capUs : v
    }
  }
}

/**
 * @param {number} minUs
 * @param {number} maxUs
 * @returns {Distribution}
 */
export function uniformUs (minUs, maxUs) {
  const span = maxUs - minUs
  return {
    spec: `uniform:${minUs / 1000}-${maxUs / 1000}`,
    meanUs: minUs + span / 2,
    maxUs,
    sampleUs: (random) => minUs + random.double() * span
  }
}

const NUM = '(\\d+(?:\\.\\d+)?)'
const FIXED = new RegExp(`^fixed:${NUM}$`)
const UNIFORM = new RegExp(`^uniform:${NUM}-${NUM}$`)
const EXP = new RegExp(`^exp:${NUM}(?::${NUM})?$`)

/**
 * Parse a distribution given in milliseconds.
 * @param {string} text e.g. `exp:1000`, `exp:500:5000`, `uniform:100-300`, `fixed:50`
 * @param {string} flag for the error message
 * @returns {Distribution}
 */
export function parseDistribution (text, flag) {
  const d = distribution(text, flag)
  const most = rangeOf('--think-time').max
  if (d.maxUs > most * 1000) throw new PgloadError(`${flag}: every time must be at most ${most} ms (24.8 days, the longest timer), got ${shownValue(text)}`, { code: 'BAD_OPTION' })
  return d
}

function distribution (text, flag) {
  const s = String(text).trim()
  let m
  if ((m = FIXED.exec(s))) return fixedUs(Number(m[1]) * 1000)
  if ((m = UNIFORM.exec(s))) {
    const lo = Number(m[1]) * 1000
    const hi = Number(m[2]) * 1000
    if (hi < lo) throw new PgloadError(`${flag}: uniform range must have MIN <= MAX, got ${shownValue(text)}`, { code: 'BAD_OPTION' })
    return uniformUs(lo, hi)
  }
  if ((m = EXP.exec(s))) {
    const mean = Number(m[1]) * 1000
    const cap = m[2] === undefined ? mean * 10 : Number(m[2]) * 1000
    if (mean <= 0) throw new PgloadError(`${flag}: exp mean must be > 0, got ${shownValue(text)}`, { code: 'BAD_OPTION' })
    return exponentialUs(mean, cap)
  }
  throw new PgloadError(`${flag} must be fixed:MS, uniform:MIN-MAX or exp:MEAN[:CAP] (milliseconds), got ${shownValue(text)}`, { code: 'BAD_OPTION' })
}
