// Threshold expressions, k6 style: `[metric[{txn:name}][:]] agg[[window]] op value`, e.g.
// `p(99) < 50ms`, `latency{txn:new-order}: p(95) < +10%`, `tps > -5%`, `p(99)[30s] < 80ms`.

import { lexThreshold, thresholdError } from './lexer.js'

/**
 * What each metric accepts. kind per aggregate: time (ms), count, rate (per second),
 * fraction (0..1), number, percent.
 */
export const THRESHOLD_METRICS = {
  latency: { aggs: { avg: 'time', min: 'time', max: 'time', med: 'time', p: 'time', count: 'count', rate: 'rate' }, window: true, txn: true },
  lag: { aggs: { avg: 'time', min: 'time', max: 'time', med: 'time', p: 'time' }, percentiles: [50, 90, 95, 99, 99.9] },
  tps: { aggs: { rate: 'rate', avg: 'rate', min: 'rate', max: 'rate', med: 'rate', p: 'rate' }, defaultAgg: 'rate', window: true, txn: true },
  failed: { aggs: { count: 'count', rate: 'fraction' }, defaultAgg: 'count', window: true, txn: true },
  skipped: { aggs: { count: 'count', rate: 'fraction' }, defaultAgg: 'count', window: true, txn: true },
  tpmC: { aggs: { value: 'number' }, defaultAgg: 'value' },
  efficiency: { aggs: { value: 'percent' }, defaultAgg: 'value' }
}

const METRIC_NAMES = new Map(Object.keys(THRESHOLD_METRICS).map(k => [k.toLowerCase(), k]))
const AGGS = new Set(['avg', 'min', 'max', 'med', 'count', 'rate', 'p'])
const TIME_UNITS = { us: 0.001, µs: 0.001, ms: 1, s: 1000 }
const WINDOW_UNITS = { ms: 0.001, s: 1, m: 60, h: 3600 }
const TAG_KEYS = new Set(['txn', 'type'])

/**
 * @typedef {{ expr: string, metric: string, txn: string|null, agg: string, percentile: number|null,
 *   windowS: number|null, op: '<'|'<='|'>'|'>='|'=='|'!=', kind: string, value: number|null,
 *   relative: number|null }} Threshold
 *   value: absolute limit in the kind's unit (ms for time, 0..1 for fraction); relative: +0.1 for +10 %
 */

/**
 * Parse one threshold expression.
 * @param {string} expr
 * @returns {Threshold}
 * @throws {PgloadError} code THRESHOLD_SYNTAX, message with the column, caret line in the hint
 */
