// sslmode as libpq means it, for both drivers and for `run` and `init`, against one throw-away
// PostgreSQL 15 cluster with a self-signed certificate, configured three ways in turn: SSL only
// (hostssl scram, hostnossl reject), SSL refused by pg_hba.conf (the reverse), and SSL off.
// A refusal is one line naming the sslmode tried, with a hint naming the one that would do.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { chmodSync, chownSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { PG15_BIN, pg15Available, startLocalCluster } from './server-stats-scenario.js'
import { runCli, assertOneLineError } from '../helpers/cli.js'
import { openConnection } from '../../lib/db/connection.js'
import { openLeanConnection } from '../../lib/db/lean-connection.js'
import { resolveTarget, explainConnectError } from '../../lib/server/target/resolve-target.js'

const skip = pg15Available() ?? (existsSync('/usr/bin/openssl') ? false : 'no openssl to make a certificate')
const DRIVERS = { lean: openLeanConnection, pg: openConnection }
let cluster, admin, dir, script, rootcert

before(async () => {
  if (skip) return
  dir = mkdtempSync(join(tmpdir(), 'pgload-ssl-'))
  cluster = await startLocalCluster(PG15_BIN)
  admin = await openConnection(cluster.target, { protocol: 'simple' })
  // a certificate for 127.0.0.1 (IP SAN), signed by itself: its own root
  rootcert = join(dir, 'server.crt')
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
    '-keyout', join(dir, 'server.key'), '-out', rootcert, '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' })
  for (const f of ['server.crt', 'server.key']) serverFile(f, null, join(dir, f))
  script = join(dir, 'select.sql')
  writeFileSync(script, 'SELECT 1;\n')
})

