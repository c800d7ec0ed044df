// Server statistics against Debian's PostgreSQL 15 (pg_stat_bgwriter for checkpoints, the
// shared-memory statistics of 15, pg_stat_statements preloaded): a throw-away cluster of our own.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { openConnection } from '../../lib/db/connection.js'
import { takeSettingsSnapshot } from '../../lib/server/stats/settings-snapshot.js'
import { StatsSampler } from '../../lib/server/stats/sampler.js'
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
  assert.equal(run.stats.io, null, 'pg_stat_io exists only from 16')
  assert.equal(run.stats.missing.filter(m => m.includes('pg_stat_io')).length, 1)
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

test('PostgreSQL 15 with its log (log_checkpoints is on by default from 15): the CHECKPOINT\'s times come from the log', { skip: skip ?? false }, async (t) => {
  const run = await simulateRun({ target: cluster.target, admin, table: scratch.table, durationMs: 2500, serverLog: cluster.logFile })
  const ss = run.stats
  assert.equal(ss.checkpointSource, 'log', ss.missing.join('; '))
  const ckpt = ss.events.filter(e => e.kind.startsWith('checkpoint'))
  assert.deepEqual(ckpt.map(e => [e.kind, e.cause]), [['checkpoint-start', 'requested'], ['checkpoint-end', 'requested']], JSON.stringify(ss.events))
  // the log's times, mapped to run time, fall between sending the CHECKPOINT and its return
  // (the mapping errs early by the fastest reading's latency)
  assert.ok(ckpt[0].t >= run.checkpointAtS - 0.05 && ckpt[1].t <= run.checkpointDoneS + 0.05 && ckpt[0].t <= ckpt[1].t,
    `${JSON.stringify(ckpt)}, CHECKPOINT sent at ${run.checkpointAtS} s, returned at ${run.checkpointDoneS} s`)
  assert.equal(ss.deltas.checkpointsRequested, 1)
  t.diagnostic(`CHECKPOINT sent at ${run.checkpointAtS} s, returned at ${run.checkpointDoneS} s; log: ${ckpt.map(e => `${e.kind} ${e.t}`).join(', ')}`)
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

test('autovacuum and autoanalyze on a workload table become markers', { skip: skip ?? false }, async (t) => {
  await admin.simpleQuery('ALTER SYSTEM SET autovacuum_naptime = 1')
  await admin.simpleQuery('SELECT pg_reload_conf()')
  await admin.simpleQuery(`CREATE TABLE ss_av (id int PRIMARY KEY, v int) WITH (autovacuum_vacuum_threshold = 20, autovacuum_vacuum_scale_factor = 0,
      autovacuum_analyze_threshold = 20, autovacuum_analyze_scale_factor = 0);
    INSERT INTO ss_av SELECT g, 0 FROM generate_series(1, 200) g`)
  t.after(async () => {
    await admin.simpleQuery('ALTER SYSTEM RESET autovacuum_naptime')
    await admin.simpleQuery('SELECT pg_reload_conf()')
    await admin.simpleQuery('DROP TABLE IF EXISTS ss_av')
  })
  const sampler = new StatsSampler({ openConnection: () => openConnection(cluster.target), tables: ['ss_av'] })
  assert.equal(await sampler.start(), true)
  const w = await openConnection(cluster.target)
  const t0 = performance.now()
  let next = 0.25
  let k = 0
  // until both markers appear, at most 30 s: the reload, the stats flush, the launcher's visit and
  // a worker's fork come in turn, which a loaded machine can stretch well past the usual 2-4 s
  while (performance.now() - t0 < 30000) {
    await w.query('UPDATE ss_av SET v = v + 1 WHERE id = $1', [k++ % 200 + 1])
    const el = (performance.now() - t0) / 1000
    if (el >= next) {
      await sampler.sample(Math.round(el * 1000) / 1000)
      next += 0.25
      const kinds = new Set(sampler.events.map(e => e.kind))
      if (kinds.has('autovacuum') && kinds.has('autoanalyze')) break
    }
  }
  await w.close()
  const stats = await sampler.finish({ transactions: k })
  const av = stats.events.filter(e => e.kind === 'autovacuum')
  const aa = stats.events.filter(e => e.kind === 'autoanalyze')
  assert.ok(av.length >= 1 && av.every(e => e.table === 'ss_av'), JSON.stringify(stats.events))
  assert.ok(aa.length >= 1 && aa.every(e => e.table === 'ss_av'), JSON.stringify(stats.events))
  assert.ok(stats.tables.ss_av.autovacuumCount >= 1)
  // one marker per run of a worker, not more
  assert.ok(av.length <= stats.tables.ss_av.autovacuumCount + 1, `${av.length} markers, ${stats.tables.ss_av.autovacuumCount} runs`)
  t.diagnostic(`markers ${JSON.stringify(stats.events)}; autovacuumCount ${stats.tables.ss_av.autovacuumCount}, autoanalyzeCount ${stats.tables.ss_av.autoanalyzeCount}`)
})
