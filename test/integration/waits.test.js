// The wait sampler against the embedded server: a script that sleeps in pg_sleep is attributed to
// Timeout:PgSleep, two scripts updating one row show the waiting UPDATE on Lock:transactionid,
// and --wait-sampling off gives no section. Figures are counted, not timed.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { openConnection } from '../../lib/db/connection.js'
import { runCli } from '../helpers/cli.js'

let server, dir

before(async () => {
  server = await getTestServer()
  dir = mkdtempSync(join(tmpdir(), 'pgload-waits-'))
  const conn = await openConnection(server.target)
  await conn.simpleQuery('DROP TABLE IF EXISTS waits_t; CREATE TABLE waits_t (id int primary key, v int); INSERT INTO waits_t VALUES (1, 0)')
  await conn.close()
})

after(() => { if (dir) rmSync(dir, { recursive: true, force: true }) })

async function run (name, script, args) {
  const file = join(dir, `${name}.sql`)
  writeFileSync(file, script)
  const out = join(dir, `${name}.json`)
  const r = await runCli(['run', '-f', file, ...args, '--url', server.url, '--out', out, '--no-server-stats'])
  assert.equal(r.code, 0, r.stderr)
  return { stdout: r.stdout, results: JSON.parse(readFileSync(out, 'utf8')) }
}

test('a script of pg_sleep is attributed to Timeout:PgSleep', async (t) => {
  const { stdout, results } = await run('sleep', 'SELECT pg_sleep(0.02);\n', ['-c', '2', '-T', '2s'])
  const w = results.waits
  t.diagnostic(JSON.stringify(w.types))
  assert.equal(w.available, true)
  assert.equal(w.source, 'pg_stat_activity')
  const type = Object.values(w.types)[0]
  assert.ok(type.samples >= 20, `${type.samples} samples`)
  const sleep = type.events.find((e) => e.event === 'Timeout:PgSleep')
  assert.ok(sleep && sleep.share >= 0.95, JSON.stringify(type.events))
  // the statement is the script's only command
  assert.equal(type.statements.find((s) => s.index === 0)?.events[0].event, 'Timeout:PgSleep')
  // at least the sleep (within the estimate's error), at most the latency: however loaded the machine
  const latency = results.transactions[Object.keys(w.types)[0]].latencyMs.mean
  assert.ok(type.serverMs > 20 - 4 * type.serverMsStderr && type.serverMs < latency + 4 * type.serverMsStderr, `server time ${type.serverMs} ± ${type.serverMsStderr} ms per transaction of ${latency} ms`)
  assert.match(stdout, /Timeout:PgSleep/)
  assert.match(stdout, /sampled [\d,]+ times at 50 Hz from pg_stat_activity/)
})

test('two scripts updating one row: the UPDATE waits on Lock:transactionid', async (t) => {
  const script = 'BEGIN;\nUPDATE waits_t SET v = v + 1 WHERE id = 1;\nSELECT pg_sleep(0.02);\nEND;\n'
  const file = join(dir, 'other.sql')
  writeFileSync(file, script)
  const { results } = await run('contend', script, ['-f', file, '-c', '4', '-T', '2s'])
  const w = results.waits
  t.diagnostic(JSON.stringify(w.types))
  for (const type of Object.values(w.types)) {
    const update = type.statements.find((s) => s.index === 1)
    assert.equal(update?.events[0].event, 'Lock:transactionid', JSON.stringify(update))
  }
  // over time: one entry per interval, on the intervals' ends, every read counted in one of them
  t.diagnostic(JSON.stringify(w.series))
  assert.deepEqual(w.series.map((e) => e.t), results.intervals.map((iv) => iv.t))
  assert.equal(w.series.reduce((n, e) => n + e.ticks, 0), w.ticks.done)
  const lock = w.series.reduce((n, e) => n + (e.samples.Lock ?? 0), 0)
  assert.ok(lock > 0, 'the waiting UPDATEs are the Lock class')
  assert.ok(w.series.some((e) => e.sessions.Lock > 0 && (e.events['Lock:transactionid'] ?? 0) > 0))
})

test('a calm select-only run: classes over time without Lock, and no latency spike line', async (t) => {
  const { stdout, results } = await run('calm', 'SELECT v FROM waits_t WHERE id = 1;\n', ['-c', '2', '-T', '3s'])
  const w = results.waits
  t.diagnostic(JSON.stringify(w.series))
  assert.equal(w.series.length, results.intervals.length)
  assert.ok(w.series.every((e) => (e.samples.Lock ?? 0) === 0))
  assert.doesNotMatch(stdout, /latency spike/)
})

test('a row held by another session for a while: a latency spike with a lock pile-up, said in one line', async (t) => {
  const setup = await openConnection(server.target)
  await setup.simpleQuery('DROP TABLE IF EXISTS waits_spike; CREATE TABLE waits_spike (id int primary key, v int); INSERT INTO waits_spike VALUES (1, 0)')
  await setup.close()
  const file = join(dir, 'spike.sql')
  writeFileSync(file, 'UPDATE waits_spike SET v = v + 1 WHERE id = 1;\n')
  const out = join(dir, 'spike.json')
  const running = runCli(['run', '-f', file, '-c', '2', '-T', '6s', '--url', server.url, '--out', out, '--no-server-stats'])
  // a second after the run's first update, the row is held for 2 s: every update waits on the holder
  const holder = await openConnection(server.target)
  try {
    const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
    for (let i = 0; i < 300 && Number((await holder.simpleQuery('SELECT v FROM waits_spike')).rows[0][0]) === 0; i++) await sleep(50)
    await sleep(1000)
    await holder.simpleQuery('BEGIN; UPDATE waits_spike SET v = v WHERE id = 1; SELECT pg_sleep(2); COMMIT')
  } finally {
    await holder.close()
  }
  const r = await running
  assert.equal(r.code, 0, r.stderr)
  const results = JSON.parse(readFileSync(out, 'utf8'))
  t.diagnostic(JSON.stringify(results.waits.series.map((e) => [e.t, e.sessions])))
  t.diagnostic(JSON.stringify(results.intervals.map((iv) => [iv.latencyMs?.p99, iv.latencyMs?.max])))
  t.diagnostic(r.stdout.split('\n').find((l) => /latency spike/.test(l)) ?? 'no spike line')
  assert.match(r.stdout, /^ {2}latency spike at [\d.]+-[\d.]+ s \((p99|max) [\d.]+ ms, [\d.]+x the median interval\) with a lock pile-up; Lock:(transactionid|tuple) \d+ % of sampled sessions/m)
})

