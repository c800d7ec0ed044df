// A capacity step with failed transactions (a restart mid-step, lost connections): the step
// table has a failed column and names the failures' main kind; the answer blames the failures,
// not the server's capacity, for the step's latency.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { judgeStep, commonestFailure, failedWords } from '../../../lib/capacity/step.js'
import { capacityAnswer } from '../../../lib/capacity/answer.js'
import { formatStepHeader, formatStepRow } from '../../../lib/capacity/format.js'
import { stepRecord } from './step-record.js'

const RULES = { until: [], behindMargin: 0.05 }
const CAP = { stepS: 10, settleS: 2, behindMargin: 0.05, until: [{ expr: 'p(99) < 20ms' }] }

/** A step's measured part as the controller hands it: a results-like view. */
function view ({ transactions, failed, errors }) {
  const latencyMs = { p50: 1, p90: 2, p99: 41.2, max: 900 }
  return { summary: { transactions, failed, errors, latencyMs, lagMs: { p99: 0.1 } }, transactions: {}, intervals: [] }
}

const step = (index, offeredRate, held, extra = {}) => stepRecord(index, offeredRate, held, held ? extra : { why: ['p(99) < 20ms: p(99) 41.2 ms'], ...extra })

test('the commonest failure and its words: lost connections, mostly or all', () => {
  assert.deepEqual(commonestFailure({ '57P01': 9, 40001: 2 }), { code: '57P01', count: 9, kind: 'connection' })
  assert.equal(commonestFailure({}), null)
  assert.equal(failedWords(11, { code: '57P01', count: 9, kind: 'connection' }), '11 transactions failed (mostly lost connections: 57P01)')
  assert.equal(failedWords(3, { code: 'CONNECTION_LOST', count: 3, kind: 'connection' }), '3 transactions failed (lost connections: CONNECTION_LOST)')
  assert.equal(failedWords(1, { code: '23505', count: 1, kind: 'other' }), '1 transaction failed (errors: 23505)')
})

test('a step that failed with failed transactions says so first, and keeps their main kind', () => {
  const s = judgeStep(view({ transactions: 850, failed: 40, errors: {} }),
    { index: 2, phase: 'geometric', offeredRate: 1000, startS: 12, fromS: 14, toS: 15, dropped: 0, scheduled: 1000, driver: null, errors: { '57P01': 30, CONNECTION_LOST: 10 } }, RULES)
  assert.equal(s.held, false)
  assert.equal(s.failed, 40)
  assert.deepEqual(s.failedMost, { code: '57P01', count: 30, kind: 'connection' })
  assert.equal(s.why[0], '40 transactions failed (mostly lost connections: 57P01)')
  assert.match(s.why[1], /^fell behind by 15 %/)
})

test('the step table has a failed column: the count, and the kind in the verdict', () => {
  const header = formatStepHeader(CAP).split('\n')[1]
  assert.match(header, /max ms\s+failed\s+dropped$/)
  const failing = step(2, 4000, false, { failed: 40, failedMost: { code: '57P01', count: 30, kind: 'connection' }, why: ['40 transactions failed (mostly lost connections: 57P01)', 'p(99) < 20ms: p(99) 41.2 ms'] })
  const row = formatStepRow(failing)
  const cells = row.trim().split(/\s{2,}/)
  assert.deepEqual(cells.slice(0, 9), ['2', '4,000', '4,000', '1', '2', '41.2', '50', '40', '0'])
  assert.match(row, /FAILED: 40 transactions failed \(mostly lost connections: 57P01\); p\(99\) < 20ms/)
  const held = formatStepRow(step(1, 2000, true, { failed: 2, failedMost: { code: '40001', count: 2, kind: 'retry' } }))
  assert.match(held, /\s2\s+0\s+held, 2 transactions failed \(serialization failures and deadlocks: 40001\)$/)
  assert.match(formatStepRow(step(1, 2000, true)), /\s0\s+0\s+held$/)
})

test('the answer blames a step\'s failed transactions, not the server, for its latency', () => {
  const a = capacityAnswer([step(1, 2000, true), step(2, 4000, false, { failed: 40, failedMost: { code: '57P01', count: 40, kind: 'connection' } })])
  assert.equal(a.limit, 'failures')
  assert.equal(a.rate, 2000)
  assert.equal(a.nextRate, 4000)
  assert.equal(a.line, 'capacity: not found: the server sustained at least 2,000 tps with p(99) 17.9 ms; at 4,000 tps 40 transactions failed (lost connections: 57P01), so its p(99) 41.2 ms says nothing of the server\'s capacity: run again when the server is stable')
  assert.doesNotMatch(a.line, /tps sustained with .* \(next step/)
  // without failures the server is the limit, as before
  assert.equal(capacityAnswer([step(1, 2000, true), step(2, 4000, false)]).limit, 'server')
  const none = capacityAnswer([step(1, 2000, false, { failed: 5, failedMost: { code: 'CONNECTION_LOST', count: 5, kind: 'connection' } })])
  assert.equal(none.limit, 'failures')
  assert.match(none.line, /^capacity: not found: at 2,000 tps 5 transactions failed \(lost connections: CONNECTION_LOST\)/)
})
