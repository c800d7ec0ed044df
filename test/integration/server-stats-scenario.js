// Shared by the server-stats integration tests: a throw-away cluster from Debian's PostgreSQL
// binaries (15), and a short simulated run (write transactions, samples, a forced CHECKPOINT).

import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, chmodSync, chownSync, rmSync, writeFileSync, appendFileSync } from 'node:fs'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { openConnection } from '../../lib/db/connection.js'
import { StatsSampler } from '../../lib/server/stats/sampler.js'
import { freePort, serverUser } from '../../lib/server/embedded/cluster.js'

/** Where Debian's PostgreSQL 15 lives; tests skip when it is absent. */
export const PG15_BIN = '/usr/lib/postgresql/15/bin'

function run (file, args, ids) {
  return new Promise((resolve) => {
    const child = spawn(file, args, { ...ids, env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', d => { out += d })
    child.stderr.on('data', d => { out += d })
    child.on('error', err => resolve({ code: -1, out: out + err.message }))
    child.on('close', code => resolve({ code, out }))
  })
}

/**
 * Start a cluster from `bin` in a temp dir on a free 127.0.0.1 port (as the postgres OS user when
 * root), with pg_stat_statements preloaded. Returns its target, data directory, the OS user it runs as
 * (ids, for files written into it) and a stop() that removes it.
 * @param {string} bin
 */
export async function startLocalCluster (bin) {
  const ids = await serverUser()
  const base = mkdtempSync(join(tmpdir(), 'pgload-stats-pg-'))
  chmodSync(base, 0o700)
  if (ids.uid !== undefined) chownSync(base, ids.uid, ids.gid)
  const dataDir = join(base, 'data')
  const password = randomBytes(12).toString('hex')
  const pwfile = join(base, 'pw')
  writeFileSync(pwfile, password + '\n', { mode: 0o600 })
  if (ids.uid !== undefined) chownSync(pwfile, ids.uid, ids.gid)
  let r = await run(join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', `--pwfile=${pwfile}`, '--auth=scram-sha-256',
    '--no-sync', '--locale=C', '-E', 'UTF8', '--no-instructions'], ids)
  rmSync(pwfile, { force: true })
  if (r.code !== 0) { rmSync(base, { recursive: true, force: true }); throw new Error(`initdb failed: ${r.out}`) }
  appendFileSync(join(dataDir, 'postgresql.conf'), [
    "listen_addresses = '127.0.0.1'", "unix_socket_directories = ''", 'fsync = off', 'synchronous_commit = off',
    "shared_preload_libraries = 'pg_stat_statements'", 'max_connections = 30', "lc_messages = 'C'"
  ].join('\n') + '\n')
  const logFile = join(base, 'server.log')
  let port
  for (let attempt = 1; ; attempt++) {
    port = await freePort()
    r = await run(join(bin, 'pg_ctl'), ['start', '-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', `-p ${port}`], ids)
    if (r.code === 0) break
    if (attempt >= 3) { rmSync(base, { recursive: true, force: true }); throw new Error(`pg_ctl start failed: ${r.out}`) }
  }
  let stopped = false
  const stopSync = () => {
    if (stopped) return
    stopped = true
    spawnSync(join(bin, 'pg_ctl'), ['stop', '-D', dataDir, '-m', 'immediate', '-w', '-t', '30'], { ...ids, stdio: 'ignore' })
    rmSync(base, { recursive: true, force: true })
  }
  process.once('exit', stopSync)
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.once(sig, () => { stopSync(); process.kill(process.pid, sig) })
  }
  const target = {
    config: { host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' },
    display: `postgres://postgres@127.0.0.1:${port}/postgres`,
    embedded: false
  }
  return {
    target,
    logFile,
    dataDir,
    ids,
    async stop () {
      if (stopped) return
      await run(join(bin, 'pg_ctl'), ['stop', '-D', dataDir, '-m', 'fast', '-w', '-t', '60'], ids)
      stopSync()
    }
  }
}

/** Is the Debian PostgreSQL 15 usable here? (binaries present; root needs the postgres user) */
export function pg15Available () {
  if (!existsSync(join(PG15_BIN, 'initdb'))) return `no PostgreSQL 15 binaries in ${PG15_BIN}`
  if (userInfo().uid === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0) return 'running as root without a postgres OS user'
  return null
}

/**
 * Create a scratch table (and a login role without superuser or pg_read_all_stats that may
 * write it) on `admin`; returns names and a target for the role.
 * @param {any} admin connection as superuser
 * @param {any} target the superuser target
 */
export async function prepareScratch (admin, target) {
  const suffix = randomBytes(4).toString('hex')
  const table = `ss_scratch_${suffix}`
  const role = `ss_low_${suffix}`
  const password = randomBytes(9).toString('hex')
  // No autovacuum on it: a worker's dozen transactions within the run would blur the check that
  // the deltas hold the workload's commits and nothing else of ours.
  await admin.simpleQuery(`CREATE TABLE ${table} (id int PRIMARY KEY, v int NOT NULL, pad text)
      WITH (autovacuum_enabled = off, toast.autovacuum_enabled = off);
    INSERT INTO ${table} SELECT g, 0, repeat('x', 80) FROM generate_series(1, 500) g;
    CREATE ROLE ${role} LOGIN PASSWORD '${password}';
    GRANT SELECT, INSERT, UPDATE, DELETE ON ${table} TO ${role}`)
  const lowTarget = { ...target, config: { ...target.config, user: role, password } }
  return {
    table,
    role,
    lowTarget,
    async drop () {
      await admin.simpleQuery(`DROP TABLE IF EXISTS ${table}; DROP ROLE IF EXISTS ${role}`)
    }
  }
}

// Autovacuum and autoanalyze runs so far in admin's database (each is several transactions).
async function autovacuumRuns (admin) {
  const r = await admin.simpleQuery('SELECT coalesce(sum(autovacuum_count + autoanalyze_count), 0) FROM pg_stat_all_tables')
  return Number(r.rows[0][0])
}

/**
 * A short simulated run: `clients` connections update the scratch table (one autocommit
 * transaction each, plus a rolled-back one every 50th) for `durationMs`, samples every
 * `sampleMs` (not awaited, as the run's tick does), a CHECKPOINT from `admin` half-way; with
 * `serverLog` (the cluster's log file) the sampler takes checkpoint times from it.
 * On a slow machine the run goes on (up to 4 times `durationMs`) until a sample begun after the
 * CHECKPOINT returned has been taken. The workload connections are closed before finish(), as
 * the engine does, which is given their backends to wait for.
 */
export async function simulateRun ({ target, admin, table, clients = 2, durationMs = 3000, sampleMs = 250, checkpoint = true, serverLog = null }) {
  const autovacuumBefore = await autovacuumRuns(admin)
  const sampler = new StatsSampler({ openConnection: () => openConnection(target, { applicationName: 'pgload-stats' }), tables: [table], serverLog })
  const started = await sampler.start()
  const conns = await Promise.all(Array.from({ length: clients }, () => openConnection(target)))
  const t0 = performance.now()
  const elapsedS = () => Math.round(performance.now() - t0) / 1000
  let commits = 0
  let rollbacks = 0
  let checkpointAtS = null
  let checkpointTickS = null // t of the sample taken just before the CHECKPOINT was sent
  let checkpointDoneS = null
  let sampledAfterS = null // t of the first sample begun after the CHECKPOINT returned
  const state = { stop: false }
  const samples = []
  const ticker = (async () => {
    let next = sampleMs
    while (!state.stop) {
      await sleep(Math.max(0, next - (performance.now() - t0)))
      if (state.stop) break
      const t = elapsedS()
      const sample = sampler.sample(t)
      samples.push(sample)
      if (checkpointDoneS !== null && sampledAfterS === null) sample.then((e) => { if (e && sampledAfterS === null) sampledAfterS = t })
      if (checkpoint && checkpointAtS === null && performance.now() - t0 >= durationMs / 2) {
        checkpointTickS = t
        checkpointAtS = elapsedS()
        await admin.simpleQuery('CHECKPOINT')
        checkpointDoneS = elapsedS()
      }
      next += sampleMs
    }
  })()
  const going = () => {
    const ms = performance.now() - t0
    return ms < durationMs || (checkpoint && sampledAfterS === null && ms < 4 * durationMs)
  }
  await Promise.all(conns.map(async (c, i) => {
    let k = i
    while (going()) {
      k = (k + 7) % 500 + 1
      if ((commits + rollbacks) % 50 === 49) {
        await c.simpleQuery(`BEGIN; UPDATE ${table} SET v = v + 1 WHERE id = ${k}; ROLLBACK`)
        rollbacks++
      } else {
        await c.query(`UPDATE ${table} SET v = v + 1 WHERE id = $1`, [k])
        commits++
      }
    }
  }))
  state.stop = true
  await ticker
  const backendPids = conns.map(c => c.backendPid)
  await Promise.all(conns.map(c => c.close()))
  await Promise.all(samples)
  const stats = await sampler.finish({ transactions: commits + rollbacks, backendPids })
  const autovacuumDuring = await autovacuumRuns(admin) - autovacuumBefore
  return { started, stats, commits, rollbacks, checkpointAtS, checkpointTickS, checkpointDoneS, sampledAfterS, autovacuumDuring }
}

/**
 * The checks every simulated run must pass, on any version and role.
 * @param {typeof import('node:assert/strict')} assert
 * @param {Awaited<ReturnType<typeof simulateRun>>} run
 * @param {{ table: string, lowPrivilege: boolean }} opts
 */
export function checkRunStats (assert, run, opts) {
  try {
    checkRun(assert, run, opts)
  } catch (err) {
    // what a failure on a CI machine needs to be understood from its log alone
    const { stats, ...rest } = run
    err.message += `\n  run: ${JSON.stringify({ ...rest, deltas: stats.deltas, events: stats.events, series: stats.series.map(e => e.t), sampler: stats.sampler, missing: stats.missing })}`
    throw err
  }
}

function checkRun (assert, run, { table, lowPrivilege }) {
  const { started, stats, commits, rollbacks, checkpointAtS, checkpointTickS, sampledAfterS, autovacuumDuring } = run
  const d = stats.deltas
  assert.equal(started, true)
  assert.ok(commits > 100, `the simulated run committed only ${commits} transactions`)
  // Only the workload's commits remain (the sampler's own are subtracted); the CHECKPOINT, the
  // test's own reads and autovacuum workers (a dozen transactions per table) may add some.
  const extra = 20 + 15 * autovacuumDuring
  assert.ok(d.xactCommit >= commits && d.xactCommit <= commits + extra, `xactCommit ${d.xactCommit} vs ${commits} committed (+${extra} allowed)`)
  assert.ok(d.xactRollback >= rollbacks && d.xactRollback <= rollbacks + 5, `xactRollback ${d.xactRollback} vs ${rollbacks}`)
  assert.ok(d.walBytes > 0, 'WAL bytes are positive')
  const walPerCommit = d.walBytes / commits
  assert.ok(walPerCommit > 50 && walPerCommit < 5000, `WAL bytes per update transaction ${walPerCommit}`)
  assert.equal(stats.perTransaction.walBytes, Math.round(d.walBytes / (commits + rollbacks) * 1000) / 1000)
  assert.ok(d.blksHit > commits, `blocks hit ${d.blksHit}`)
  assert.ok(d.cacheHitRatio > 0.5 && d.cacheHitRatio <= 1)
  assert.ok(d.checkpointsRequested >= 1, `checkpointsRequested ${d.checkpointsRequested}`)
  assert.ok(d.buffersWritten > 0, `buffersWritten ${d.buffersWritten}`)

  const start = stats.events.find(e => e.kind === 'checkpoint-start')
  const end = stats.events.find(e => e.kind === 'checkpoint-end')
  assert.ok(start && end, `checkpoint markers: ${JSON.stringify(stats.events)}`)
  // the end is seen by the first sample that reads the control file after the CHECKPOINT (a busy
  // machine may delay or skip samples); an inferred start is clamped to the sample before it, and
  // checkpoint_time has whole seconds
  assert.ok(start.t >= checkpointAtS - 1.5 && start.t <= end.t, `start ${start.t}, CHECKPOINT at ${checkpointAtS}`)
  // A sample is stamped when it starts: the one sent just before the CHECKPOINT may read the
  // control file after it. At the latest, the first sample begun after the CHECKPOINT returned sees it.
  assert.ok(end.t >= checkpointTickS && end.t <= (sampledAfterS ?? checkpointAtS + 3), `end ${end.t}, CHECKPOINT at ${checkpointAtS} (tick ${checkpointTickS}), first sample after it at ${sampledAfterS}`)
  // the checkpointer's counters may come a reading after the end: still one start
  assert.equal(stats.events.filter(e => e.kind === 'checkpoint-start').length, 1, 'one CHECKPOINT, one start marker')
  assert.equal(stats.events.filter(e => e.kind === 'checkpoint-end').length, 1, 'one CHECKPOINT, one end marker')

  assert.ok(stats.series.length >= 4, `series has ${stats.series.length} entries`)
  assert.ok(stats.series.some(e => e.walBytesPerS > 0) && stats.series.some(e => e.xactCommitPerS > 0))
  assert.ok(stats.series.every(e => typeof e.t === 'number' && e.backends && e.waitEvents && typeof e.lockWaits === 'number'))
  const tbl = stats.tables[table]
  assert.ok(tbl.nTupUpd >= commits && tbl.idxScan >= commits, JSON.stringify(tbl))
  assert.ok(tbl.sizeBytes > 0 && tbl.indexesSizeBytes > 0)
  assert.equal(stats.sampler.failed, 0)

  const hidden = stats.missing.some(m => /pg_read_all_stats/.test(m))
  assert.equal(hidden, lowPrivilege, `missing: ${stats.missing.join('; ')}`)
}
