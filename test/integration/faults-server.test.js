// A user's worst day, part 2: the server itself kills pgload's backends, then restarts. The
// committed count must match the rows tpcb-like wrote (pgbench_history), within the
// transactions whose outcome only the server knows; with both drivers.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { runCli } from '../helpers/cli.js'
import { startThrowawayCluster } from '../helpers/throwaway-cluster.js'
import { openConnection } from '../../lib/db/connection.js'

const dir = mkdtempSync(join(tmpdir(), 'pgload-faults-server-'))
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

after(() => rmSync(dir, { recursive: true, force: true }))

/** `pgload run tpcb` while `fault()` runs (started once the run is under way); its results. */
async function runDuring (url, name, args, fault) {
  const out = join(dir, `${name}.json`)
  let faulting = null
  const r = await runCli(['run', 'tpcb', '-c', '4', '--url', url, '--out', out, ...args], {
    timeoutMs: 60_000,
    onSpawn (child) {
      child.stderr.on('data', (d) => { if (!faulting && String(d).includes('pgload: running')) faulting = fault() })
    }
  })
  const faultResult = await faulting
  assert.equal(r.code, 0, r.stderr)
  return { r, results: JSON.parse(readFileSync(out, 'utf8')), faultResult }
}

async function assertReconciles (target, summary) {
  const conn = await openConnection(target, { protocol: 'simple', applicationName: 'pgload-test' })
  try {
    for (let i = 0; i < 50; i++) {
      const left = Number((await conn.simpleQuery("select count(*) from pg_stat_activity where application_name = 'pgload'")).rows[0][0])
      if (left === 0) break
      await sleep(100)
    }
    const rows = Number((await conn.simpleQuery('select count(*) from pgbench_history')).rows[0][0])
    assert.ok(summary.transactions > 0)
    assert.ok(rows >= summary.transactions && rows <= summary.transactions + summary.outcomeUnknown,
      `pgbench_history has ${rows} rows; ${summary.transactions} committed, ${summary.outcomeUnknown} outcome unknown`)
  } finally {
    await conn.close()
  }
}

let server
let admin
before(async () => {
  server = await getTestServer()
  const init = await runCli(['init', 'tpcb', '--scale', '1', '--force', '--url', server.url])
  assert.equal(init.code, 0, init.stderr)
  admin = await openConnection(server.target, { protocol: 'simple', applicationName: 'pgload-test' })
})
after(() => admin?.close())

for (const driver of ['lean', 'pg']) {
  test(`pg_terminate_backend of pgload's backends, again and again (--driver ${driver}): committed = history rows, within outcome unknown`, async () => {
    const { results, faultResult } = await runDuring(server.url, `terminate-${driver}`, ['-T', '4s', '--driver', driver], async () => {
      let killed = 0
      for (let i = 0; i < 5; i++) {
        await sleep(500)
        const r = await admin.simpleQuery("select count(pg_terminate_backend(pid)) from pg_stat_activity where application_name = 'pgload'")
        killed += Number(r.rows[0][0])
      }
      return killed
    })
    assert.ok(faultResult >= 4, `${faultResult} backends terminated`)
    const s = results.summary
    assert.ok(s.failed + s.outcomeUnknown >= 1, 'transactions cut mid-way are not counted as committed')
    await assertReconciles(server.target, s)
  })
}

test('a fast restart of the server mid-run: the run reconnects, goes on, and its counts reconcile', async () => {
  const cluster = await startThrowawayCluster()
  try {
    const init = await runCli(['init', 'tpcb', '--scale', '1', '--url', cluster.url])
    assert.equal(init.code, 0, init.stderr)
    const { r, results } = await runDuring(cluster.url, 'restart', ['-T', '5s'], async () => {
      await sleep(1000)
      await cluster.restartFast()
    })
    const s = results.summary
    assert.ok(s.failed + s.outcomeUnknown >= 1, 'the transactions the shutdown cut are not committed')
    assert.ok(results.intervals.slice(-2).some((iv) => iv.count['tpcb-like'] > 0), 'transactions commit again after the restart')
    assert.doesNotMatch(r.stderr, /the run ended early/)
    await assertReconciles(cluster.target, s)
  } finally {
    await cluster.stop()
  }
})
