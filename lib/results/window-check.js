// The figures of one window of a run (the whole run, or a stage) held to their sources within
// the rounding they are written with: rates against counts over the window, totals against the
// types' counts, latency figures against their histograms.

import { mismatch, memberPath } from './rules.js'
import { checkLatencyFigures, decodedSum } from './latency-check.js'
import { round3 } from '../format/round.js'

/** Counters of `summary` that are the sums of the same counters of `transactions.<type>`. */
export const SUMMED = ['failed', 'skipped', 'retried', 'retries', 'late', 'rollbacks', 'unfinished', 'outcomeUnknown']
// durations are written to the millisecond, rates to three decimals; float noise on top
const SECONDS_ROUNDING = 0.0005 + 1e-9

export const isNumber = (v) => typeof v === 'number' && Number.isFinite(v)
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`

/**
 * Throw unless `stated` is `n` per `seconds` as written (`digits` decimals, the window to the
 * millisecond). An empty window has no rate: null (or 0) only.
 * @param {string} path
 * @param {unknown} stated
 * @param {number} n
 * @param {unknown} seconds
 * @param {{ what?: string, from?: string, per?: number, digits?: number, over?: string }} [opts] per: 60
 *   for a rate per minute; from, over: the fields the count and the window come from, for the message
 */
export function checkRate (path, stated, n, seconds, { what = 'transactions', from, per = 1, digits = 3, over = 'run.durationS' } = {}) {
  if (!isNumber(stated) || !isNumber(n) || !isNumber(seconds)) return
  const slack = 0.5 * 10 ** -digits + 1e-9
  const lo = seconds > 0 ? n * per / (seconds + SECONDS_ROUNDING) - slack : 0
  const hi = seconds > SECONDS_ROUNDING ? n * per / (seconds - SECONDS_ROUNDING) + slack : (n === 0 ? slack : Infinity)
  if (stated >= lo && stated <= hi) return
  const gives = seconds > 0 ? `give ${round3(n * per / seconds)}` : 'give no rate'
  throw mismatch(path, stated, `${plural(n, what.replace(/s$/, ''))}${from ? ` (${from})` : ''} over ${seconds} s (${over}) ${gives}`)
}

/**
 * Throw unless each counter of `totals` is the sum of the same counter over `types` (every type
 * having it), errors by SQLSTATE too.
 * @param {any} totals a summary
 * @param {Record<string, any>} types per type
 * @param {string} path of the summary
 * @param {string} typesPath of the types
 */
export function checkTypeSums (totals, types, path, typesPath) {
  const list = Object.values(types)
  const sumOf = (key) => list.every((t) => isNumber(t[key])) ? list.reduce((a, t) => a + t[key], 0) : null
  const pairs = [['transactions', 'count'], ...SUMMED.map((k) => [k, k])]
  for (const [key, typeKey] of pairs) {
    const sum = sumOf(typeKey)
    if (isNumber(totals[key]) && sum !== null && totals[key] !== sum) {
      throw mismatch(memberPath(path, key), totals[key], `${typesPath}.*.${typeKey} add up to ${sum}`)
    }
  }
  if (totals.errors === null || typeof totals.errors !== 'object' || !list.every((t) => t.errors && typeof t.errors === 'object')) return
  const codes = new Set([...Object.keys(totals.errors), ...list.flatMap((t) => Object.keys(t.errors))])
  for (const code of codes) {
    const sum = list.reduce((a, t) => a + (t.errors[code] ?? 0), 0)
    const stated = totals.errors[code] ?? 0
    if (stated !== sum) throw mismatch(memberPath(memberPath(path, 'errors'), code), stated, `${memberPath(`${typesPath}.*.errors`, code)} add up to ${sum}`)
  }
}

/**
 * A summary and its types over a window: rates, the types' sums, latency figures against the
 * histograms. Shared by the run and each stage.
 * @param {any} summary @param {Record<string, any>} types
 * @param {number|null|undefined} seconds the window
 * @param {string} path where the summary is ('' for the run)
 */
export function checkWindow (summary, types, seconds, path) {
  const at = (key) => path ? `${path}.${key}` : key
  const over = path ? at('lengthS') : 'run.durationS'
  checkTypeSums(summary, types, at('summary'), at('transactions'))
  checkRate(at('summary.tps'), summary.tps, summary.transactions, seconds, { over })
  for (const [name, t] of Object.entries(types)) {
    const typePath = memberPath(at('transactions'), name)
    checkRate(`${typePath}.tps`, t.tps, t.count, seconds, { over })
    checkLatencyFigures(t.latencyMs, decodedSum([t.histogram]), `${typePath}.latencyMs`, `${typePath}.histogram`)
  }
  checkLatencyFigures(summary.latencyMs, decodedSum(Object.values(types).map((t) => t.histogram)), at('summary.latencyMs'), `the ${at('transactions')} histograms added`)
  checkLatencyFigures(summary.lagMs, decodedSum([summary.lagHistogram]), at('summary.lagMs'), at('summary.lagHistogram'))
  checkLatencyFigures(summary.queueMs, decodedSum([summary.queueHistogram]), at('summary.queueMs'), at('summary.queueHistogram'))
}
