// The waits section from the sampler's tally: per type its counts and the figures derived from them.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { WaitTally, latencyBucket, NO_LATENCY, NO_STATEMENT } from '../../../lib/waits/wait-tally.js'
import { waitsSection } from '../../../lib/waits/waits-section.js'

test('a section per type and statement from a tally', () => {
  const tally = new WaitTally(2)
  for (let i = 0; i < 8; i++) tally.add(0, 1, 'Lock:transactionid', latencyBucket(30000))
  tally.add(0, 2, 'Timeout:PgSleep', latencyBucket(30000))
  tally.add(0, NO_STATEMENT, 'CPU', NO_LATENCY)
  tally.idle = 4
  tally.moved = 1
  const w = waitsSection(tally, {
    typeNames: ['a', 'b'],
    statementNames: [[null, 'UPDATE t', 'SELECT pg_sleep(0.02)']],
    transactions: { a: { count: 4, failed: 0, latencyMs: { mean: 60, stddev: 0, p99: 100 } }, b: { count: 3, latencyMs: { mean: 1 } } },
    hz: 50,
    ticks: { done: 100, skipped: 2, failed: 0 },
    windowMs: 2000,
    pgWaitSampling: false
  })
  assert.equal(w.intervalMs, 20)
  assert.deepEqual(w.samples, { total: 15, inTransaction: 10, idle: 4, outside: 0, moved: 1, hidden: 0, gone: 0 })
  assert.deepEqual(Object.keys(w.types), ['a'], 'a type without samples has no entry')
  const a = w.types.a
  assert.equal(a.samples, 10)
  assert.deepEqual(a.events[0], { event: 'Lock:transactionid', samples: 8, share: 0.8 })
  assert.equal(a.serverMs, 50) // 10 samples x 20 ms / 4 transactions
  assert.equal(a.outsideMs, 10)
  assert.deepEqual(a.statements.map((s) => [s.index, s.name, s.samples]), [[-1, null, 1], [1, 'UPDATE t', 8], [2, 'SELECT pg_sleep(0.02)', 1]])
  assert.equal(a.slow.samples, 0)
  assert.equal(a.typical.samples, 9)
  assert.equal(a.unknownLatency, 1)
})
