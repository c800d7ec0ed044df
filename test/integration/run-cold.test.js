// `pgload run --cold`: the embedded server of its own pgload home really restarts (a new
// postmaster on the same port) and the results record it; a server restarted through
// --restart-command (a throw-away cluster, restarted by this test on the command's signal);
// the command's failure and the missing restart method, each one line.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, rmSync, chmodSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../helpers/cli.js'
import { startThrowawayCluster } from '../helpers/throwaway-cluster.js'
import { openConnection } from '../../lib/db/connection.js'
import { resolveTarget } from '../../lib/server/target/resolve-target.js'
import { pageCacheDecision } from '../../lib/server/cold/page-cache.js'

let base
before(() => {
  base = mkdtempSync(join(tmpdir(), 'pgload-cold-'))
  chmodSync(base, 0o755) // as root the server runs as `postgres`, which must reach the home
})
after(async () => {
  await runCli(['server', 'stop'], { env: { PGLOAD_HOME: join(base, 'home') } }).catch(() => {})
  rmSync(base, { recursive: true, force: true })
})

async function startTime (target) {
  const conn = await openConnection(target, { protocol: 'simple' })
  try {
    return (await conn.simpleQuery('select pg_postmaster_start_time()::text, pg_backend_pid()')).rows[0][0]
  } finally {
    await conn.close()
  }
}

test('run --cold restarts the embedded server on its port and records what it did', { timeout: 240_000 }, async () => {
  const env = { PGLOAD_HOME: join(base, 'home') }
  const started = await runCli(['server', 'start'], { env })
  assert.equal(started.code, 0, started.stderr)
  const url = (await runCli(['server', 'url', '--show-password'], { env })).stdout.trim()
  const target = resolveTarget({ url })
  const before = await startTime(target)
  const out = join(base, 'cold.json')
  // Dropping the page cache empties it for everything on the machine: only when asked
  // (PGLOAD_TEST_DROP_CACHES=1); the decision itself is tested in the unit tests.
  const drop = process.env.PGLOAD_TEST_DROP_CACHES === '1'
  const r = await runCli(['run', 'tpcb', '-s', '1', '-c', '2', '-T', '2s', '--cold', ...(drop ? [] : ['--keep-page-cache']), '-o', out], { env, timeoutMs: 200_000 })
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stderr, /pgload: cold start: the server restarted in \d+\.\d s; OS page cache /)
  const after = await startTime(target) // the same URL: same port, same password
  assert.notEqual(after, before, 'a new postmaster')
  assert.equal((await runCli(['server', 'url', '--show-password'], { env })).stdout.trim(), url)

  const doc = JSON.parse(readFileSync(out, 'utf8'))
  const expected = drop ? pageCacheDecision({ local: true, uid: process.getuid() }) : { drop: false, note: 'kept (--keep-page-cache)' }
  assert.deepEqual(Object.keys(doc.run.cold).sort(), ['method', 'pageCacheDropped', 'pageCacheNote', 'restartS', 'restarted'])
  assert.equal(doc.run.cold.restarted, true)
  assert.equal(doc.run.cold.method, 'embedded')
  assert.ok(doc.run.cold.restartS > 0 && doc.run.cold.restartS < 120, `restartS ${doc.run.cold.restartS}`)
  assert.equal(doc.run.cold.pageCacheDropped, expected.drop)
  assert.equal(doc.run.cold.pageCacheNote, expected.drop ? 'dropped after the stop, before the start' : expected.note)
  assert.equal(doc.run.options.cold, true)
  assert.equal(doc.run.warmupS, 0, 'measured from the start')
  assert.ok(doc.summary.transactions > 0)
  // the server that `server start` left running stays running after the cold run
  assert.match((await runCli(['server', 'status'], { env })).stdout, /^running: /)
})

test('run --cold --restart-command: the command restarts the server, pgload waits for the new postmaster', { timeout: 120_000 }, async (t) => {
  const cluster = await startThrowawayCluster()
  t.after(() => cluster.stop())
  // The command only signals this process, which restarts the cluster meanwhile: pgload must wait.
  let restarts = 0
  const onSignal = () => { restarts++; cluster.restartFast() }
  process.on('SIGUSR2', onSignal)
  t.after(() => process.off('SIGUSR2', onSignal))
  const script = join(base, 'one.sql')
  writeFileSync(script, 'SELECT 1;\n')
  const before = await startTime(cluster.target)
  const out = join(base, 'command.json')
  const r = await runCli(['run', script, '-n', '-T', '1s', '--url', cluster.url, '--cold', '--keep-page-cache',
    '--restart-command', `kill -USR2 ${process.pid}`, '-o', out], { timeoutMs: 100_000 })
  assert.equal(r.code, 0, r.stderr)
  assert.equal(restarts, 1)
  assert.notEqual(await startTime(cluster.target), before)
  const cold = JSON.parse(readFileSync(out, 'utf8')).run.cold
  assert.equal(cold.method, 'command')
  assert.equal(cold.restarted, true)
  assert.deepEqual([cold.pageCacheDropped, cold.pageCacheNote], [false, 'kept (--keep-page-cache)'])

  const failed = await runCli(['run', script, '-n', '-T', '1s', '--url', cluster.url, '--cold',
    '--restart-command', 'echo "pg_ctl: no server running" >&2; exit 3', '-o', join(base, 'failed.json')], { timeoutMs: 60_000 })
  assert.equal(failed.code, 1)
  assert.match(failed.stderr, /^pgload: --restart-command failed with exit status 3: pg_ctl: no server running$/m)
  assert.doesNotMatch(failed.stderr, /\n\s+at /, 'no stack trace')
  assert.equal(existsSync(join(base, 'failed.json')), false)
})

test('run --cold against a server pgload cannot restart: one line, before anything runs', async () => {
  const out = join(base, 'never.json')
  const r = await runCli(['run', 'tpcb', '-T', '1s', '--cold', '--url', 'postgres://bench@127.0.0.1:1/bench', '-o', out],
    { env: { PGLOAD_HOME: join(base, 'other-home') } })
  assert.equal(r.code, 1)
  assert.equal(r.stderr, "pgload: --cold needs a way to restart the server: pgload restarts only its embedded server, and postgres://bench@127.0.0.1:1/bench is not it\nhint: give --restart-command 'CMD' (for example 'sudo systemctl restart postgresql')\n")
  assert.equal(existsSync(out), false)
  assert.equal(existsSync(join(base, 'other-home')), false, 'no embedded server was started')
})
