// Keying and think times per transaction type (clauses 5.2.5.2, 5.2.5.4, 5.2.5.7): constant
// keying, negative-exponential think truncated at 10x the mean; scaled by --wait-scale, or
// none at all with --no-wait.

import { PgloadError } from '../../lib/errors.js'
import { fixedUs, exponentialUs } from '../../lib/options/distribution.js'
import { DEFAULTS, TYPES } from './defaults.js'

/**
 * @param {{ wait?: boolean, noWait?: boolean, waitScale?: number }} opts
 * @returns {{ paced: boolean, scale: number, byType: Record<string, { keyingUs?: object, thinkUs?: object }> }}
 */
export function pacing (opts) {
  const noWait = opts.wait === false || opts.noWait === true
  const scale = opts.waitScale ?? DEFAULTS.waitScale
  if (typeof scale !== 'number' || !Number.isFinite(scale) || scale <= 0) {
    throw new PgloadError(`--wait-scale must be a number > 0, got ${opts.waitScale}`, { code: 'BAD_OPTION' })
  }
  if (noWait && opts.waitScale !== undefined) {
    throw new PgloadError('--wait-scale cannot be combined with --no-wait', { code: 'BAD_OPTION' })
  }
  const byType = {}
  for (const t of TYPES) {
    if (noWait) { byType[t] = {}; continue }
    const meanUs = DEFAULTS.thinkMeanMs[t] * 1000 * scale
    byType[t] = {
      keyingUs: fixedUs(DEFAULTS.keyingMs[t] * 1000 * scale),
      thinkUs: exponentialUs(meanUs, meanUs * DEFAULTS.thinkCapFactor)
    }
  }
  return { paced: !noWait, scale: noWait ? 0 : scale, byType }
}
