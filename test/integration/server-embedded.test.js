// The embedded server for real use: start, status, url (usable by a client), reuse, persistence, stop.

import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, chmodSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serverCommand } from '../../lib/cli/server.js'
import { initCommand } from '../../lib/cli/init.js'
import { ensureEmbeddedServer, serverStatus, stopServer } from '../../lib/server/embedded/embedded-server.js'
import { resolveTarget } from '../../lib/server/target/resolve-target.js'
import { openConnection } from '../../lib/db/connection.js'
import { pidAlive } from '../../lib/server/embedded/home-lock.js'

const base = mkdtempSync(join(tmpdir(), 'pgload-home-'))
chmodSync(base, 0o755) // as root the server runs as `postgres`, which must reach the home
const env = { ...process.env, PGLOAD_HOME: join(base, 'home') }
after(async () => {
  await stopServer({ env }).catch(() => {})
  rmSync(base, { recursive: true, force: true })
})

function sink () {
  const s = { text: '', write (chunk) { s.text += chunk } }
  return s
}

async function run (action, opts = {}) {
  const out = sink()
  const err = sink()
  await serverCommand(action, { env, out, err, ...opts })
  return { out: out.text, err: err.text }
}

test('server start, status, url (works with a client via PGPASSFILE), stop', async () => {
  assert.match((await run('status')).out, /^not running \(not initialised yet\)/)
  await assert.rejects(run('url'), /not running.*/)

  const started = await run('start')
  assert.match(started.out, /^embedded PostgreSQL 18\.\d+ started at postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres/)
  assert.match((await run('start')).out, /already running/)

  const st = await serverStatus({ env })
  assert.equal(st.running, true)
  assert.equal(statSync(st.pgpass).mode & 0o777, 0o600)
  assert.match((await run('status')).out, new RegExp(`^running: ${st.url.replace(/[/.]/g, '\\$&')} \\(PostgreSQL 18`))

  const url = await run('url')
  assert.equal(url.out, st.url + '\n')
  assert.doesNotMatch(url.out, /postgres:\/\/[^@/]*:[^@/]*@/, 'no password in the URL')
  assert.match(url.err, /PGPASSFILE=/)
  const target = resolveTarget({ url: url.out.trim(), env: { PGPASSFILE: st.pgpass } })
  const conn = await openConnection(target)
  try {
    assert.deepEqual((await conn.simpleQuery('select 42')).rows, [['42']])
  } finally {
    await conn.close()
  }
  const withPw = (await run('url', { showPassword: true })).out.trim()
  const conn2 = await openConnection(resolveTarget({ url: withPw, env: {} }))
  await conn2.close()

  assert.equal((await run('stop')).out, 'embedded PostgreSQL stopped\n')
  assert.equal((await serverStatus({ env })).running, false)
  assert.equal((await run('stop')).out, 'embedded PostgreSQL was not running\n')
})

test('a command reuses a running server, owns one it started, and data survives a restart', async () => {
  const first = await ensureEmbeddedServer({ env })
  assert.equal(first.owned, true)
  const c1 = await openConnection(first.target)
  await c1.simpleQuery('drop table if exists survives; create table survives (x int); insert into survives values (7)')
  await c1.close()

  const second = await ensureEmbeddedServer({ env })
  assert.equal(second.reused, true)
  assert.equal(second.owned, false)
  assert.equal(second.target.config.port, first.target.config.port)
  assert.equal(await second.stop(), false, 'a reused server is not stopped by its borrower')
  assert.equal((await serverStatus({ env })).running, true)

  assert.equal(await first.stop(), true)
  assert.equal((await serverStatus({ env })).running, false)

  const third = await ensureEmbeddedServer({ env })
  assert.equal(third.reused, false)
  const c3 = await openConnection(third.target)
  try {
    assert.deepEqual((await c3.simpleQuery('select x from survives')).rows, [['7']])
  } finally {
    await c3.close()
  }
  assert.equal(await third.stop(), true)
})

test('a server that answers with an error is left running: the command stops with that error', async () => {
  const first = await ensureEmbeddedServer({ env })
  const { pid } = await serverStatus({ env })
  const admin = await openConnection({ ...first.target, config: { ...first.target.config, database: 'template1' } })
  try {
    // the server refuses new connections to its database, as one at its connection limit does
    await admin.simpleQuery('alter database postgres allow_connections false')
    await assert.rejects(ensureEmbeddedServer({ env }), (err) => err.code === 'EMBEDDED_REFUSED' &&
      err.message === `the embedded PostgreSQL (pid ${pid}, port ${first.target.config.port}) refuses connections: database "postgres" is not currently accepting connections`)
    assert.equal(pidAlive(pid), true, 'the postmaster was not stopped')
    assert.deepEqual((await admin.simpleQuery('select 1')).rows, [['1']], 'the connections it had were not cut')
  } finally {
    await admin.simpleQuery('alter database postgres allow_connections true')
    await admin.close()
  }
  assert.equal(await first.stop(), true)
})

test('the last command using a server that a command started stops it, whichever started it; a server start server stays', async () => {
  const first = await ensureEmbeddedServer({ env })
  const second = await ensureEmbeddedServer({ env })
  assert.equal(first.owned, true)
  assert.equal(second.owned, false)
  assert.equal((await serverStatus({ env })).users.length, 1, 'one process, listed once')
  assert.equal(await first.stop(), false, 'the starter ends first: the other command still uses it')
  assert.equal((await serverStatus({ env })).running, true)
  assert.equal(await first.stop(), false, 'a second stop() of one use changes nothing')
  assert.equal(await second.stop(), true, 'the last user stops it, though it did not start it')
  assert.equal((await serverStatus({ env })).running, false)

  await run('start')
  const borrower = await ensureEmbeddedServer({ env })
  assert.equal(await borrower.stop(), false)
  const st = await serverStatus({ env })
  assert.equal(st.running, true, 'pgload server start keeps it running')
  assert.deepEqual(st.users, [])
  await run('stop')
})

test('init on the embedded server says so in a pgload: line, as every line of its own', async () => {
  await run('start')
  try {
    const err = sink()
    await initCommand({ workload: 'tpcb', env, options: { scale: 1 }, stderr: err })
    assert.match(err.text, /^pgload: using the embedded PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/m)
    assert.doesNotMatch(err.text, /^(using|started) the embedded/m)
    assert.match((await run('url')).err, /^pgload: password file: /)
  } finally {
    await run('stop')
  }
})

test('a run on the embedded server has pg_stat_statements: preloaded at every start, created in the database, said on the connected line', { timeout: 120_000 }, async () => {
  const { runCli } = await import('../helpers/cli.js')
  const out = join(base, 'statements.json')
  const init = await runCli(['init', 'tpcb', '--scale', '1', '--force'], { env, timeoutMs: 60_000 })
  assert.equal(init.code, 0, init.stderr)
  const r = await runCli(['run', 'tpcb', '-c', '2', '-T', '2s', '--out', out], { env, timeoutMs: 60_000 })
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stderr, /^pgload: embedded PostgreSQL \S+ at \S+ \(pg_stat_statements on\)$/m)
  const { readFileSync } = await import('node:fs')
  const results = JSON.parse(readFileSync(out, 'utf8'))
  const top = results.serverStats.statements?.top ?? []
  assert.ok(top.length > 0, `the statements' figures: ${JSON.stringify(results.serverStats.missing)}`)
  assert.ok(top.some((s) => /pgbench_accounts/.test(s.query ?? s.text ?? '')), JSON.stringify(top[0]))
})
