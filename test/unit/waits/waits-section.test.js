// The waits section from the sampler's counts: shares, server time per transaction, the time
// outside the server with its error, and the split at the type's p99.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { WaitTally, latencyBucket, bucketFloorUs, NO_LATENCY, NO_STATEMENT } from '../../../lib/waits/wait-tally.js'
import { waitsSection, timeFigures, splitAtP99, shares } from '../../../lib/waits/waits-section.js'

test('latency buckets are an eighth of a doubling, their floor at or below the latency', () => {
  for (const us of [1, 7, 100, 1000, 20000, 3.6e9]) {
    const b = latencyBucket(us)
    assert.ok(bucketFloorUs(b) <= us * (1 + 1e-12), `${us}`)
    assert.ok(bucketFloorUs(b + 1) > us, `${us}`)
  }
  assert.equal(latencyBucket(2000) - latencyBucket(1000), 8)
})

test('server time per transaction is samples x interval / transactions; outside is the mean latency minus it', () => {
  const f = timeFigures(100, 50, 20, { mean: 45, stddev: 10 })
  assert.equal(f.serverMs, 40)
  assert.equal(f.serverMsStderr, 4) // sqrt(100) * 20 / 50
  assert.equal(f.outsideMs, 5)
  // sqrt(4^2 + (10/sqrt(50))^2)
  assert.equal(f.outsideMsStderr, Math.round(Math.sqrt(16 + 100 / 50) * 1000) / 1000)
  assert.deepEqual(timeFigures(10, 0, 20, { mean: 1 }), { serverMs: null, serverMsStderr: null, outsideMs: null, outsideMsStderr: null })
})

test('the split at p99: buckets wholly above it are the slowest, unknown latencies in neither', () => {
  const events = new Map([
    ['CPU', new Map([[latencyBucket(1000), 5], [latencyBucket(50000), 1], [NO_LATENCY, 2]])],
    ['Lock:transactionid', new Map([[latencyBucket(60000), 3]])]
  ])
  const s = splitAtP99(events, 10)
  assert.deepEqual([...s.slow], [['CPU', 1], ['Lock:transactionid', 3]])
  assert.deepEqual([...s.typical], [['CPU', 5]])
  assert.deepEqual([...s.unknown], [['CPU', 2]])
  assert.equal(s.slowSamples, 4)
  // the bucket holding the p99 itself is not wholly above it
  const edge = splitAtP99(new Map([['CPU', new Map([[latencyBucket(10000), 1]])]]), 10)
  assert.equal(edge.slowSamples, 0)
})

test('shares are sorted largest first, ties by name', () => {
  assert.deepEqual(shares(new Map([['b', 1], ['a', 1], ['c', 2]]), 4), [
    { event: 'c', samples: 2, share: 0.5 }, { event: 'a', samples: 1, share: 0.25 }, { event: 'b', samples: 1, share: 0.25 }
  ])
})

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
