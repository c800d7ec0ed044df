import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parseThreshold } from '../../../../lib/compare/thresholds/parser.js'

const VALID = [
  // expr, metric, txn, agg, percentile, windowS, op, value (canonical), relative
  ['p(99) < 50ms', 'latency', null, 'p', 99, null, '<', 50, null],
  ['p(99)<50', 'latency', null, 'p', 99, null, '<', 50, null],
  ['p(99.9) <= 2s', 'latency', null, 'p', 99.9, null, '<=', 2000, null],
  ['p99 < 800us', 'latency', null, 'p', 99, null, '<', 0.8, null],
  ['p999 < 8', 'latency', null, 'p', 99.9, null, '<', 8, null],
  ['avg < 1.5', 'latency', null, 'avg', null, null, '<', 1.5, null],
  ['latency: med < 3ms', 'latency', null, 'med', null, null, '<', 3, null],
  ['latency{txn:new-order}: p(95) < 5s', 'latency', 'new-order', 'p', 95, null, '<', 5000, null],
  ['latency{txn:new-order}:p(99)<50', 'latency', 'new-order', 'p', 99, null, '<', 50, null],
  ['latency{txn:my-script.sql} max < 100', 'latency', 'my-script.sql', 'max', null, null, '<', 100, null],
  ["latency{type:'select-only'}: min > 0.01", 'latency', 'select-only', 'min', null, null, '>', 0.01, null],
  ['latency: count >= 1000', 'latency', null, 'count', null, null, '>=', 1000, null],
  ['latency: rate > 100', 'tps', null, 'rate', null, null, '>', 100, null],
  ['p(99) < +10%', 'latency', null, 'p', 99, null, '<', null, 0.1],
  ['tps > -5%', 'tps', null, 'rate', null, null, '>', null, -0.05],
  ['tps > 900', 'tps', null, 'rate', null, null, '>', 900, null],
  ['tps: min > 800', 'tps', null, 'min', null, null, '>', 800, null],
  ['tps{txn:payment}[10s] > 1', 'tps', 'payment', 'rate', null, 10, '>', 1, null],
  ['p(99)[30s] < 50ms', 'latency', null, 'p', 99, 30, '<', 50, null],
  ['p(99)[1m] < +20%', 'latency', null, 'p', 99, 60, '<', null, 0.2],
  ['failed: rate < 1%', 'failed', null, 'rate', null, null, '<', 0.01, null],
  ['failed: rate < 0.001', 'failed', null, 'rate', null, null, '<', 0.001, null],
  ['failed == 0', 'failed', null, 'count', null, null, '==', 0, null],
  ['skipped[30s] != 5', 'skipped', null, 'count', null, 30, '!=', 5, null],
  ['lag: p(99) < 2ms', 'lag', null, 'p', 99, null, '<', 2, null],
  ['tpmC > 12000', 'tpmC', null, 'value', null, null, '>', 12000, null],
  ['TPMC > -3%', 'tpmC', null, 'value', null, null, '>', null, -0.03],
  ['efficiency >= 90%', 'efficiency', null, 'value', null, null, '>=', 90, null]
]

test('valid threshold expressions', () => {
  for (const [expr, metric, txn, agg, percentile, windowS, op, value, relative] of VALID) {
    const t = parseThreshold(expr)
    assert.deepEqual({ metric: t.metric, txn: t.txn, agg: t.agg, percentile: t.percentile, windowS: t.windowS, op: t.op, value: t.value, relative: t.relative },
      { metric, txn, agg, percentile, windowS, op, value, relative }, expr)
    assert.equal(t.expr, expr)
  }
})

const INVALID = [
  // expr, column, message fragment
  ['p(99) < 5 0ms', 11, "unexpected '0'"],
  ['p(99 < 5', 6, "expected ')'"],
  ['p(99) <', 8, 'expected a number'],
  ['p(99) 50ms', 7, 'expected an operator'],
  ['p(99) = 5', 7, "unexpected '='"],
  ['foo < 3', 1, "unknown metric or aggregate 'foo'"],
  ['latency: bogus < 3', 10, "unknown aggregate 'bogus'"],
  ['latency < 5', 9, 'expected an aggregate'],
  ['p(0) < 5', 3, 'percentile must be > 0'],
  ['p(101) < 5', 3, 'percentile must be > 0'],
  ['tps < 10ms', 9, 'takes no unit'],
  ['p(99) < 10 parsecs', 12, "unknown unit 'parsecs'"],
  ['p99 < +10ms', 10, 'ends with %'],
  ['p99 < +10', 10, "expected '%'"],
  ['p(99) < 10%', 11, 'needs a sign'],
  ['failed: p(99) < 3', 9, 'failed does not take p(99)'],
  ['lag: p(97) < 3', 6, 'lag keeps only'],
  ['lag[30s]: p(99) < 3', 4, 'expected an aggregate for lag'],
  ['lag: p(99)[30s] < 3', 11, 'no per-interval data'],
  ['failed{txn:x}[30s] < 3', 14, 'not kept per transaction type'],
  ['p(99)[30x] < 3', 9, "unknown window unit 'x'"],
  ['p(99)[0s] < 3', 7, 'window must be longer than 0'],
  ['p(99)[30s < 3', 11, "expected ']'"],
  ['latency{txn:a < 3', 8, "unclosed '{'"],
  ['latency{foo:a} p99 < 3', 9, "unknown tag 'foo'"],
  ['tpmC{txn:x} > 3', 5, 'no per-transaction values'],
  ['p(99) < 5 # x', 11, "unexpected '#'"],
  ['', 1, 'empty expression'],
  ['p(99) < 5 5', 11, "unexpected '5'"]
]

test('invalid threshold expressions: message, column and caret', () => {
  for (const [expr, col, fragment] of INVALID) {
    assert.throws(() => parseThreshold(expr), (err) => {
      assert.equal(err.name, 'PgloadError', expr)
      assert.equal(err.code, 'THRESHOLD_SYNTAX', expr)
      assert.equal(err.column, col, `${expr}: ${err.message}`)
      assert.ok(err.message.startsWith(`--threshold '${expr}': `), err.message)
      assert.ok(err.message.includes(fragment), `${expr}: ${err.message}`)
      assert.ok(err.message.endsWith(`at column ${col}`), err.message)
      const [line, caret] = err.hint.split('\n')
      assert.equal(line, expr)
      assert.equal(caret.length - 'hint: '.length, col, 'caret under the column after "hint: "')
      assert.equal(err.exitCode, 1)
      return true
    })
  }
})

test('the example from the manual', () => {
  assert.throws(() => parseThreshold('p(99) < 5 0ms'), { message: "--threshold 'p(99) < 5 0ms': unexpected '0' at column 11" })
})

test('scenario(NAME): first, before stage(N):', () => {
  assert.equal(parseThreshold('scenario(olap): p(95) < 30s').scenario, 'olap')
  assert.equal(parseThreshold('scenario(olap): p(95) < 30s').value, 30000)
  const both = parseThreshold('scenario(check_out): stage(2): tps > 10')
  assert.deepEqual([both.scenario, both.stage, both.metric], ['check_out', 2, 'tps'])
  assert.equal(parseThreshold('p(95) < 30s').scenario, null)
  assert.throws(() => parseThreshold('scenario(3): p(95) < 30s'), /expected a scenario name/)
  assert.throws(() => parseThreshold('scenario(olap) p(95) < 30s'), /':' after scenario\(NAME\)/)
})
