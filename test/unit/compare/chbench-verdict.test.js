// compare of CH-benCHmark runs: a query run once per side gets no interval (resampling one run's
// seconds would find the same time every time and call any change significant), and a checked
// answer that differs is reported as such.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { compareRuns } from '../../../lib/compare/verdict.js'
import { formatCompareText } from '../../../lib/compare/format.js'
import { queryVerdictLine } from '../../../lib/compare/answers.js'

const recorded = () => JSON.parse(readFileSync(new URL('../../fixtures/results/recorded-chbench-k1.json', import.meta.url), 'utf8'))

test('a query that ran once per side has no interval and no verdict, however far its times lie apart', () => {
  const a = recorded()
  const b = recorded()
  assert.equal(a.transactions.q5.count, 1)
  for (const k of ['p50', 'p95', 'p99', 'max']) b.transactions.q5.latencyMs[k] *= 3
  const v = compareRuns([a], [b])
  const rows = v.rows.filter((r) => r.txn === 'q5')
  assert.equal(rows.length, 4)
  for (const r of rows) {
    assert.equal(r.verdict, '~')
    assert.equal(r.p, null)
    assert.match(r.note, /^1 and 1 executions: too few for an interval from one run/)
  }
  // TPC-C's types, run a thousand times, keep their intervals
  assert.ok(v.rows.find((r) => r.txn === 'new-order' && r.metric === 'p50').p !== null)
})

test('a checked answer that differs is said, one not checked on a side is not', () => {
  const a = recorded()
  const b = recorded()
  a.chbench.perQuery.q1.answer = { checksum: 'aaaa', agreed: 1, differing: [], checked: true }
  b.chbench.perQuery.q1.answer = { checksum: 'bbbb', agreed: 1, differing: [], checked: true }
  a.chbench.perQuery.q4.answer = { checksum: 'aaaa', agreed: 1, differing: [], checked: false }
  b.chbench.perQuery.q4.answer = { checksum: 'bbbb', agreed: 1, differing: [], checked: true }
  const v = compareRuns([a], [b])
  assert.deepEqual(v.answers, [{ query: 'q1', a: ['aaaa'], b: ['bbbb'] }])
  assert.match(formatCompareText(v), /^answer changed: q1 \(checksum A aaaa, B bbbb\): the query returned other rows$/m)
})

test('the queries whose time differs are named in one line, each once', () => {
  const row = (txn, metric, verdict, estimate) => ({ id: `${txn}:${metric}`, txn, metric, verdict, change: { estimate } })
  const v = { rows: [row('new-order', 'p50', 'worse', 0.1), row('q19', 'p50', 'better', -0.334), row('q19', 'p95', 'better', -0.3), row('q5', 'p95', 'worse', 0.5), row('q7', 'p50', '~', 0.2)] }
  assert.equal(queryVerdictLine(v), 'analytic queries whose time differs: q19 faster (p50 -33.4%), q5 slower (p95 +50.0%)')
  assert.equal(queryVerdictLine({ rows: [row('q7', 'p50', '~', 0.2)] }), null)
})