after(async () => {
  await admin?.close()
  await cluster?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** A file in the data directory, the server's own (the key must not be readable by others). */
function serverFile (name, text, from) {
  const path = join(cluster.dataDir, name)
  if (from) copyFileSync(from, path)
  else writeFileSync(path, text)
  chmodSync(path, 0o600)
  if (cluster.ids.uid !== undefined) chownSync(path, cluster.ids.uid, cluster.ids.gid)
}

const HBA = {
  'ssl only': ['hostssl all all 127.0.0.1/32 scram-sha-256', 'hostnossl all all 127.0.0.1/32 reject'],
  'ssl refused': ['hostnossl all all 127.0.0.1/32 scram-sha-256', 'hostssl all all 127.0.0.1/32 reject'],
  'ssl off': ['host all all 127.0.0.1/32 scram-sha-256']
}

/** Configure the server (the admin connection, opened before, stays) and wait for the reload. */
async function configure (kind) {
  serverFile('pg_hba.conf', HBA[kind].join('\n') + '\n')
  await admin.simpleQuery(`ALTER SYSTEM SET ssl = ${kind === 'ssl off' ? 'off' : 'on'}`)
  await admin.simpleQuery('SELECT pg_reload_conf()')
  // the reload is asynchronous: wait until a connection sees it
  const probe = kind === 'ssl only' ? 'disable' : 'require'
  const refused = kind === 'ssl off' ? /does not support SSL/ : /no encryption|SSL encryption/
  for (let i = 0; ; i++) {
    const err = await openConnection(target(probe)).then((c) => c.close(), (e) => e)
    if (refused.test(String(err?.message))) return
    assert.ok(i < 100, `the server did not take the ${kind} configuration: ${err?.message}`)
    await sleep(100)
  }
}

function url (mode, { root = false } = {}) {
  const c = cluster.target.config
  return `postgres://${c.user}:${encodeURIComponent(c.password)}@127.0.0.1:${c.port}/${c.database}?sslmode=${mode}${root ? `&sslrootcert=${encodeURIComponent(rootcert)}` : ''}`
}

const target = (mode, opts) => resolveTarget({ url: url(mode, opts), env: {} })

/** Connect with one driver: whether the session is encrypted, or the error as pgload says it. */
async function connectWith (driver, mode, opts) {
  const t = target(mode, opts)
  try {
    const conn = await DRIVERS[driver](t, { protocol: 'simple', connectTimeoutMs: 10_000 })
    try {
      return { ssl: (await conn.simpleQuery('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()')).rows[0][0] === 't' }
    } finally {
      await conn.close()
    }
  } catch (err) {
    const e = explainConnectError(err, t)
    return { error: e.message, hint: e.hint }
  }
}

async function assertConnects (mode, ssl, opts) {
  for (const driver of Object.keys(DRIVERS)) {
    assert.deepEqual(await connectWith(driver, mode, opts), { ssl }, `${driver}, sslmode=${mode}`)
  }
}

async function assertRefused (mode, message, hint, opts) {
  for (const driver of Object.keys(DRIVERS)) {
    const r = await connectWith(driver, mode, opts)
    assert.match(r.error ?? 'connected', message, `${driver}, sslmode=${mode}`)
    assert.match(r.hint, hint)
  }
}

/** `pgload run` of five transactions on one client; the results when it succeeds. */
async function runScript (args, env) {
  const out = join(dir, `run-${Math.random().toString(36).slice(2)}.json`)
  const r = await runCli(['run', script, '-t', '5', '-c', '1', '--no-server-stats', '--out', out, ...args], { env, timeoutMs: 60_000 })
  return { r, results: r.code === 0 ? JSON.parse(readFileSync(out, 'utf8')) : null }
}

async function assertRuns (args, env) {
  const { r, results } = await runScript(args, env)
  assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`)
  assert.equal(results.summary.transactions, 5)
}

test('SSL only: every mode that may encrypt connects with SSL, disable and an unverifiable certificate are one line', { skip, timeout: 180_000 }, async () => {
  await configure('ssl only')
  for (const mode of ['allow', 'prefer', 'require']) await assertConnects(mode, true)
  for (const mode of ['verify-ca', 'verify-full']) await assertConnects(mode, true, { root: true })
  await assertRefused('disable', /refused the connection with sslmode=disable: .*no encryption/, /accepts only SSL connections here: give sslmode=prefer or require/)
  await assertRefused('verify-ca', /with sslmode=verify-ca: the server's certificate is not trusted \(self-signed certificate; no sslrootcert was given\)/, /sslrootcert=FILE/)

  for (const driver of ['lean', 'pg']) {
    for (const mode of ['allow', 'prefer', 'require']) await assertRuns(['--url', url(mode), '--driver', driver])
    for (const mode of ['verify-ca', 'verify-full']) await assertRuns(['--url', url(mode, { root: true }), '--driver', driver])
    assertOneLineError((await runScript(['--url', url('disable'), '--driver', driver])).r, /refused the connection with sslmode=disable/)
    assertOneLineError((await runScript(['--url', url('verify-ca'), '--driver', driver])).r, /sslmode=verify-ca: the server's certificate is not trusted/)
  }
  const c = cluster.target.config
  const env = { PGHOST: '127.0.0.1', PGPORT: String(c.port), PGUSER: c.user, PGPASSWORD: c.password, PGDATABASE: c.database, PGSSLMODE: 'prefer' }
  await assertRuns([], env)
  await assertRuns(['--driver', 'pg'], env)
})

test('SSL only: init with every mode', { skip, timeout: 180_000 }, async () => {
  await configure('ssl only')
  const init = (args, env) => runCli(['init', 'tpcb', '--scale', '1', '--force', '--no-vacuum', '--unlogged-tables', ...args], { env, timeoutMs: 90_000 })
  for (const mode of ['allow', 'prefer', 'require']) {
    const r = await init(['--url', url(mode)])
    assert.equal(r.code, 0, `sslmode=${mode}: ${r.stderr}`)
  }
  for (const mode of ['verify-ca', 'verify-full']) {
    const r = await init(['--url', url(mode, { root: true })])
    assert.equal(r.code, 0, `sslmode=${mode}: ${r.stderr}`)
  }
  assertOneLineError(await init(['--url', url('disable')]), /refused the connection with sslmode=disable/)
  assertOneLineError(await init(['--url', url('verify-full')]), /sslmode=verify-full: the server's certificate is not trusted/)
  const c = cluster.target.config
  const r = await init([], { PGHOST: '127.0.0.1', PGPORT: String(c.port), PGUSER: c.user, PGPASSWORD: c.password, PGDATABASE: c.database, PGSSLMODE: 'prefer' })
  assert.equal(r.code, 0, `PGSSLMODE=prefer: ${r.stderr}`)
})

test('SSL refused by pg_hba.conf: prefer falls back to plain after the SSL attempt is turned away, require is one line', { skip, timeout: 180_000 }, async () => {
  await configure('ssl refused')
  for (const mode of ['disable', 'allow', 'prefer']) await assertConnects(mode, false)
  await assertRefused('require', /refused the connection with sslmode=require: .*SSL encryption/, /accepts only connections without SSL here: give sslmode=prefer or disable/)
  for (const driver of ['lean', 'pg']) {
    await assertRuns(['--url', url('prefer'), '--driver', driver])
    assertOneLineError((await runScript(['--url', url('require'), '--driver', driver])).r, /refused the connection with sslmode=require/)
  }
})

test('SSL off: prefer and allow connect without it, require and verify-full are one line naming the mode', { skip, timeout: 180_000 }, async () => {
  await configure('ssl off')
  for (const mode of ['disable', 'allow', 'prefer']) await assertConnects(mode, false)
  await assertRefused('require', /with sslmode=require: the server does not support SSL/, /give sslmode=prefer/)
  await assertRefused('verify-full', /with sslmode=verify-full: the server does not support SSL/, /give sslmode=prefer/, { root: true })
  for (const driver of ['lean', 'pg']) {
    await assertRuns(['--url', url('prefer'), '--driver', driver])
    assertOneLineError((await runScript(['--url', url('require'), '--driver', driver])).r, /with sslmode=require: the server does not support SSL/)
  }
})
