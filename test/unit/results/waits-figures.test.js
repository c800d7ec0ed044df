// The waits section's figures from its counts: buckets, shares, server time per transaction, the
// time outside the server with its error, the split at the type's p99, and counts that add up.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { latencyBucket, bucketFloorUs, NO_LATENCY, timeFigures, splitAtP99, shares, addWaitCounts, waitTypeFigures } from '../../../lib/results/waits-figures.js'

test('latency buckets are an eighth of a doubling, their floor at or below the latency', () => {
  for (const us of [1, 7, 100, 1000, 20000, 3.6e9]) {
    const b = latencyBucket(us)
    assert.ok(bucketFloorUs(b) <= us * (1 + 1e-12), `${us}`)
    assert.ok(bucketFloorUs(b + 1) > us, `${us}`)
  }
  assert.equal(latencyBucket(2000) - latencyBucket(1000), 8)
})

test('server time per transaction is samples x interval / transactions; outside is the mean latency minus it', () => {
  const f = timeFigures(2000, 100, 50, { mean: 45, stddev: 10 })
  assert.equal(f.serverMs, 40)
  assert.equal(f.serverMsStderr, 4) // sqrt(100) * 20 / 50
  assert.equal(f.outsideMs, 5)
  // sqrt(4^2 + (10/sqrt(50))^2)
  assert.equal(f.outsideMsStderr, Math.round(Math.sqrt(16 + 100 / 50) * 1000) / 1000)
  assert.deepEqual(timeFigures(200, 10, 0, { mean: 1 }), { serverMs: null, serverMsStderr: null, outsideMs: null, outsideMsStderr: null })
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

test('counts of partitions add up; the figures from them are the whole run\'s', () => {
  const a = { sampledMs: 100, buckets: { CPU: [[80, 3], [NO_LATENCY, 1]] }, statements: { 1: { CPU: 4 } } }
  const b = { sampledMs: 60, buckets: { CPU: [[80, 1]], 'IO:WALSync': [[100, 2]] }, statements: { 1: { CPU: 1 }, 2: { 'IO:WALSync': 2 } } }
  const sum = addWaitCounts([a, b])
  assert.deepEqual(sum, { sampledMs: 160, buckets: { CPU: [[NO_LATENCY, 1], [80, 4]], 'IO:WALSync': [[100, 2]] }, statements: { 1: { CPU: 5 }, 2: { 'IO:WALSync': 2 } } })
  const f = waitTypeFigures(sum, { count: 8, latencyMs: { mean: 30, stddev: 0, p99: bucketFloorUs(90) / 1000 } }, { 1: 'UPDATE', 2: 'COMMIT' })
  assert.equal(f.samples, 7)
  assert.equal(f.serverMs, 20)
  assert.deepEqual(f.slow.events, [{ event: 'IO:WALSync', samples: 2, share: 1 }])
  assert.equal(f.typical.samples, 4)
  assert.equal(f.unknownLatency, 1)
  assert.deepEqual(f.statements.map((s) => [s.index, s.name, s.samples]), [[1, 'UPDATE', 5], [2, 'COMMIT', 2]])
})
