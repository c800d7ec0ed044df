// --wait-sampling HZ|off: how often the wait sampler reads the run's own backends, checked before
// anything connects. The plan holds samples per second, 0 when off.

import { PgloadError } from '../errors.js'
import { parseNumber } from '../options/parse.js'
import { rangeOf } from '../options/ranges.js'
import { shownValue } from '../options/shown.js'

/**
 * @param {unknown} given the option's value: a number of samples per second, `off`, or a plan's number (0: off)
 * @param {number} fallback the default
 * @returns {number} samples per second, 0: off
 */
export function waitSamplingHz (given, fallback) {
  if (given === undefined) return fallback
  if (given === 'off' || given === false || given === 0) return 0
  if (given === true || given === 'on') return fallback
  if (typeof given === 'string' && /^\s*0+(\.0*)?\s*$/.test(given)) {
    throw new PgloadError(`--wait-sampling must be a number of samples per second or off, got ${shownValue(given)}`, { code: 'BAD_OPTION', hint: 'use --wait-sampling off to sample nothing' })
  }
  return parseNumber(given, '--wait-sampling', rangeOf('--wait-sampling'))
}
