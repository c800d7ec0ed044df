// Reads routed to a streaming standby (--route) against a real PG15 primary and standby on
// loopback: they show in the standby's own statistics and not the primary's; --staleness counts
// no read-your-writes violation when the primary waits for the standby to apply each commit
// (synchronous_commit = remote_apply), and counts them when the standby applies late.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../helpers/cli.js'
import { startStandbyPair, haveStandbyBinaries } from '../helpers/standby-pair.js'
import { openConnection } from '../../lib/db/connection.js'
import { resolveTarget } from '../../lib/server/target/resolve-target.js'
import { validateResults } from '../../lib/results/schema.js'

const skip = haveStandbyBinaries() ? false : 'PostgreSQL 15 binaries are not installed'
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const dir = mkdtempSync(join(tmpdir(), 'pgload-route-'))
const writes = join(dir, 'writes.sql')
const reads = join(dir, 'reads.sql')
let pair

const at = (port) => `host=127.0.0.1 port=${port} user=postgres dbname=postgres sslmode=disable`

/** One statement's first value on a server. */
async function value (port, sql) {
  const conn = await openConnection(resolveTarget({ url: at(port), env: {} }), { protocol: 'simple' })
  try {
    const r = await conn.simpleQuery(sql)
    return r.rows[0]?.[0] ?? null
  } finally {
    await conn.close()
  }
}

async function until (what, check) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return
    await sleep(100)
  }
  throw new Error(`${what} not within 20 s`)
}

const caughtUp = () => until('the standby catching up', async () => Number(await value(pair.primaryPort, 'select count(*) from pg_stat_replication where replay_lsn = pg_current_wal_lsn()')) === 1)
const probeScans = async (port) => Number(await value(port, "select coalesce(seq_scan, 0) from pg_stat_user_tables where relname = 'route_probe'"))
const commits = async (port) => Number(await value(port, 'select xact_commit from pg_stat_database where datname = current_database()'))

async function settings (port, sql) {
  for (const s of sql) await value(port, s)
  await value(port, 'select pg_reload_conf()')
}

before(async () => {
  if (skip) return
  pair = await startStandbyPair()
  await value(pair.primaryPort, 'create table route_probe (id int primary key, n int not null default 0); insert into route_probe (id) select generate_series(1, 100)')
  writeFileSync(writes, '\\set id random(1, 100)\nupdate route_probe set n = n + 1 where id = :id;\n')
  writeFileSync(reads, 'select count(*) from route_probe;\n')
  await caughtUp()
}, { timeout: 120000 })

after(() => {
  pair?.stop()
  rmSync(dir, { recursive: true, force: true })
})

async function routedRun (name, extra = []) {
  const out = join(dir, `${name}.json`)
  const r = await runCli(['run', '-f', `${writes}@1`, '-f', `${reads}@3`, '-c', '2', '-t', '40', '-n', '-s', '1', '--url', at(pair.primaryPort),
    '--route', `reads.sql=${at(pair.standbyPort)} target_session_attrs=standby`, '--out', out, ...extra], { timeoutMs: 90000 })
  assert.equal(r.code, 0, r.stderr)
  return { results: validateResults(JSON.parse(readFileSync(out, 'utf8')), out), stdout: r.stdout }
}

test('reads routed to the standby are counted in the standby\'s statistics, none in the primary\'s', { skip, timeout: 120000 }, async () => {
  const before = { standby: await probeScans(pair.standbyPort), primary: await probeScans(pair.primaryPort), standbyCommits: await commits(pair.standbyPort) }
  const { results, stdout } = await routedRun('routed')
  const routed = results.targets['target-1']
  assert.deepEqual(routed.types, [reads])
  assert.deepEqual(results.targets.main.types, [writes])
  assert.equal(routed.count, results.transactions[reads].count)
  assert.equal(routed.count + results.targets.main.count, 80)
  assert.ok(routed.count > 0 && results.targets.main.count > 0)
  assert.equal(routed.stats.standby, true)
  assert.equal(results.targets.main.stats.standby, false)
  assert.ok(routed.stats.xact_commit >= routed.count, `the standby counted ${routed.stats.xact_commit} commits for ${routed.count} reads`)
  assert.ok(Array.isArray(routed.stats.series) && routed.stats.series.every((e) => e.replayLagMs === null || e.replayLagMs >= 0))
  // the servers' own figures, read by the test: every read scanned the table on the standby
  await until('the standby\'s scans', async () => await probeScans(pair.standbyPort) - before.standby >= routed.count)
  assert.equal(await probeScans(pair.standbyPort) - before.standby, routed.count)
  assert.equal(await probeScans(pair.primaryPort) - before.primary, 0, 'no read scanned the primary\'s table')
  assert.ok(await commits(pair.standbyPort) - before.standbyCommits >= routed.count)
  assert.match(stdout, /^target target-1 \(host=127\.0\.0\.1 .*\): .*reads\.sql: \d+ transactions, 0 failed, latency p50 [\d.]+ ms, p99 [\d.]+ ms$/m)
  assert.match(stdout, /^ {2}standby counted: [\d,]+ commits, [\d,]+ rows returned/m)
})

test('--staleness with synchronous_commit = remote_apply: every routed read sees its client\'s writes', { skip, timeout: 120000 }, async () => {
  await settings(pair.primaryPort, ["alter system set synchronous_standby_names = '*'", "alter system set synchronous_commit = 'remote_apply'"])
  try {
    await until('a synchronous standby', async () => (await value(pair.primaryPort, 'select sync_state from pg_stat_replication')) === 'sync')
    const { results, stdout } = await routedRun('remote-apply', ['--staleness'])
    const st = results.staleness
    assert.ok(st.reads > 0, JSON.stringify(st))
    assert.equal(st.violations, 0, JSON.stringify(st))
    assert.equal(st.stamps, results.targets.main.count)
    assert.match(stdout, /^staleness: \d+ routed reads checked .*, 0 read-your-writes violations$/m)
  } finally {
    await settings(pair.primaryPort, ['alter system reset synchronous_standby_names', 'alter system reset synchronous_commit'])
  }
})

test('--staleness with asynchronous commits and a standby that applies late: the violations are counted', { skip, timeout: 120000 }, async () => {
  await settings(pair.primaryPort, ["alter system set synchronous_commit = 'off'"])
  await settings(pair.standbyPort, ["alter system set recovery_min_apply_delay = '300ms'"])
  try {
    const { results, stdout } = await routedRun('delayed', ['--staleness'])
    const st = results.staleness
    assert.ok(st.violations > 0, JSON.stringify(st))
    assert.ok(st.violations <= st.reads)
    assert.ok(st.behindMs.max > 0 && st.behindStamps.max >= 1, JSON.stringify(st))
    assert.match(stdout, /^staleness: the reads behind were behind by p50 [\d.]+ ms/m)
    process.stdout.write(`# ${stdout.split('\n').filter((l) => l.startsWith('staleness:')).join('\n# ')}\n`)
  } finally {
    await settings(pair.primaryPort, ['alter system reset synchronous_commit'])
    await settings(pair.standbyPort, ['alter system reset recovery_min_apply_delay'])
  }
})
