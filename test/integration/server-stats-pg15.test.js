// Server statistics against Debian's PostgreSQL 15 (pg_stat_bgwriter for checkpoints, the
// shared-memory statistics of 15, pg_stat_statements preloaded): a throw-away cluster of our own.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { openConnection } from '../../lib/db/connection.js'
import { takeSettingsSnapshot } from '../../lib/server/settings-snapshot.js'
import { PG15_BIN, pg15Available, startLocalCluster, prepareScratch, simulateRun, checkRunStats } from './server-stats-scenario.js'

const skip = pg15Available()
let cluster, admin, scratch

before(async () => {
  if (skip) return
  cluster = await startLocalCluster(PG15_BIN)
  admin = await openConnection(cluster.target)
  await admin.simpleQuery('CREATE EXTENSION pg_stat_statements')
  scratch = await prepareScratch(admin, cluster.target)
})

after(async () => {
  await admin?.close()
  await cluster?.stop()
})

test('PostgreSQL 15 as superuser: deltas, CHECKPOINT marker, pg_stat_statements top', { skip: skip ?? false }, async (t) => {
  const run = await simulateRun({ target: cluster.target, admin, table: scratch.table, durationMs: 2500 })
  checkRunStats(assert, run, { table: scratch.table, lowPrivilege: false })
  assert.equal(run.stats.deltas.checkpointsDone, null, 'num_done exists only from 18')
  assert.ok(run.stats.deltas.walRecords > run.commits, 'pg_stat_wal is read on 15')
  const st = run.stats.statements
  assert.equal(st.available, true)
  const update = st.top.find(s => s.query.startsWith(`UPDATE ${scratch.table}`) && s.calls >= run.commits)
  assert.ok(update, JSON.stringify(st.top))
  assert.equal(update.calls, run.commits)
  assert.ok(update.totalMs > 0 && update.meanMs > 0 && update.rows === run.commits)
  assert.ok(st.top.every(s => !s.query.includes('pgload-stats')), 'the sampler\'s own statements are left out')
  t.diagnostic(`commits ${run.commits}, xactCommit ${run.stats.deltas.xactCommit}, WAL ${run.stats.deltas.walBytes} B, ` +
    `sample ${run.stats.sampler.meanMs} ms mean, ${run.stats.sampler.maxMs} ms max over ${run.stats.sampler.samples}`)
})

test('PostgreSQL 15 as a role without pg_read_all_stats: completes, lists what is hidden', { skip: skip ?? false }, async () => {
  const run = await simulateRun({ target: scratch.lowTarget, admin, table: scratch.table, durationMs: 2500 })
  checkRunStats(assert, run, { table: scratch.table, lowPrivilege: true })
  // its own statements are visible; other roles' are counted as hidden
  assert.equal(run.stats.statements.available, true)
  assert.ok(run.stats.statements.top.some(s => s.query.startsWith(`UPDATE ${scratch.table}`)))
  assert.ok(run.stats.missing.some(m => /pg_stat_statements: \d+ statements of other roles are hidden/.test(m)))
})

test('PostgreSQL 15 settings snapshot', { skip: skip ?? false }, async () => {
  const snap = await takeSettingsSnapshot(admin, { tables: [scratch.table] })
  assert.match(snap.serverVersion, /^15/)
  assert.ok(snap.serverVersionNum >= 150000 && snap.serverVersionNum < 160000)
  assert.equal(snap.settings.shared_preload_libraries.value, 'pg_stat_statements')
  assert.equal(snap.settings.shared_preload_libraries.context, 'postmaster')
  assert.equal(snap.settings.max_connections.value, '30')
  assert.ok(snap.tables[scratch.table].totalBytes >= snap.tables[scratch.table].sizeBytes + snap.tables[scratch.table].indexesSizeBytes)
  assert.deepEqual(snap.missing, [])
})