test('worker threads: the main thread samples every worker\'s connections', async (t) => {
  const { results } = await run('threads', 'SELECT pg_sleep(0.02);\n', ['-c', '4', '-j', '2', '-T', '2s'])
  const w = results.waits
  t.diagnostic(JSON.stringify(w.samples))
  assert.equal(w.available, true)
  const type = Object.values(w.types)[0]
  assert.ok(type.samples >= 40, `${type.samples} samples`)
  assert.equal(type.events[0].event, 'Timeout:PgSleep')
  assert.ok(type.typical.samples > 0, 'latencies came back from the workers')
  // the wait classes over time of every worker's backends, on the merged intervals
  assert.deepEqual(w.series.map((e) => e.t), results.intervals.map((iv) => iv.t))
  assert.ok(w.series.some((e) => e.sessions.Timeout > 1), JSON.stringify(w.series))
})

test('the reads are one transaction: the database\'s commits are the run\'s, and each read sees the present', async (t) => {
  const file = join(dir, 'commits.sql')
  writeFileSync(file, 'SELECT pg_sleep(0.02);\n')
  const out = join(dir, 'commits.json')
  const r = await runCli(['run', '-f', file, '-c', '1', '-T', '2s', '--url', server.url, '--out', out])
  assert.equal(r.code, 0, r.stderr)
  const results = JSON.parse(readFileSync(out, 'utf8'))
  const commits = results.serverStats.deltas.xactCommit
  t.diagnostic(`${results.summary.transactions} transactions, ${commits} commits, ${results.waits.ticks.done} reads`)
  assert.ok(results.waits.ticks.done >= 50)
  assert.ok(commits <= results.summary.transactions + 10, `${commits} commits for ${results.summary.transactions} transactions`)
  // nor is the sampler's connection, idle in its transaction between reads, among the backends
  const inTransaction = results.serverStats.series.map((e) => e.backends?.['idle in transaction'] ?? 0)
  assert.deepEqual(inTransaction.filter((n) => n > 0), [], JSON.stringify(results.serverStats.series.map((e) => e.backends)))

  // what the sampler relies on: inside a transaction, pg_stat_clear_snapshot() makes the next
  // read of pg_stat_activity see the backends as they are now
  const sleeper = await openConnection(server.target)
  const reader = await openConnection(server.target)
  try {
    const pid = sleeper.backendPid
    const stateOf = async () => (await reader.simpleQuery(`select pg_stat_clear_snapshot(); select state from pg_stat_activity where pid = ${pid}`)).rows[0][0]
    await reader.simpleQuery('BEGIN')
    assert.equal(await stateOf(), 'idle')
    const sleeping = sleeper.simpleQuery('select pg_sleep(0.5)')
    let seen = 'idle'
    for (let i = 0; i < 40 && seen !== 'active'; i++) { await new Promise((resolve) => setTimeout(resolve, 10)); seen = await stateOf() }
    assert.equal(seen, 'active')
    await sleeping
    assert.equal(await stateOf(), 'idle')
    await reader.simpleQuery('COMMIT')
  } finally {
    await sleeper.close()
    await reader.close()
  }
})

test('--wait-sampling off gives no waits section', async () => {
  const { results } = await run('off', 'SELECT 1;\n', ['-c', '1', '-t', '5', '--wait-sampling', 'off'])
  assert.equal(results.waits, undefined)
})

test('a role without pg_read_all_stats still sees its own backends: the run is sampled', async (t) => {
  // PostgreSQL hides other roles' rows' state and wait events from such a role (state NULL),
  // never its own: pgload's backends and the sampler's connection are the same role's.
  const conn = await openConnection(server.target)
  await conn.simpleQuery("DROP ROLE IF EXISTS waits_plain; CREATE ROLE waits_plain LOGIN PASSWORD 'waits-plain'")
  await conn.close()
  const url = new URL(server.url)
  url.username = 'waits_plain'
  url.password = 'waits-plain'
  const file = join(dir, 'plain.sql')
  writeFileSync(file, 'SELECT pg_sleep(0.02);\n')
  const out = join(dir, 'plain.json')
  const r = await runCli(['run', '-f', file, '-c', '2', '-T', '1s', '--url', url.href, '--out', out, '--no-server-stats'])
  assert.equal(r.code, 0, r.stderr)
  const w = JSON.parse(readFileSync(out, 'utf8')).waits
  t.diagnostic(JSON.stringify(w.samples))
  assert.equal(w.available, true)
  assert.equal(w.samples.hidden, 0)
  assert.equal(Object.values(w.types)[0].events[0].event, 'Timeout:PgSleep')
})
