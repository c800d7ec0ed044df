// Threshold expressions, k6 style: `[scenario(NAME):] [stage(N):] [metric[{txn:name}][:]] agg[[window]] op value`,
// e.g. `p(99) < 50ms`, `latency{txn:new-order}: p(95) < +10%`, `tps > -5%`, `p(99)[30s] < 80ms`,
// `stage(3): p(99) < 50ms`, `scenario(olap): p(95) < 30s`.

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
 * @typedef {{ expr: string, scenario: string|null, stage: number|null, metric: string, txn: string|null, agg: string, percentile: number|null,
 *   windowS: number|null, op: '<'|'<='|'>'|'>='|'=='|'!=', kind: string, value: number|null,
 *   relative: number|null }} Threshold
 *   value: absolute limit in the kind's unit (ms for time, 0..1 for fraction); relative: +0.1 for +10 %;
 *   stage: the stage (from 1) the threshold is taken over, null for the whole run;
 *   scenario: the scenario of a scenario run whose figures it is taken over, null for the totals
 */

/**
 * Parse one threshold expression.
 * @param {string} expr
 * @returns {Threshold}
 * @throws {PgloadError} code THRESHOLD_SYNTAX, message with the column, caret line in the hint
 */
export function parseThreshold (expr) {
  if (typeof expr !== 'string') throw thresholdError(String(expr), 1, 'expected a string')
  const c = new TokenCursor(expr, lexThreshold(expr))
  const scenario = parseScenario(c)
  const stage = parseStage(c)
  const { metric: named, metricTok, txn } = parseMetric(c)
  const { agg, percentile } = parseAggregate(c, named)
  const metric = named === 'latency' && agg === 'rate' ? 'tps' : named // latency rate is throughput
  const kind = THRESHOLD_METRICS[named].aggs[agg]
  const windowS = parseWindow(c, metric, txn, metricTok)
  const opTok = c.next()
  if (opTok.type !== 'op') throw c.fail(opTok, opTok.type === 'end' ? 'expected an operator (< <= > >= == !=)' : `expected an operator (< <= > >= == !=), got '${opTok.text}'`)
  const { value, relative } = parseValue(c, { kind, metric, agg, percentile })
  const end = c.next()
  if (end.type !== 'end') throw c.fail(end)
  return { expr, scenario, stage, metric, txn, agg, percentile, windowS, op: opTok.text, kind, value, relative }
}

/**
 * An optional `scenario(NAME):` first: the threshold is taken over that scenario of a scenario run.
 * @param {TokenCursor} c
 * @returns {string|null}
 */
function parseScenario (c) {
  const first = c.peek()
  if (!(first.type === 'ident' && first.text.toLowerCase() === 'scenario')) return null
  c.next()
  c.expectPunct('(', "'(' after scenario, as in scenario(checkout):")
  const name = c.next()
  if (name.type !== 'ident') throw c.fail(name, 'expected a scenario name, as in scenario(checkout):')
  c.expectPunct(')')
  c.expectPunct(':', "':' after scenario(NAME)")
  return name.text
}

/**
 * An optional `stage(N):` first: the threshold is taken over stage N (from 1) of a staged run.
 * @param {TokenCursor} c
 * @returns {number|null}
 */
function parseStage (c) {
  const first = c.peek()
  if (!(first.type === 'ident' && first.text.toLowerCase() === 'stage')) return null
  c.next()
  c.expectPunct('(', "'(' after stage, as in stage(2):")
  const n = c.next()
  if (n.type !== 'number' || !Number.isInteger(n.value) || n.value < 1) throw c.fail(n, 'expected a stage number from 1, as in stage(2):')
  c.expectPunct(')')
  c.expectPunct(':', "':' after stage(N)")
  return n.value
}

/** The tokens of one expression, read left to right; errors point at a token's column. */
class TokenCursor {
  /** @param {string} expr @param {any[]} tokens */
  constructor (expr, tokens) {
    this.expr = expr
    this.tokens = tokens
    this.pos = 0
  }

