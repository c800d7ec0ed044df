// A failover during a run, on a real primary and streaming standby (PostgreSQL 15's binaries, on
// loopback, removed after): the primary stops as in a crash, the standby is promoted, and a run
// whose URL names both hosts with target_session_attrs=read-write goes on within its
// --reconnect-window, its new connections on the promoted standby; --failover measures it.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../helpers/cli.js'
import { startStandbyPair, haveStandbyBinaries } from '../helpers/standby-pair.js'
import { openConnection } from '../../lib/db/connection.js'
import { resolveTarget } from '../../lib/server/target/resolve-target.js'

const skip = haveStandbyBinaries() ? false : 'PostgreSQL 15 binaries are not installed'
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
let pair
const dir = mkdtempSync(join(tmpdir(), 'pgload-failover-'))

before(async () => {
  if (skip) return
  pair = await startStandbyPair()
}, { timeout: 120000 })

after(() => {
  pair?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const both = () => `host=127.0.0.1,127.0.0.1 port=${pair.primaryPort},${pair.standbyPort} user=postgres dbname=postgres sslmode=disable connect_timeout=2 target_session_attrs=read-write`

/** One statement on the server at `port`. */
async function sql (port, text) {
  const conn = await openConnection(resolveTarget({ url: `host=127.0.0.1 port=${port} user=postgres dbname=postgres sslmode=disable`, env: {} }), { protocol: 'simple' })
  try {
    return await conn.simpleQuery(text)
  } finally {
    await conn.close()
  }
}

test('the primary crashes, the standby is promoted: with --failover the run reconnects to it, and measures the outage and the RPO (synchronous replication: none missing)', { skip, timeout: 120000 }, async () => {
  const primary = `host=127.0.0.1 port=${pair.primaryPort} user=postgres dbname=postgres sslmode=disable`
  const init = await runCli(['init', 'tpcb', '--scale', '1', '--url', primary], { timeoutMs: 60000 })
  assert.equal(init.code, 0, init.stderr)
  await sql(pair.primaryPort, "alter system set synchronous_standby_names = '*'")
  await sql(pair.primaryPort, 'select pg_reload_conf()')
  const out = join(dir, 'failover.json')
  const r = await runCli(['run', 'tpcb', '-c', '4', '-T', '14s', '--failover', '--trigger', pair.failoverCommand, '--trigger-at', '3s', '--url', both(), '--out', out], { timeoutMs: 90000 })
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stderr, /^pgload: --trigger at [23]\.\d s: .*pg_ctl .* promote$/m)
  assert.match(r.stderr, /pgload: cannot reconnect to the server \(.*\); retrying for up to 60 s \(--reconnect-window\)/)
  assert.match(r.stderr, /pgload: reconnected to the server after \d+\.\d s/)
  const results = JSON.parse(readFileSync(out, 'utf8'))
  const s = results.summary
  // the last seconds' transactions committed on the promoted standby
  const last = results.intervals.slice(-3)
  assert.ok(last.every((i) => i.tps > 0), `tps of the last intervals: ${last.map((i) => i.tps)}`)
  const trigger = results.run.trigger
  assert.equal(trigger.error, null)
  assert.ok(Math.abs(trigger.atS - 3) < 0.5, `the trigger ran at ${trigger.atS} s`)
  const tookMs = trigger.seconds * 1000
  const f = results.failover
  assert.equal(f.detected, true)
  assert.ok(f.firstErrorS >= trigger.atS && f.firstErrorS <= trigger.atS + trigger.seconds, `first error at ${f.firstErrorS} s; the trigger ran from ${trigger.atS} s for ${trigger.seconds} s`)
  assert.ok(f.reconnectedS > f.firstErrorS)
  // the commits' own timestamps: no commit for at least the second between the stop and the
  // promotion, and not much longer than the test's stop, wait and promotion took
  assert.ok(f.outageMs >= 1000 && f.outageMs <= tookMs + 2000, `outage ${f.outageMs} ms; the test's failover took ${Math.round(tookMs)} ms`)
  assert.equal(f.rpo.server, `127.0.0.1:${pair.standbyPort}`)
  assert.equal(f.rpo.checked, s.transactions)
  assert.equal(f.rpo.missing, 0, 'synchronous replication: every acknowledged commit is on the new primary')
  assert.deepEqual(f.rpo.missingCommits, { count: 0, first: [] }, 'each acknowledged commit matched by its values')
  assert.ok(f.rpo.found <= s.transactions + s.outcomeUnknown, `${f.rpo.found} rows; ${s.transactions} committed, ${s.outcomeUnknown} outcome unknown`)
  assert.ok(f.failed.during + s.outcomeUnknown + s.unfinished > 0, 'the crash cost the transactions in flight')
  assert.equal(Object.values(f.errors.during).reduce((a, b) => a + b, 0), f.failed.during, 'the failures during it, by SQLSTATE')
  assert.match(r.stdout, /^failover: write outage [\d,]+ ms \(last commit before .+, first after .+, server time\)$/m)
  assert.match(r.stdout, /^failover: RPO check on 127\.0\.0\.1:\d+: [\d,]+ acknowledged commits, [\d,]+ rows found, none missing$/m)
  process.stdout.write(`# ${r.stdout.split('\n').filter((l) => l.startsWith('failover:')).join('\n# ')}\n`)
})

test('TPC-C with --failover and no failover: none seen, and the RPO check finds every committed New-Order in orders, each by its key', { skip, timeout: 90000 }, async () => {
  // the promoted standby is the primary now
  const url = `host=127.0.0.1 port=${pair.standbyPort} user=postgres dbname=postgres sslmode=disable`
  const init = await runCli(['init', 'tpcc', '--warehouses', '1', '--url', url], { timeoutMs: 60000 })
  assert.equal(init.code, 0, init.stderr)
  const out = join(dir, 'tpcc.json')
  const r = await runCli(['run', 'tpcc', '--warehouses', '1', '--no-wait', '-T', '3s', '--warmup', '0', '--failover', '--url', url, '--out', out], { timeoutMs: 60000 })
  assert.equal(r.code, 0, r.stderr)
  const results = JSON.parse(readFileSync(out, 'utf8'))
  const newOrder = results.transactions['new-order']
  assert.equal(results.failover.detected, false)
  assert.deepEqual(results.failover.rpo, {
    checked: newOrder.count - newOrder.rollbacks,
    found: newOrder.count - newOrder.rollbacks,
    missing: 0,
    server: results.failover.rpo.server,
    // each committed New-Order matched by its orders key
    missingCommits: { count: 0, first: [] }
  })
  assert.ok(newOrder.count > 0)
  assert.match(r.stdout, /^failover: none seen/m)
  assert.match(r.stdout, /^failover: RPO check on .+: [\d,]+ acknowledged commits, [\d,]+ rows found, none missing$/m)
})

test('without a server to reconnect to, the run ends when --reconnect-window runs out: exit 2, results written', { skip, timeout: 60000 }, async () => {
  const out = join(dir, 'lost.json')
  let stopped = null
  const r = await runCli(['run', 'tpcb', '-c', '2', '-T', '60s', '--reconnect-window', '2s', '--url', `host=127.0.0.1 port=${pair.standbyPort} user=postgres dbname=postgres sslmode=disable connect_timeout=1`, '--out', out], {
    timeoutMs: 50000,
    onSpawn (child) {
      child.stderr.on('data', (d) => {
        if (stopped || !String(d).includes('pgload: running')) return
        stopped = sleep(1500).then(() => pair.stopStandby())
      })
    }
  })
  await stopped
  assert.equal(r.code, 2, r.stderr)
  assert.match(r.stderr, /retrying for up to 2 s \(--reconnect-window\)/)
  const results = JSON.parse(readFileSync(out, 'utf8'))
  assert.ok(results.summary.transactions > 0)
  assert.ok(results.run.durationS < 30, `ended after ${results.run.durationS} s of the 60 asked`)
})
