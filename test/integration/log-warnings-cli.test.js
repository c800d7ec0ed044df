// Warnings of a run reach stderr as one human line each; pino JSON (with stacks) only with
// --verbose or in --log-file.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { runCli } from '../helpers/cli.js'
import { openConnection } from '../../lib/db/connection.js'
import { initCommand } from '../../lib/cli/init.js'

const DB = `pgload_log_warnings_${process.pid}`
const ROLE = `pgload_plain_${process.pid}`
const PASSWORD = 'plain-pw'
// pgbench's own words when the role may not VACUUM pgbench_history before the run, said as pgload
const VACUUM_MESSAGE = 'permission denied for table pgbench_history (ignoring this error and continuing anyway)'
const VACUUM_WARNING = `pgload: warning: ${VACUUM_MESSAGE}`
const dir = mkdtempSync(join(tmpdir(), 'pgload-log-warnings-'))
let admin
let url

before(async () => {
  const server = await getTestServer()
  const c = server.target.config
  admin = await openConnection(server.target)
  await admin.simpleQuery(`drop database if exists ${DB}`)
  await admin.simpleQuery(`create database ${DB}`)
  await admin.simpleQuery(`drop role if exists ${ROLE}; create role ${ROLE} login password '${PASSWORD}'`)
  const owner = `postgres://${encodeURIComponent(c.user)}:${encodeURIComponent(c.password ?? '')}@${c.host}:${c.port}/${DB}`
  await initCommand({ workload: 'tpcb', url: owner, env: {}, options: { scale: 1 }, stderr: { write () {} } })
  const conn = await openConnection({ ...server.target, config: { ...c, database: DB } })
  await conn.simpleQuery(`grant select, insert, update on pgbench_accounts, pgbench_branches, pgbench_tellers, pgbench_history to ${ROLE}`)
  await conn.close()
  url = `postgres://${ROLE}:${PASSWORD}@${c.host}:${c.port}/${DB}`
})

after(async () => {
  await admin?.simpleQuery(`drop database if exists ${DB}`)
  await admin?.simpleQuery(`drop role if exists ${ROLE}`)
  await admin?.close()
  rmSync(dir, { recursive: true, force: true })
})

test('a warning is one human line on stderr: no JSON, no stack', async () => {
  const r = await runCli(['run', 'tpcb', '-t', '5', '--no-server-stats', '--url', url, '-o', join(dir, 'a.json')])
  assert.equal(r.code, 0, r.stderr)
  assert.ok(r.stderr.split('\n').includes(VACUUM_WARNING), r.stderr)
  assert.doesNotMatch(r.stderr, /"level"|\n\s+at /)
})

test('--verbose keeps the pino record; --log-file gets it and stderr does not', async () => {
  const verbose = await runCli(['run', 'tpcb', '-t', '5', '--no-server-stats', '--url', url, '-o', join(dir, 'b.json'), '--verbose'])
  assert.equal(verbose.code, 0, verbose.stderr)
  const record = verbose.stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).find((o) => o.level === 40)
  assert.equal(record?.msg, VACUUM_MESSAGE)

  const logFile = join(dir, 'log.json')
  const logged = await runCli(['run', 'tpcb', '-t', '5', '--no-server-stats', '--url', url, '-o', join(dir, 'c.json'), '--log-file', logFile])
  assert.equal(logged.code, 0, logged.stderr)
  assert.doesNotMatch(logged.stderr, /permission denied/)
  const records = readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
  assert.ok(records.some((o) => o.level === 40 && o.msg === VACUUM_MESSAGE))
})
