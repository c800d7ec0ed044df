// The wait sampler on a server with the pg_wait_sampling extension (PostgreSQL 15 from Debian's
// packages, the library preloaded): the run names the extension and still reads pg_stat_activity,
// whose rows carry the backend's state that the history's lack (see the results' `waits.source`).

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { appendFileSync, chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { serverUser, giveToServerUser, freePort } from '../../lib/server/embedded/cluster.js'
import { runCli } from '../helpers/cli.js'

const BIN = '/usr/lib/postgresql/15/bin'
const LIBRARY = '/usr/lib/postgresql/15/lib/pg_wait_sampling.so'
const skip = existsSync(join(BIN, 'initdb')) && existsSync(LIBRARY) ? false : 'PostgreSQL 15 with pg_wait_sampling (postgresql-15-pg-wait-sampling) is not installed'
const run = promisify(execFile)
let base
let url
let stopServer = () => {}

before(async () => {
  if (skip) return
  const ids = await serverUser()
  base = mkdtempSync(join(tmpdir(), 'pgload-pgws-'))
  chmodSync(base, 0o700)
  await giveToServerUser(base, ids)
  const data = join(base, 'data')
  const as = { ...ids, timeout: 60000 }
  await run(join(BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '--no-instructions'], as)
  appendFileSync(join(data, 'postgresql.conf'), "\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = ''\nfsync = off\nshared_preload_libraries = 'pg_wait_sampling'\n")
  const port = await freePort()
  await run(join(BIN, 'pg_ctl'), ['-D', data, '-w', '-t', '60', '-l', join(base, 'server.log'), '-o', `-p ${port}`, 'start'], as)
  stopServer = () => run(join(BIN, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], as).catch(() => {})
  url = `postgres://postgres@127.0.0.1:${port}/postgres`
  await run(join(BIN, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-qAtc', 'CREATE EXTENSION pg_wait_sampling'], { timeout: 30000 })
}, { timeout: 120000 })

after(async () => {
  await stopServer()
  if (base) rmSync(base, { recursive: true, force: true })
})

test('with pg_wait_sampling installed, the run names it and samples pg_stat_activity, joined to its transactions', { skip, timeout: 60000 }, async () => {
  const script = join(base, 'sleep.sql')
  writeFileSync(script, 'SELECT pg_sleep(0.02);\n')
  const out = join(base, 'run.json')
  const r = await runCli(['run', '-f', script, '-c', '2', '-T', '2s', '--url', url, '--out', out, '--no-server-stats'])
  assert.equal(r.code, 0, r.stderr)
  const { waits } = JSON.parse(readFileSync(out, 'utf8'))
  assert.equal(waits.available, true, JSON.stringify(waits))
  assert.equal(waits.pgWaitSampling, true)
  assert.equal(waits.source, 'pg_stat_activity')
  // the samples are the run's transactions' own: pg_sleep's wait, as on a server without it
  const [type] = Object.values(waits.types)
  const sleep = type.events.find((e) => e.event === 'Timeout:PgSleep')
  assert.ok(sleep && sleep.share >= 0.9, JSON.stringify(type.events))
  assert.match(r.stdout, /pg_wait_sampling is installed/)
})
