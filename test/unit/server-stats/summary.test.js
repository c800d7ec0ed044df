import { test } from 'node:test'
import assert from 'node:assert/strict'
import { formatServerStatsSummary } from '../../../lib/server/stats-sampler.js'

const stats = {
  deltas: {
    xactCommit: 1000,
    blksRead: 1234,
    blksHit: 98766,
    walBytes: 52428800,
    cacheHitRatio: 0.98766,
    checkpointsTimed: 0,
    checkpointsRequested: 1,
    tempBytes: 0,
    tempFiles: 0,
    deadlocks: 2
  },
  perTransaction: { walBytes: 52428.8, blocks: 100, tuples: 12 },
  events: [{ t: 12.4, kind: 'checkpoint-start', cause: 'requested' }, { t: 13, kind: 'checkpoint-end' }, { t: 20, kind: 'autovacuum', table: 'pgbench_accounts' }],
  missing: []
}

test('summary lines name WAL MB and bytes/txn, cache hit ratio, blocks read, checkpoints, temp bytes, deadlocks', () => {
  const s = formatServerStatsSummary(stats)
  const lines = s.split('\n')
  assert.equal(lines[0], 'server: WAL 50.0 MB (52,429 bytes/txn), cache hit 98.77%, blocks read 1,234 (100.0 blocks/txn)')
  assert.equal(lines[1], '        checkpoints 1 (0 timed, 1 requested) started at 12s, temp 0.0 MB in 0 files, deadlocks 2')
  assert.equal(lines[2], '        autovacuum pgbench_accounts at 20s')
  assert.equal(lines.length, 3)
})

test('summary says n/a for what could not be read, and points at missing', () => {
  const s = formatServerStatsSummary({
    deltas: { walBytes: null, cacheHitRatio: null, blksRead: null, checkpointsTimed: null, checkpointsRequested: null, tempBytes: null, deadlocks: null },
    perTransaction: { walBytes: null, blocks: null },
    events: [],
    missing: ['a', 'b']
  })
  assert.match(s, /^server: WAL n\/a, cache hit n\/a, blocks read n\/a$/m)
  assert.match(s, /checkpoints n\/a, temp n\/a, deadlocks n\/a/)
  assert.match(s, /\(2 statistics not available: see serverStats.missing\)/)
})

test('no deltas, no summary', () => {
  assert.equal(formatServerStatsSummary(undefined), '')
  assert.equal(formatServerStatsSummary({}), '')
})
