// The wait sampler through PgBouncer: the keys PgBouncer gives pgload's connections are not the
// server's backend pids, so no row of pg_stat_activity has them. The sampler stops after a few
// reads (its transaction would hold one of the pool's server connections) and says why.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { runCli } from '../helpers/cli.js'
import { PGBOUNCER, startPgbouncer } from '../helpers/pgbouncer.js'

const skip = existsSync(PGBOUNCER) ? false : `no ${PGBOUNCER}`
const dir = mkdtempSync(join(tmpdir(), 'pgload-waits-pooler-'))
let bouncer

before(async () => {
  if (skip) return
  bouncer = await startPgbouncer(await getTestServer(), { poolSize: 2 })
})

after(async () => {
  await bouncer?.stop()
  rmSync(dir, { recursive: true, force: true })
})

test('through PgBouncer: the waits are absent with one reason, the run goes on', { skip }, async () => {
  const file = join(dir, 'sleep.sql')
  writeFileSync(file, 'SELECT pg_sleep(0.01);\n')
  const out = join(dir, 'run.json')
  const r = await runCli(['run', '-f', file, '-M', 'extended', '-c', '4', '-T', '2s', '--url', bouncer.url(), '--out', out, '--no-server-stats'])
  assert.equal(r.code, 0, r.stderr)
  const results = JSON.parse(readFileSync(out, 'utf8'))
  assert.equal(results.waits.available, false)
  assert.match(results.waits.reason, /a pooler \(PgBouncer\)/)
  assert.match(r.stdout, /^waits: not sampled: pg_stat_activity had no backend with the pids/m)
  assert.ok(results.summary.transactions > 0)
})
