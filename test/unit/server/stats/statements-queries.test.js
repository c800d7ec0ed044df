import { test } from 'node:test'
import assert from 'node:assert/strict'
import { topStatements } from '../../../../lib/server/stats/statements-top.js'
import { statQueries, checkpointsQuery, MARKER } from '../../../../lib/server/stats/queries.js'

test('topStatements: deltas over the window, sorted by total time, new and reset entries count from zero', () => {
  const base = new Map([
    ['10/1/t', { query: 'UPDATE a', calls: 100, totalMs: 50, rows: 100 }],
    ['10/2/t', { query: 'SELECT b', calls: 10, totalMs: 5, rows: 10 }],
    ['10/3/t', { query: 'SELECT c', calls: 500, totalMs: 900, rows: 500 }]
  ])
  const end = new Map([
    ['10/1/t', { query: 'UPDATE a', calls: 300, totalMs: 250, rows: 300 }], // +200 calls, +200 ms
    ['10/2/t', { query: 'SELECT b', calls: 10, totalMs: 5, rows: 10 }], // idle: left out
    ['10/3/t', { query: 'SELECT c', calls: 20, totalMs: 30, rows: 20 }], // reset: counts from zero
    ['10/4/t', { query: 'INSERT d', calls: 4, totalMs: 400, rows: 4 }] // new
  ])
  const top = topStatements(base, end, 2)
  assert.deepEqual(top, [
    { query: 'INSERT d', calls: 4, totalMs: 400, meanMs: 100, rows: 4 },
    { query: 'UPDATE a', calls: 200, totalMs: 200, meanMs: 1, rows: 200 }
  ])
  assert.equal(topStatements(base, end).length, 3)
})

test('checkpoint counters come from pg_stat_bgwriter before 17, pg_stat_checkpointer from 17, num_done from 18', () => {
  assert.match(checkpointsQuery(130000), /checkpoints_timed AS timed, checkpoints_req AS requested, NULL::bigint AS done,\s+buffers_checkpoint AS buffers_written.*FROM pg_stat_bgwriter/s)
  assert.match(checkpointsQuery(160004), /FROM pg_stat_bgwriter$/)
  assert.match(checkpointsQuery(170002), /c\.num_timed AS timed.*NULL::bigint AS done.*FROM pg_stat_checkpointer c, pg_stat_bgwriter b/s)
  assert.match(checkpointsQuery(180004), /c\.num_done AS done/)
})

test('pg_stat_wal only from 14; table statements only with tables; every statement carries the marker', () => {
  assert.equal(statQueries(130011).wal, undefined)
  assert.match(statQueries(140000).wal, /FROM pg_stat_wal/)
  assert.equal(statQueries(180000, []).tableCounts, undefined)
  const q = statQueries(150004, ['16384', '16390'])
  assert.match(q.tableCounts, /ARRAY\[16384, 16390\]::oid\[\]/)
  assert.match(q.autovacuum, /p.relid IN \(16384, 16390\)/)
  for (const text of Object.values(q)) assert.ok(text.includes(MARKER), text)
  assert.throws(() => statQueries(150004, ['1; DROP TABLE x']), /not an oid/)
})
