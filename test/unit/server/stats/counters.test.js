import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  parseCounter, counterDelta, ratePerS, computeDeltas, perTransaction, tableDeltas, cacheHitRatio, rowCounters, DATABASE_COUNTERS
} from '../../../../lib/server/stats/counters.js'

const db = (o) => Object.fromEntries(DATABASE_COUNTERS.map(([k]) => [k, BigInt(o[k] ?? 0)]))

test('parseCounter reads bigint and numeric text, keeps null', () => {
  assert.equal(parseCounter('123'), 123n)
  assert.equal(parseCounter('18446744073709551615'), 18446744073709551615n)
  assert.equal(parseCounter('42.000'), 42n)
  assert.equal(parseCounter(null), null)
  assert.equal(parseCounter('x'), null)
})

test('counterDelta is null for missing values and for counters that went backwards (reset)', () => {
  assert.equal(counterDelta(10n, 25n), 15)
  assert.equal(counterDelta(null, 25n), null)
  assert.equal(counterDelta(10n, undefined), null)
  assert.equal(counterDelta(30n, 25n), null)
  // beyond 2^53 the difference is still exact
  assert.equal(counterDelta(2n ** 60n, 2n ** 60n + 7n), 7)
})

test('ratePerS divides by elapsed seconds and rounds to 3 decimals', () => {
  assert.equal(ratePerS(1000, 0.5), 2000)
  assert.equal(ratePerS(1, 3), 0.333)
  assert.equal(ratePerS(null, 1), null)
  assert.equal(ratePerS(5, 0), null)
})

test('computeDeltas subtracts the sampler\'s own transactions and derives the cache hit ratio', () => {
  const base = { db: db({ xactCommit: 100, xactRollback: 1, blksRead: 10, blksHit: 90, tempBytes: 0 }), walLsn: 1000n, wal: { walRecords: 5n, walFpi: 0n }, checkpoints: { timed: 3n, requested: 1n, done: null, buffersWritten: 50n, buffersClean: 0n } }
  const end = { db: db({ xactCommit: 1120, xactRollback: 4, blksRead: 30, blksHit: 1070, tempBytes: 8192 }), walLsn: 501000n, wal: { walRecords: 905n, walFpi: 2n }, checkpoints: { timed: 3n, requested: 2n, done: null, buffersWritten: 150n, buffersClean: 5n } }
  const d = computeDeltas(base, end, { commits: 20, rollbacks: 1 })
  assert.equal(d.xactCommit, 1000)
  assert.equal(d.xactRollback, 2)
  assert.equal(d.blksRead, 20)
  assert.equal(d.blksHit, 980)
  assert.equal(d.cacheHitRatio, 0.98)
  assert.equal(d.walBytes, 500000)
  assert.equal(d.walRecords, 900)
  assert.equal(d.checkpointsTimed, 0)
  assert.equal(d.checkpointsRequested, 1)
  assert.equal(d.checkpointsDone, null)
  assert.equal(d.buffersWritten, 100)
  assert.equal(d.tempBytes, 8192)
})

test('computeDeltas leaves nulls where a view could not be read', () => {
  const d = computeDeltas({ db: null, walLsn: null }, { db: null, walLsn: 5n })
  assert.equal(d.xactCommit, null)
  assert.equal(d.walBytes, null)
  assert.equal(d.cacheHitRatio, null)
})

test('cacheHitRatio is null when no block was touched', () => {
  assert.equal(cacheHitRatio(0, 0), null)
  assert.equal(cacheHitRatio(3, 1), 0.75)
})

test('perTransaction divides by the run\'s transactions: blocks read alone and read + hit apart', () => {
  const p = perTransaction({ walBytes: 2500, blksRead: 10, blksHit: 290, tupReturned: 100, tupFetched: 50, tupInserted: 10, tupUpdated: 30, tupDeleted: 10 }, 10)
  assert.deepEqual(p, { walBytes: 250, blocksRead: 1, blocks: 30, tuples: 20 })
  assert.deepEqual(perTransaction({ walBytes: 2500 }, 0), { walBytes: null, blocksRead: null, blocks: null, tuples: null })
  assert.equal(perTransaction({ walBytes: null, blksRead: 1, blksHit: null }, 5).blocks, null)
})

test('tableDeltas: counters as deltas, gauges at the end, unknown tables null', () => {
  const base = { t1: { seqScan: 1n, idxScan: 10n, nTupHotUpd: 0n, autovacuumCount: 2n } }
  const end = { t1: { seqScan: 1n, idxScan: 110n, nTupHotUpd: 40n, autovacuumCount: 3n, nDeadTup: 7n, sizeBytes: 8192n, indexesSizeBytes: 16384n } }
  const t = tableDeltas(base, end, ['t1', 'gone'])
  assert.equal(t.t1.seqScan, 0)
  assert.equal(t.t1.idxScan, 100)
  assert.equal(t.t1.nTupHotUpd, 40)
  assert.equal(t.t1.autovacuumCount, 1)
  assert.equal(t.t1.nDeadTup, 7)
  assert.equal(t.t1.sizeBytes, 8192)
  assert.equal(t.t1.indexesSizeBytes, 16384)
  assert.equal(t.t1.heapBlksRead, null)
  assert.equal(t.gone.idxScan, null)
  assert.equal(t.gone.sizeBytes, null)
})

test('rowCounters maps columns by name, absent columns to null', () => {
  const r = rowCounters(['xact_commit', 'blks_read'], ['5', null], [['xactCommit', 'xact_commit'], ['blksRead', 'blks_read'], ['x', 'nope']])
  assert.deepEqual(r, { xactCommit: 5n, blksRead: null, x: null })
})
