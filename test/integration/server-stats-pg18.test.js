// Server statistics against the test server (embedded PostgreSQL 18): a simulated run as the
// superuser and as a role without pg_read_all_stats, and the settings snapshot.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { getTestServer } from '../helpers/server.js'
import { openConnection } from '../../lib/db/connection.js'
import { takeSettingsSnapshot } from '../../lib/server/stats/settings-snapshot.js'
import { StatsSampler } from '../../lib/server/stats/sampler.js'
import { formatServerStatsSummary } from '../../lib/output/server-summary.js'
import { prepareScratch, simulateRun, checkRunStats } from './server-stats-scenario.js'

let target, admin, scratch

before(async () => {
  ({ target } = await getTestServer())
  admin = await openConnection(target)
  scratch = await prepareScratch(admin, target)
})

after(async () => {
  await scratch?.drop()
  await admin?.close()
})

test('a short write run as superuser: deltas match the transactions, a CHECKPOINT is marked', async (t) => {
  const run = await simulateRun({ target, admin, table: scratch.table, durationMs: 2500 })
  checkRunStats(assert, run, { table: scratch.table, lowPrivilege: false })
  assert.equal(run.stats.deltas.checkpointsDone >= 1, true, 'PostgreSQL 18 counts completed checkpoints')
  assert.ok(run.stats.deltas.walRecords > run.commits, 'pg_stat_wal is read on 18')
  // pg_stat_io: the CHECKPOINT sent half-way wrote the run's dirty blocks
  const ckpt = run.stats.io.find(r => r.backendType === 'checkpointer' && r.object === 'relation')
  assert.ok(ckpt?.writes > 0, `checkpointer writes in ${JSON.stringify(run.stats.io)}`)
  for (const r of run.stats.io) for (const op of ['reads', 'writes', 'extends', 'fsyncs']) assert.ok(r[op] === null || r[op] >= 0)
  const rates = run.stats.series.map(e => e.ioPerS).filter(Boolean)
  assert.ok(rates.length > 0 && rates.every(byType => Object.values(byType).every(o => Object.values(o).every(x => x >= 0))))
  assert.ok(rates.some(byType => byType.checkpointer?.writes > 0), 'the checkpoint\'s writes show in a sample')
  assert.equal(run.stats.statements.available, false)
  assert.match(run.stats.statements.reason, /not installed/)
  const summary = formatServerStatsSummary(run.stats)
  assert.match(summary, /^server: WAL \d[\d.,]* (bytes|kB|MB|GB) server-wide \(\d[\d,.]* (bytes|kB|MB) per transaction\), cache hit \d+\.\d\d% of block requests$/m)
  // one decimal from 1 on, two significant digits below (0.041)
  assert.match(summary, /^ {8}blocks read \d[\d,]* \((?:[1-9][\d,]*\.\d|0\.0*[1-9]\d?|0\.0) per transaction; (?:[1-9][\d,]*\.\d|0\.0*[1-9]\d?|0\.0) read\+hit per transaction\)$/m)
  // the CHECKPOINT sent half-way is the one checkpoint in the run, and the counters agree
  assert.match(summary, /^ {8}I\/O \(pg_stat_io, most first\): .*checkpointer [\d,]+ writes/m)
  assert.match(summary, /checkpoints: 1 in the run \(requested, [\d.]+ s to [\d.]+ s; times to the sample\); server counters in the window: 0 timed, 1 requested, 1 done/)
  t.diagnostic(`commits ${run.commits}, xactCommit ${run.stats.deltas.xactCommit}, WAL ${run.stats.deltas.walBytes} B, ` +
    `sample ${run.stats.sampler.meanMs} ms mean, ${run.stats.sampler.maxMs} ms max over ${run.stats.sampler.samples}`)
})

test('a role without superuser or pg_read_all_stats still gets what it can read and is told what is missing', async (t) => {
  const run = await simulateRun({ target: scratch.lowTarget, admin, table: scratch.table, durationMs: 2500 })
  checkRunStats(assert, run, { table: scratch.table, lowPrivilege: true })
  t.diagnostic(`missing: ${run.stats.missing.join(' | ')}`)
})

test('settings snapshot: version, non-default settings with source and context, table sizes, host', async () => {
  const snap = await takeSettingsSnapshot(admin, { tables: [scratch.table, 'no_such_table'] })
  assert.equal(snap.serverVersionNum >= 180000, true)
  assert.match(snap.serverVersion, /^18/)
  // the test server is started with fsync = off in postgresql.conf
  assert.deepEqual(snap.settings.fsync, { value: 'off', unit: null, source: 'configuration file', context: 'sighup' })
  assert.ok(Object.values(snap.settings).every(s => !['default', 'override', 'client'].includes(s.source)))
  assert.ok(snap.tables[scratch.table].sizeBytes >= 8192)
  assert.ok(snap.tables[scratch.table].indexesSizeBytes >= 8192)
  assert.equal(snap.tables.no_such_table.sizeBytes, null)
  assert.ok(snap.missing.includes('table size: no_such_table not found'))
  assert.ok(snap.host.cpus >= 1 && snap.host.memoryBytes > 0 && typeof snap.host.platform === 'string')

  const low = await openConnection(scratch.lowTarget)
  try {
    const lowSnap = await takeSettingsSnapshot(low, { tables: [scratch.table] })
    assert.ok(lowSnap.missing.some(m => /pg_read_all_settings/.test(m)))
    assert.ok(lowSnap.tables[scratch.table].sizeBytes >= 8192)
  } finally {
    await low.close()
  }
})

for (const who of ['superuser', 'unprivileged role']) {
  test(`lock waits, backends by state and wait types (${who})`, async () => {
    const t = who === 'superuser' ? target : scratch.lowTarget
    const sampler = new StatsSampler({ openConnection: () => openConnection(t), tables: [scratch.table] })
    assert.equal(await sampler.start(), true)
    const holder = await openConnection(t)
    const waiter = await openConnection(t)
    try {
      await holder.simpleQuery(`BEGIN; UPDATE ${scratch.table} SET v = v + 1 WHERE id = 1`)
      const blocked = waiter.query(`UPDATE ${scratch.table} SET v = v + 1 WHERE id = $1`, [1])
      let e
      for (let i = 0; i < 50; i++) { // until the waiter shows up as waiting (at most ~5 s)
        await new Promise(resolve => setTimeout(resolve, 100))
        e = await sampler.sample(i + 1)
        if (e?.lockWaits > 0) break
      }
      assert.equal(e.lockWaits, 1, JSON.stringify(e))
      assert.equal(e.waitEvents.Lock, 1)
      assert.ok(e.backends['idle in transaction'] >= 1 && e.backends.active >= 1, JSON.stringify(e.backends))
      await holder.simpleQuery('ROLLBACK')
      await blocked
    } finally {
      await holder.close()
      await waiter.close()
    }
    const r = await sampler.finish({ transactions: 1 })
    assert.ok(r.series.some(x => x.lockWaits === 1))
  })
}
