// compare says why: a PG15 primary with a synchronous standby that applies WAL 10 ms late, the
// same tpcb-like run with synchronous_commit local (A) and remote_apply (B: each commit waits for
// the standby to apply it): B is slower, and compare names the wait that grew, the commit's wait
// for the standby (IPC:SyncRep); two runs of A name none. (Without the delay the standby's apply
// is a fraction of a millisecond here, and what grows most is the CPU the two servers and the
// client share on this machine, which compare rightly shows as the client's reads growing.)

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../helpers/cli.js'
import { startStandbyPair, haveStandbyBinaries } from '../helpers/standby-pair.js'
import { openConnection } from '../../lib/db/connection.js'
import { resolveTarget } from '../../lib/server/target/resolve-target.js'

const skip = haveStandbyBinaries() ? false : 'PostgreSQL 15 binaries are not installed'
let pair
let url
const dir = mkdtempSync(join(tmpdir(), 'pgload-explained-'))

before(async () => {
  if (skip) return
  pair = await startStandbyPair()
  url = `host=127.0.0.1 port=${pair.primaryPort} user=postgres dbname=postgres sslmode=disable`
  await sql(pair.primaryPort, "alter system set synchronous_standby_names = '*'")
  // the standby applies each commit 10 ms after it was made: remote_apply commits wait that long
  await sql(pair.standbyPort, "alter system set recovery_min_apply_delay = '10ms'")
  const init = await runCli(['init', 'tpcb', '--scale', '1', '--url', url], { timeoutMs: 60000 })
  assert.equal(init.code, 0, init.stderr)
}, { timeout: 120000 })

/** A statement and a configuration reload on the server at `port`. */
async function sql (port, text) {
  const conn = await openConnection(resolveTarget({ url: `host=127.0.0.1 port=${port} user=postgres dbname=postgres sslmode=disable`, env: {} }), { protocol: 'simple' })
  try {
    await conn.simpleQuery(text)
    await conn.simpleQuery('select pg_reload_conf()')
  } finally {
    await conn.close()
  }
}

after(() => {
  pair?.stop()
  rmSync(dir, { recursive: true, force: true })
})

/** A 5 s tpcb-like run of one client (no lock waits between clients) with these session settings. */
async function run (name, pgoptions) {
  const out = join(dir, `${name}.json`)
  const r = await runCli(['run', 'tpcb', '-c', '1', '-T', '5s', '-n', '--url', url, '--out', out], { timeoutMs: 60000, env: { ...process.env, PGOPTIONS: pgoptions } })
  assert.equal(r.code, 0, r.stderr)
  return out
}

test('B\'s commits wait for the standby: compare names that wait as what grew; two runs alike name none', { skip, timeout: 120000 }, async () => {
  const a = await run('a', '-c synchronous_commit=local')
  const b = await run('b', '-c synchronous_commit=remote_apply')
  const a2 = await run('a2', '-c synchronous_commit=local')
  const r = await runCli(['compare', a, '--', b, '--json'], { timeoutMs: 60000 })
  const v = JSON.parse(r.stdout)
  assert.ok(v.regressions > 0, `B is slower: ${JSON.stringify(v.rows.map((x) => [x.metric, x.txn, x.verdict]))}`)
  const why = v.explanation.find((x) => x.type === 'tpcb-like')
  assert.ok(why, JSON.stringify(v.explanation))
  assert.equal(why.events[0]?.event, 'IPC:SyncRep', `the top grown event: ${JSON.stringify(why.events)}`)
  const text = await runCli(['compare', a, '--', b], { timeoutMs: 60000 })
  assert.match(text.stdout, /^why: the server's wait events whose time per transaction grew/m)
  assert.match(text.stdout, /^ {2}tpcb-like: IPC:SyncRep [\d.]+ ms -> [\d.]+ ms \(\+[\d.]+ \[[\d.]+, [\d.]+\]\)/m)
  const same = JSON.parse((await runCli(['compare', a, '--', a2, '--json'], { timeoutMs: 60000 })).stdout)
  assert.deepEqual((same.explanation ?? []).flatMap((x) => x.events.filter((e) => e.event === 'IPC:SyncRep')), [], 'runs alike: the standby\'s wait did not grow')
  process.stdout.write(`# ${text.stdout.split('\n').filter((l) => /^(why| {2}tpcb)/.test(l)).join('\n# ')}\n`)
})