  peek () { return this.tokens[this.pos] }
  next () { return this.tokens[this.pos++] }
  /** @param {string} ch */
  atPunct (ch) { const t = this.tokens[this.pos]; return t.type === 'punct' && t.text === ch }

  /** @param {any} tok @param {string} [msg] */
  fail (tok, msg) {
    return thresholdError(this.expr, tok.col, msg ?? (tok.type === 'end' ? 'unexpected end' : `unexpected '${tok.text}'`))
  }

  /** @param {string} ch @param {string} [what] */
  expectPunct (ch, what) {
    const t = this.next()
    if (t.type !== 'punct' || t.text !== ch) throw this.fail(t, `expected ${what ?? `'${ch}'`}${t.type === 'end' ? '' : `, got '${t.text}'`}`)
    return t
  }
}

/**
 * The metric and its `{txn:name}` tag, both optional (latency by default), and an optional ':'.
 * @param {TokenCursor} c
 */
function parseMetric (c) {
  const first = c.peek()
  if (first.type === 'end') throw c.fail(first, 'empty expression')
  if (first.type === 'ident' && METRIC_NAMES.has(first.text.toLowerCase())) {
    const metricTok = c.next()
    const metric = METRIC_NAMES.get(first.text.toLowerCase())
    let txn = null
    if (c.peek().type === 'tag') {
      const tag = c.next()
      if (!TAG_KEYS.has(tag.key)) throw thresholdError(c.expr, tag.col + 1, `unknown tag '${tag.key}' (use {txn:name})`)
      if (!THRESHOLD_METRICS[metric].txn) throw thresholdError(c.expr, tag.col, `${metric} has no per-transaction values`)
      txn = tag.tagValue
    }
    if (c.atPunct(':')) c.next()
    return { metric, metricTok, txn }
  }
  if (first.type === 'ident' && !isAgg(first.text)) {
    throw c.fail(first, `unknown metric or aggregate '${first.text}' (metrics: ${Object.keys(THRESHOLD_METRICS).join(', ')}; aggregates: avg, min, max, med, count, rate, p(N))`)
  }
  return { metric: 'latency', metricTok: null, txn: null }
}

/**
 * The aggregate: avg, min, max, med, count, rate, pNN or p(N); some metrics have a default.
 * @param {TokenCursor} c
 * @param {string} metric
 * @returns {{ agg: string, percentile: number | null }}
 */
function parseAggregate (c, metric) {
  const spec = THRESHOLD_METRICS[metric]
  const aggTok = c.peek()
  if (aggTok.type === 'ident' && isAgg(aggTok.text)) {
    c.next()
    const { agg, percentile } = aggregateOf(c, aggTok)
    if (agg === 'p' && !(percentile > 0 && percentile <= 100)) throw c.fail(aggTok, 'percentile must be > 0 and <= 100')
    if (!(agg in spec.aggs)) throw c.fail(aggTok, `${metric} does not take ${agg === 'p' ? `p(${percentile})` : agg} (takes ${Object.keys(spec.aggs).map(a => a === 'p' ? 'p(N)' : a).join(', ')})`)
    if (metric === 'lag' && agg === 'p' && !spec.percentiles.includes(percentile)) {
      throw c.fail(aggTok, `lag keeps only p(${spec.percentiles.join('), p(')})`)
    }
    return { agg, percentile }
  }
  if (aggTok.type === 'ident') throw c.fail(aggTok, `unknown aggregate '${aggTok.text}' (avg, min, max, med, count, rate, p(N))`)
  if (spec.defaultAgg) return { agg: spec.defaultAgg, percentile: null }
  if (aggTok.type === 'op' || aggTok.type === 'punct' || aggTok.type === 'end') {
    throw c.fail(aggTok, `expected an aggregate for ${metric}: ${Object.keys(spec.aggs).map(a => a === 'p' ? 'p(N)' : a).join(', ')}`)
  }
  throw c.fail(aggTok)
}

/**
 * One aggregate token read (pNN, or p followed by `(N)`, or a name).
 * @param {TokenCursor} c
 * @param {any} aggTok
 */
