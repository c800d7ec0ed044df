// Checks of single run options and of their combinations that need more than a parser of
// lib/options/parse.js: each throws a one-line PgloadError naming the flag.

import { PgloadError } from '../errors.js'
import { parseInteger, parseNumber } from '../options/parse.js'
import { parseDefine, checkVariableName } from '../script/options.js'
import { shownValue } from '../options/shown.js'

const bad = (message, hint) => new PgloadError(message, { code: 'BAD_OPTION', hint })

/**
 * The --label text: one line, not empty, so that legends and tables stay readable.
 * @param {unknown} label
 * @returns {string|undefined}
 */
export function runLabel (label) {
  if (label === undefined || label === null) return undefined
  const text = Array.isArray(label) ? label.at(-1) : label
  if (typeof text !== 'string' || text.trim() === '' || /[\r\n]/.test(text) || text.length > 80) {
    throw bad(`--label must be one line of 1 to 80 characters, got ${shownValue(text)}`)
  }
  return text.trim()
}

/**
 * --sampling-rate: a fraction in (0, 1].
 * @param {unknown} value
 * @returns {number|undefined}
 */
export function samplingRate (value) {
  if (value === undefined || value === null) return undefined
  const r = parseNumber(value, '--sampling-rate', { min: 0, exclusiveMin: true })
  if (r > 1) throw bad(`--sampling-rate must be in (0, 1], got ${shownValue(value)}`)
  return r
}

/**
 * pgbench's rules for --log, --sampling-rate, --aggregate-interval and --log-prefix.
 * @param {{ log?: boolean, logPrefix?: string, samplingRate?: number, aggregateIntervalS?: number }} w
 * @param {number|undefined} durationS
 */
export function checkLogOptions (w, durationS) {
  if (w.samplingRate !== undefined && !w.log) throw bad('--sampling-rate needs --log')
  if (w.samplingRate !== undefined && w.aggregateIntervalS !== undefined) throw bad('--sampling-rate and --aggregate-interval cannot be used at the same time')
  if (w.aggregateIntervalS !== undefined && !w.log) throw bad('--aggregate-interval needs --log')
  if (w.logPrefix !== undefined && !w.log) throw bad('--log-prefix needs --log')
  if (w.aggregateIntervalS !== undefined && durationS !== undefined) {
    if (w.aggregateIntervalS > durationS) throw bad(`--aggregate-interval (${w.aggregateIntervalS} s) must not be higher than --duration (${durationS} s)`)
    if (durationS % w.aggregateIntervalS !== 0) throw bad(`--duration (${durationS} s) must be a multiple of --aggregate-interval (${w.aggregateIntervalS} s)`)
  }
}

/**
 * Script variables: `name=value` texts (as -D gives them) or an object of them.
 * @param {string[]|Record<string, string>|undefined} define
 * @returns {Record<string, string>}
 */
export function scriptVariables (define) {
  if (define === undefined || define === null) return {}
  if (!Array.isArray(define)) {
    if (typeof define !== 'object') throw bad(`--define must be name=value texts, got ${shownValue(define)}`)
    return Object.fromEntries(Object.entries(define).map(([k, v]) => { checkVariableName(k); return [k, String(v)] }))
  }
  const out = {}
  for (const d of define) {
    const [name, value] = parseDefine(d)
    out[name] = value
  }
  return out
}

/**
 * --threshold expressions checked at the end of the run: valid, and none relative (those need a baseline).
 * @param {string[]|undefined} list
 * @returns {Promise<string[]>}
 */
export async function runThresholds (list) {
  if (list === undefined || list === null || list.length === 0) return []
  const { parseThreshold } = await import('../compare/thresholds/evaluate.js')
  for (const t of list) {
    const parsed = parseThreshold(t) // throws with the column of the mistake
    if (parsed.relative !== null) throw bad(`--threshold '${t}': a relative threshold needs a baseline; check it after the run with pgload check RESULT.json --baseline BASE.json`)
  }
  return [...list]
}

/**
 * An optional integer option.
 * @param {unknown} value @param {string} flag @param {{ min?: number, max?: number }} range
 * @returns {number|undefined}
 */
export function optionalInteger (value, flag, range) {
  return value === undefined || value === null ? undefined : parseInteger(value, flag, range)
}

/**
 * A boolean option: true, false, or absent (then `fallback`).
 * @param {unknown} value @param {string} flag @param {boolean} fallback
 * @returns {boolean}
 */
export function booleanOption (value, flag, fallback) {
  if (value === undefined || value === null) return fallback
  if (typeof value !== 'boolean') throw bad(`${flag} must be true or false, got ${shownValue(value)}`)
  return value
}
