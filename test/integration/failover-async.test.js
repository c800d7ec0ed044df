// The RPO check catches what asynchronous replication loses: a PG15 primary whose standby streams
// WAL through a relay on loopback; the relay holds the stream (as a slow network would) while the
// run's commits are acknowledged, the primary stops as in a crash and the standby is promoted.
// The commits the standby never received are counted missing.

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
const dir = mkdtempSync(join(tmpdir(), 'pgload-failover-async-'))

before(async () => {
  if (skip) return
  pair = await startStandbyPair({ walRelay: true })
}, { timeout: 120000 })

after(() => {
  pair?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const at = (port) => `host=127.0.0.1 port=${port} user=postgres dbname=postgres sslmode=disable`

/** Wait until the standby has replayed what the primary has written. */
async function caughtUp () {
  const primary = await openConnection(resolveTarget({ url: at(pair.primaryPort), env: {} }), { protocol: 'simple' })
  try {
    for (let i = 0; i < 200; i++) {
      const r = await primary.simpleQuery('select count(*) from pg_stat_replication where replay_lsn = pg_current_wal_lsn()')
      if (Number(r.rows[0][0]) === 1) return
      await sleep(100)
    }
    throw new Error('the standby did not catch up in 20 s')
  } finally {
    await primary.close()
  }
}

test('asynchronous replication held back, then a crash and a promotion: the RPO check counts the commits the standby never received', { skip, timeout: 120000 }, async () => {
  const init = await runCli(['init', 'tpcb', '--scale', '1', '--url', at(pair.primaryPort)], { timeoutMs: 60000 })
  assert.equal(init.code, 0, init.stderr)
  await caughtUp()
  const out = join(dir, 'async.json')
  let failover = null
  const url = `host=127.0.0.1,127.0.0.1 port=${pair.primaryPort},${pair.standbyPort} user=postgres dbname=postgres sslmode=disable connect_timeout=2 target_session_attrs=read-write`
  const r = await runCli(['run', 'tpcb', '-c', '4', '-T', '10s', '--failover', '--url', url, '--out', out], {
    timeoutMs: 90000,
    onSpawn (child) {
      child.stderr.on('data', (d) => {
        if (failover || !String(d).includes('pgload: running')) return
        failover = (async () => {
          await sleep(2000)
          pair.walRelay.pause() // the standby receives nothing more; the primary acknowledges on
          await sleep(1000)
          await pair.stopPrimary()
          await pair.promoteStandby()
        })()
      })
    }
  })
  await failover
  assert.equal(r.code, 0, r.stderr)
  const results = JSON.parse(readFileSync(out, 'utf8'))
  const { rpo } = results.failover
  assert.equal(results.failover.detected, true)
  assert.equal(rpo.checked, results.summary.transactions)
  // about a second of commits, acknowledged by the primary alone, never reached the standby
  assert.ok(rpo.missing > 0, `missing ${rpo.missing} of ${rpo.checked}`)
  assert.equal(rpo.missing, rpo.checked - rpo.found)
  assert.match(r.stdout, new RegExp(`^failover: RPO check on 127\\.0\\.0\\.1:${pair.standbyPort}: [\\d,]+ acknowledged commits, [\\d,]+ rows found, [\\d,]+ acknowledged commits? MISSING$`, 'm'))
  // listed by their pgbench_history values: the first ones, and how many
  const listed = rpo.missingCommits
  // matched by value: rows of commits whose outcome the client never learnt count as found in `missing`
  assert.ok(listed.count >= rpo.missing && listed.count <= rpo.missing + results.failover.outcomeUnknown, `${listed.count} listed, ${rpo.missing} missing`)
  assert.equal(listed.first.length, Math.min(20, rpo.missing))
  for (const c of listed.first) {
    assert.ok(c.aid >= 1 && c.aid <= 100000 && c.bid === 1 && c.tid >= 1 && c.tid <= 10 && Math.abs(c.delta) <= 5000, JSON.stringify(c))
  }
  const shown = listed.first.slice(0, 3).map((c) => `\\(tid ${c.tid}, bid ${c.bid}, aid ${c.aid}, delta ${c.delta}\\)`).join(', ')
  assert.match(r.stdout, new RegExp(`^failover: missing by their pgbench_history values: ${shown}`, 'm'))
  process.stdout.write(`# ${r.stdout.split('\n').filter((l) => l.startsWith('failover:')).join('\n# ')}\n`)
})