function aggregateOf (c, aggTok) {
  const short = /^p(\d+)$/.exec(aggTok.text)
  if (short) return { agg: 'p', percentile: short[1] === '999' ? 99.9 : Number(short[1]) }
  if (aggTok.text !== 'p') return { agg: aggTok.text, percentile: null }
  c.expectPunct('(')
  const n = c.next()
  if (n.type !== 'number') throw c.fail(n, 'expected a percentile number')
  const percentile = n.value
  if (!(percentile > 0 && percentile <= 100)) throw c.fail(n, `percentile must be > 0 and <= 100, got ${n.text}`)
  c.expectPunct(')')
  return { agg: 'p', percentile }
}

/**
 * An optional window `[30s]`: the value is taken over every window of that length.
 * @param {TokenCursor} c
 * @param {string} metric
 * @param {string | null} txn
 * @param {any} metricTok
 * @returns {number | null} seconds
 */
function parseWindow (c, metric, txn, metricTok) {
  if (!c.atPunct('[')) return null
  const open = c.next()
  if (!THRESHOLD_METRICS[metric].window) throw thresholdError(c.expr, open.col, `${metricTok?.text ?? metric} has no per-interval data for a window`)
  if (txn !== null && (metric === 'failed' || metric === 'skipped')) throw thresholdError(c.expr, open.col, `per-interval ${metric} counts are not kept per transaction type`)
  const n = c.next()
  if (n.type !== 'number') throw c.fail(n, 'expected a window length such as 30s')
  let factor = 1
  if (c.peek().type === 'ident') {
    const u = c.next()
    factor = WINDOW_UNITS[u.text]
    if (factor === undefined) throw c.fail(u, `unknown window unit '${u.text}' (ms, s, m, h)`)
  }
  const windowS = n.value * factor
  if (!(windowS > 0)) throw c.fail(n, 'window must be longer than 0')
  c.expectPunct(']', "']'")
  return windowS
}

/**
 * The limit: a number with a time unit or %, or a signed percentage relative to --baseline.
 * @param {TokenCursor} c
 * @param {{ kind: string, metric: string, agg: string, percentile: number | null }} of
 * @returns {{ value: number | null, relative: number | null }}
 */
function parseValue (c, { kind, metric, agg, percentile }) {
  let sign = 0
  if (c.atPunct('+') || c.atPunct('-')) sign = c.next().text === '+' ? 1 : -1
  const numTok = c.next()
  if (numTok.type !== 'number') throw c.fail(numTok, numTok.type === 'end' ? 'expected a number' : `expected a number, got '${numTok.text}'`)
  let value = numTok.value
  const unitTok = c.peek()
  if (unitTok.type === 'punct' && unitTok.text === '%') {
    c.next()
    if (sign !== 0) return { value: null, relative: sign * value / 100 }
    if (kind === 'fraction') value = value / 100
    else if (kind !== 'percent') throw c.fail(unitTok, `a percentage needs a sign, relative to --baseline: +${numTok.text}% or -${numTok.text}%`)
  } else if (unitTok.type === 'ident') {
    c.next()
    if (sign !== 0) throw c.fail(unitTok, `a signed value is relative to --baseline and ends with %, got '${unitTok.text}'`)
    if (kind !== 'time') throw c.fail(unitTok, `${metric} ${agg === 'p' ? `p(${percentile})` : agg} takes no unit, got '${unitTok.text}'`)
    const f = TIME_UNITS[unitTok.text]
    if (f === undefined) throw c.fail(unitTok, `unknown unit '${unitTok.text}' (us, ms, s)`)
    value *= f
  } else if (sign !== 0) {
    throw c.fail(unitTok, `expected '%' after a signed value (relative to --baseline)${unitTok.type === 'end' ? '' : `, got '${unitTok.text}'`}`)
  }
  return { value, relative: null }
}

function isAgg (text) {
  return AGGS.has(text) || /^p(50|75|90|95|99|999)$/.test(text)
}