export function parseThreshold (expr) {
  if (typeof expr !== 'string') throw thresholdError(String(expr), 1, 'expected a string')
  const tokens = lexThreshold(expr)
  let pos = 0
  const peek = () => tokens[pos]
  const next = () => tokens[pos++]
  const fail = (tok, msg) => thresholdError(expr, tok.col, msg ?? (tok.type === 'end' ? 'unexpected end' : `unexpected '${tok.text}'`))
  const expectPunct = (ch, what) => {
    const t = next()
    if (t.type !== 'punct' || t.text !== ch) throw fail(t, `expected ${what ?? `'${ch}'`}${t.type === 'end' ? '' : `, got '${t.text}'`}`)
    return t
  }

  let metric = 'latency'
  let metricTok = null
  let txn = null
  let first = peek()
  if (first.type === 'end') throw fail(first, 'empty expression')
  if (first.type === 'ident' && METRIC_NAMES.has(first.text.toLowerCase())) {
    metricTok = next()
    metric = METRIC_NAMES.get(first.text.toLowerCase())
    if (peek().type === 'tag') {
      const tag = next()
      if (!TAG_KEYS.has(tag.key)) throw thresholdError(expr, tag.col + 1, `unknown tag '${tag.key}' (use {txn:name})`)
      if (!THRESHOLD_METRICS[metric].txn) throw thresholdError(expr, tag.col, `${metric} has no per-transaction values`)
      txn = tag.tagValue
    }
    if (peek().type === 'punct' && peek().text === ':') next()
    first = peek()
  } else if (first.type === 'ident' && !isAgg(first.text)) {
    throw fail(first, `unknown metric or aggregate '${first.text}' (metrics: ${Object.keys(THRESHOLD_METRICS).join(', ')}; aggregates: avg, min, max, med, count, rate, p(N))`)
  }
  const spec = THRESHOLD_METRICS[metric]

  // aggregate
  let agg = null
  let percentile = null
  const aggTok = peek()
  if (aggTok.type === 'ident' && isAgg(aggTok.text)) {
    next()
    const short = /^p(\d+)$/.exec(aggTok.text)
    if (short) {
      agg = 'p'
      percentile = short[1] === '999' ? 99.9 : Number(short[1])
    } else if (aggTok.text === 'p') {
      agg = 'p'
      expectPunct('(')
      const n = next()
      if (n.type !== 'number') throw fail(n, 'expected a percentile number')
      percentile = n.value
      if (!(percentile > 0 && percentile <= 100)) throw fail(n, `percentile must be > 0 and <= 100, got ${n.text}`)
      expectPunct(')')
    } else {
      agg = aggTok.text
    }
    if (agg === 'p' && !(percentile > 0 && percentile <= 100)) throw fail(aggTok, 'percentile must be > 0 and <= 100')
    if (!(agg in spec.aggs)) throw fail(aggTok, `${metric} does not take ${agg === 'p' ? `p(${percentile})` : agg} (takes ${Object.keys(spec.aggs).map(a => a === 'p' ? 'p(N)' : a).join(', ')})`)
    if (metric === 'lag' && agg === 'p' && !spec.percentiles.includes(percentile)) {
      throw fail(aggTok, `lag keeps only p(${spec.percentiles.join('), p(')})`)
    }
  } else if (aggTok.type === 'ident') {
    throw fail(aggTok, `unknown aggregate '${aggTok.text}' (avg, min, max, med, count, rate, p(N))`)
  } else if (spec.defaultAgg) {
    agg = spec.defaultAgg
  } else if (aggTok.type === 'op' || aggTok.type === 'punct' || aggTok.type === 'end') {
    throw fail(aggTok, `expected an aggregate for ${metric}: ${Object.keys(spec.aggs).map(a => a === 'p' ? 'p(N)' : a).join(', ')}`)
  } else {
    throw fail(aggTok)
  }
  if (metric === 'latency' && agg === 'rate') metric = 'tps' // latency rate is throughput
  const kind = spec.aggs[agg]

  // window
  let windowS = null
  if (peek().type === 'punct' && peek().text === '[') {
    const open = next()
    if (!THRESHOLD_METRICS[metric].window) throw thresholdError(expr, open.col, `${metricTok?.text ?? metric} has no per-interval data for a window`)
    if (txn !== null && (metric === 'failed' || metric === 'skipped')) throw thresholdError(expr, open.col, `per-interval ${metric} counts are not kept per transaction type`)
    const n = next()
    if (n.type !== 'number') throw fail(n, 'expected a window length such as 30s')
    let factor = 1
    if (peek().type === 'ident') {
      const u = next()
      factor = WINDOW_UNITS[u.text]
      if (factor === undefined) throw fail(u, `unknown window unit '${u.text}' (ms, s, m, h)`)
    }
    windowS = n.value * factor
    if (!(windowS > 0)) throw fail(n, 'window must be longer than 0')
    expectPunct(']', "']'")
  }

  // operator
  const opTok = next()
  if (opTok.type !== 'op') throw fail(opTok, opTok.type === 'end' ? 'expected an operator (< <= > >= == !=)' : `expected an operator (< <= > >= == !=), got '${opTok.text}'`)

  // value
  let sign = 0
  if (peek().type === 'punct' && (peek().text === '+' || peek().text === '-')) sign = next().text === '+' ? 1 : -1
  const numTok = next()
  if (numTok.type !== 'number') throw fail(numTok, numTok.type === 'end' ? 'expected a number' : `expected a number, got '${numTok.text}'`)
  let value = numTok.value
  let relative = null
  const unitTok = peek()
  if (unitTok.type === 'punct' && unitTok.text === '%') {
    next()
    if (sign !== 0) relative = sign * value / 100
    else if (kind === 'fraction') value = value / 100
    else if (kind !== 'percent') throw fail(unitTok, `a percentage needs a sign, relative to --baseline: +${numTok.text}% or -${numTok.text}%`)
  } else if (unitTok.type === 'ident') {
    next()
    if (sign !== 0) throw fail(unitTok, `a signed value is relative to --baseline and ends with %, got '${unitTok.text}'`)
    if (kind !== 'time') throw fail(unitTok, `${metric} ${agg === 'p' ? `p(${percentile})` : agg} takes no unit, got '${unitTok.text}'`)
    const f = TIME_UNITS[unitTok.text]
    if (f === undefined) throw fail(unitTok, `unknown unit '${unitTok.text}' (us, ms, s)`)
    value *= f
  } else if (sign !== 0) {
    throw fail(unitTok, `expected '%' after a signed value (relative to --baseline)${unitTok.type === 'end' ? '' : `, got '${unitTok.text}'`}`)
  }
  const end = next()
  if (end.type !== 'end') throw fail(end)
  return { expr, metric, txn, agg, percentile, windowS, op: opTok.text, kind, value: relative === null ? value : null, relative }
}

function isAgg (text) {
  return AGGS.has(text) || /^p(50|75|90|95|99|999)$/.test(text)
}
