// Parsers of load profiles: `--stages DUR:RATE,...` (k6's syntax: the arrival rate ramps to each
// target) and `--clients-stages DUR:N[~],...` (active terminals: a step, or a ramp with `~`).

import { PgloadError } from '../errors.js'
import { parseDurationS } from './parse.js'
import { shownValue } from './shown.js'
import { rangeOf } from './ranges.js'

/**
 * One stage as given: how long it lasts and the target at its end.
 * @typedef {object} StageSpec
 * @property {number} durationS > 0
 * @property {number} target arrivals per second (rate stages) or active terminals (clients stages)
 * @property {boolean} ramp linear from the previous stage's target (rate stages always)
 */

/**
 * `--stages 30s:500,2m:5000,30s:0`: the arrival rate of the whole run ramps linearly from the
 * previous target to each stage's over its duration.
 * @param {unknown} value a string, or stages already parsed (a library plan)
 * @param {string} [flag]
 * @returns {StageSpec[]}
 */
export function parseRateStages (value, flag = '--stages') {
  return parseStages(value, flag, { integer: false, rampMark: false })
}

/**
 * `--clients-stages 1m:8,1m:16~,1m:16`: the active closed-loop terminals; `N` from the stage's
 * start, `N~` ramping linearly from the previous stage's number (the first from 0).
 * @param {unknown} value a string, or stages already parsed (a library plan)
 * @param {string} [flag]
 * @returns {StageSpec[]}
 */
export function parseClientStages (value, flag = '--clients-stages') {
  return parseStages(value, flag, { integer: true, rampMark: true })
}

function parseStages (value, flag, { integer, rampMark }) {
  const what = integer ? 'N' : 'RATE'
  const form = `DUR:${what}${rampMark ? '[~]' : ''},... (e.g. ${integer ? '1m:8,1m:16~' : '30s:500,2m:500,30s:0'})`
  if (Array.isArray(value)) return value.map((s, i) => checkedStage(s, flag, i, integer, rampMark))
  if (typeof value !== 'string' || value.trim() === '') throw new PgloadError(`${flag} needs stages ${form}, got ${shownValue(value)}`, { code: 'BAD_OPTION' })
  const parts = value.split(',')
  return parts.map((text, i) => {
    const m = /^\s*([^:]+):\s*([^~\s]+)\s*(~)?\s*$/.exec(text)
    if (!m || (m[3] && !rampMark)) throw new PgloadError(`${flag}: stage ${i + 1} must be ${rampMark ? 'DUR:N or DUR:N~' : 'DUR:RATE'}, got ${shownValue(text)}`, { code: 'BAD_OPTION' })
    let durationS
    try { durationS = parseDurationS(m[1], flag) } catch { durationS = NaN }
    const target = /^\d+(\.\d+)?$/.test(m[2]) ? Number(m[2]) : NaN
    return checkedStage({ durationS, target, ramp: !rampMark || Boolean(m[3]) }, flag, i, integer, rampMark, text)
  })
}

function checkedStage (s, flag, i, integer, rampMark, text) {
  const where = `${flag}: stage ${i + 1}${text === undefined ? '' : ` (${text.trim()})`}`
  if (!(typeof s?.durationS === 'number' && Number.isFinite(s.durationS))) throw new PgloadError(`${where}: the duration must be like 30s, 2m or 1h`, { code: 'BAD_OPTION' })
  if (!(s.durationS > 0)) throw new PgloadError(`${where}: the duration must be above zero`, { code: 'BAD_OPTION' })
  const longest = rangeOf(integer ? '--clients-stages' : '--stages').max
  if (s.durationS > longest) throw new PgloadError(`${where}: the duration must be at most ${longest} s (365 days), got ${s.durationS} s`, { code: 'BAD_OPTION' })
  const t = s.target
  // a stage's target is a --clients or a --rate: the same bounds
  const most = rangeOf(integer ? '--clients' : '--rate').max
  if (!(typeof t === 'number' && Number.isFinite(t) && t >= 0 && t <= most) || (integer && !Number.isInteger(t))) {
    throw new PgloadError(`${where}: the target must be ${integer ? 'a whole number of clients' : 'a rate (transactions per second)'} in 0..${most}`, { code: 'BAD_OPTION' })
  }
  return Object.freeze({ durationS: s.durationS, target: t, ramp: rampMark ? Boolean(s.ramp) : true })
}
