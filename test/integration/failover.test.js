// A failover during a run, on a real primary and streaming standby (PostgreSQL 15's binaries, on
// loopback, removed after): the primary stops as in a crash, the standby is promoted, and a run
// whose URL names both hosts with target_session_attrs=read-write goes on within its
// --reconnect-window, its new connections on the promoted standby.

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

/** pgbench_history rows on the server at `port`. */
async function historyRows (port) {
  const conn = await openConnection(resolveTarget({ url: `host=127.0.0.1 port=${port} user=postgres dbname=postgres sslmode=disable`, env: {} }), { protocol: 'simple' })
  try {
    return Number((await conn.simpleQuery('select count(*) from pgbench_history')).rows[0][0])
  } finally {
    await conn.close()
  }
}

test('the primary crashes, the standby is promoted: the run reconnects to it within --reconnect-window and goes on', { skip, timeout: 120000 }, async () => {
  const init = await runCli(['init', 'tpcb', '--scale', '1', '--url', `host=127.0.0.1 port=${pair.primaryPort} user=postgres dbname=postgres sslmode=disable`], { timeoutMs: 60000 })
  assert.equal(init.code, 0, init.stderr)
  const out = join(dir, 'failover.json')
  let failover = null
  const r = await runCli(['run', 'tpcb', '-c', '4', '-T', '14s', '--reconnect-window', '30s', '--url', both(), '--out', out], {
    timeoutMs: 90000,
    onSpawn (child) {
      child.stderr.on('data', (d) => {
        if (failover || !String(d).includes('pgload: running')) return
        failover = (async () => {
          await sleep(3000)
          await pair.stopPrimary()
          await sleep(1000)
          await pair.promoteStandby()
        })()
      })
    }
  })
  await failover
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stderr, /pgload: cannot reconnect to the server \(.*\); retrying for up to 30 s \(--reconnect-window\)/)
  assert.match(r.stderr, /pgload: reconnected to the server after \d+\.\d s/)
  const results = JSON.parse(readFileSync(out, 'utf8'))
  const s = results.summary
  assert.ok(s.failed + s.outcomeUnknown + s.unfinished > 0 || s.transactions > 0)
  // the last seconds' transactions committed on the promoted standby
  const last = results.intervals.slice(-3)
  assert.ok(last.every((i) => i.tps > 0), `tps of the last intervals: ${last.map((i) => i.tps)}`)
  const onNewPrimary = await historyRows(pair.standbyPort)
  assert.ok(onNewPrimary > 0, 'history rows on the promoted standby')
  assert.ok(onNewPrimary <= s.transactions + s.outcomeUnknown, `${onNewPrimary} rows; ${s.transactions} committed, ${s.outcomeUnknown} outcome unknown`)
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
