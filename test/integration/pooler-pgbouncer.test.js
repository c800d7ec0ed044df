// Runs through PgBouncer (the system's pgbouncer, on a free loopback port in front of the test
// server): its pool read at every interval into the results' `pooler` section and the summary,
// -M prepared in transaction pooling as this PgBouncer version does it, and a run against
// PostgreSQL itself with no pooler section and no word about one.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { runCli } from '../helpers/cli.js'
import { PGBOUNCER, pgbouncerVersion, startPgbouncer } from '../helpers/pgbouncer.js'
import { versionAtLeast } from '../../lib/server/pooler/admin-rows.js'

const skip = existsSync(PGBOUNCER) ? false : `no ${PGBOUNCER}`
const dir = mkdtempSync(join(tmpdir(), 'pgload-pooler-'))
let server
let bouncer

before(async () => {
  if (skip) return
  server = await getTestServer()
  const init = await runCli(['init', 'tpcb', '--scale', '1', '--force', '--url', server.url])
  assert.equal(init.code, 0, init.stderr)
  bouncer = await startPgbouncer(server, { poolMode: 'transaction', poolSize: 2 })
}, { timeout: 120_000 })

after(async () => {
  await bouncer?.stop()
  rmSync(dir, { recursive: true, force: true })
})

async function run (name, args) {
  const out = join(dir, `${name}.json`)
  const r = await runCli(['run', 'tpcb', '-n', '--out', out, ...args], { timeoutMs: 90_000 })
  return { ...r, results: existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : null }
}

test('8 clients through a transaction pool of 2: clients wait in the pooler, at most 2 server connections', { skip, timeout: 120_000 }, async () => {
  const r = await run('pooled', ['-c', '8', '-T', '3s', '-M', 'extended', '--url', bouncer.url()])
  assert.equal(r.code, 0, r.stderr)
  assert.doesNotMatch(r.stderr, /warning/)
  const p = r.results.pooler
  assert.equal(p.kind, 'pgbouncer')
  assert.equal(p.version, pgbouncerVersion())
  assert.equal(p.found, 'detected')
  assert.equal(p.poolMode, 'transaction')
  assert.equal(p.poolSize, 2)
  assert.equal(p.database, 'postgres')
  // one reading per interval of the measured window, the final ragged one too
  assert.deepEqual(p.series.map((e) => e.t), r.results.intervals.map((iv) => iv.t))
  assert.ok(p.series.some((e) => e.clientsWaiting > 0), JSON.stringify(p.series))
  assert.ok(p.series.every((e) => e.serversActive <= 2), JSON.stringify(p.series))
  assert.ok(p.maxClientsWaiting > 0 && p.maxClientsWaiting <= 8)
  assert.ok(p.waitingIntervals > 0)
  assert.ok(p.maxServersActive >= 1 && p.maxServersActive <= 2)
  // the pooler counted the run's transactions (its readings bound a window a little off the run's)
  assert.ok(p.transactions > r.results.summary.transactions / 2, `${p.transactions} of ${r.results.summary.transactions}`)
  assert.match(r.stdout, /^pooler: PgBouncer \d+\.\d+(\.\d+)?, transaction pooling, pool of 2 server connections \(at most [12] in use\)$/m)
  assert.match(r.stdout, /^ {8}clients queued for a server connection in \d+ of \d+ intervals/m)
})

test('-M prepared in transaction pooling: as this PgBouncer version does it', { skip, timeout: 180_000 }, async () => {
  const version = pgbouncerVersion()
  if (versionAtLeast(version, 1, 21)) {
    // 1.21+ keeps prepared statements across server connections once max_prepared_statements is set
    const kept = await startPgbouncer(server, { poolMode: 'transaction', poolSize: 2, extra: { max_prepared_statements: 100 } })
    try {
      const r = await run('prepared-kept', ['-c', '8', '-T', '2s', '-M', 'prepared', '--url', kept.url()])
      assert.equal(r.code, 0, r.stderr)
      assert.equal(r.results.summary.failed, 0)
      assert.doesNotMatch(r.stderr, /prepared/)
    } finally {
      await kept.stop()
    }
    return
  }
  const r = await run('prepared', ['-c', '8', '-T', '2s', '-M', 'prepared', '--url', bouncer.url()])
  assert.equal(r.code, 2, r.stderr)
  const line = `pgload: warning: -M prepared through PgBouncer ${version} in transaction pooling fails: it keeps prepared statements only from version 1.21 on, with max_prepared_statements > 0;`
  assert.ok(r.stderr.includes(line), r.stderr)
  assert.match(r.stderr, /^hint: use -M extended or -M simple/m)
  assert.match(r.stderr, /prepared statement "P_\d+" (already exists|does not exist)/)
  // the warning comes before the run's errors, and stdout says clients aborted
  assert.ok(r.stderr.indexOf(line) < r.stderr.search(/prepared statement "P_\d+"/), r.stderr)
  assert.match(r.stdout, /^number of aborted clients: \d+ of 8 /m)
  assert.equal(r.results.pooler.version, version, 'the results are written, with the pooler\'s readings')
})

test('--pooler-admin: a console named is read; an address that is no console costs a warning, not the run', { skip, timeout: 120_000 }, async () => {
  const named = await run('named', ['-c', '2', '-T', '1s', '-M', 'extended', '--url', bouncer.url(), '--pooler-admin', `postgres://postgres@127.0.0.1:${bouncer.port}`])
  assert.equal(named.code, 0, named.stderr)
  assert.equal(named.results.pooler.found, 'named')
  assert.equal(named.results.run.options.poolerAdmin, undefined, 'an address, which may hold a password, is not recorded')
  const wrong = await run('wrong', ['-c', '2', '-T', '1s', '-M', 'extended', '--url', bouncer.url(), '--pooler-admin', server.url])
  assert.equal(wrong.code, 0, wrong.stderr)
  assert.match(wrong.stderr, /^pgload: warning: --pooler-admin: postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres is not a PgBouncer admin console/m)
  assert.equal(wrong.results.pooler, undefined)
})

test('a PgBouncer that does not let the run\'s user read its console: a warning with what to do, and the run goes on', { skip, timeout: 120_000 }, async () => {
  const closed = await startPgbouncer(server, { extra: { admin_users: 'somebody_else' } })
  try {
    const r = await run('not-allowed', ['-c', '2', '-T', '1s', '-M', 'extended', '--url', closed.url()])
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stderr, /^pgload: warning: PgBouncer at postgres:\/\/postgres@127\.0\.0\.1:\d+\/pgbouncer does not let postgres read its admin console: no pooler readings$/m)
    assert.match(r.stderr, /^hint: add postgres to stats_users in pgbouncer\.ini/m)
    assert.equal(r.results.pooler, undefined)
  } finally {
    await closed.stop()
  }
})

test('a run against PostgreSQL itself: no pooler section, no word about one', { skip, timeout: 120_000 }, async () => {
  const r = await run('direct', ['-c', '2', '-T', '1s', '--url', server.url])
  assert.equal(r.code, 0, r.stderr)
  assert.equal(r.results.pooler, undefined)
  assert.doesNotMatch(r.stderr, /warning|PgBouncer|pooler:|admin/)
  assert.doesNotMatch(r.stdout, /pooler:|PgBouncer/)
})
