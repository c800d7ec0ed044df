// `pgload ab` of work_mem over CH-benCHmark: 64 kB against 64 MB makes a hash- or sort-heavy
// analytic query faster, and ab says which; the same A/B over tpcb-like finds no difference.
// The one slow test of CH-benCHmark: a load and four short runs.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { scratchDatabase } from '../helpers/scratch-database.js'
import { runCli } from '../helpers/cli.js'
import { openConnection } from '../../lib/db/connection.js'

const db = scratchDatabase(`pgload_chbench_ab_${process.pid}`)
const dir = mkdtempSync(join(tmpdir(), 'pgload-chbench-ab-'))
// "no difference" needs the noise between runs, which one run per side cannot show (tpcb-like's
// tails move between two runs on a shared machine by tens of percent): five short runs a side,
// and a level at which five against five is significant only when every B run lies beyond every A run
const TPCB_ROUNDS = ['--rounds', '5', '--alpha', '0.01']

before(async () => {
  await db.create()
  for (const args of [['init', 'chbench', '--warehouses', '1', '--seed', '3'], ['init', 'tpcb', '--scale', '1']]) {
    const r = await runCli([...args, '--url', db.url])
    assert.equal(r.code, 0, r.stderr)
  }
  // the loads' dirty pages and autovacuum would slow whichever side runs first (A): settle them
  const conn = await openConnection(db.target)
  try {
    await conn.query('vacuum analyze')
    await conn.query('checkpoint')
  } finally {
    await conn.close()
  }
})
after(async () => {
  await db.drop()
  rmSync(dir, { recursive: true, force: true })
})

const ab = async (name, run, rounds = ['--rounds', '1']) => {
  const r = await runCli(['ab', '--a', 'work_mem=64kB', '--b', 'work_mem=64MB', ...rounds, '--json', '--out-dir', join(dir, name), '--',
    'run', ...run, '--url', db.url, '--no-wait-sampling'], { timeoutMs: 180_000 })
  assert.equal(r.code, 0, r.stderr)
  return JSON.parse(r.stdout)
}

test('work_mem 64kB -> 64MB: a hash- or sort-heavy query differs significantly; tpcb-like does not', async () => {
  // first, before the TPC-C terminals' writes leave work for the server to catch up on
  const tp = await ab('tpcb', ['tpcb', '-c', '2', '-T', '2'], TPCB_ROUNDS)
  const called = tp.rows.filter((r) => r.verdict !== '~')
  assert.deepEqual(called.map((r) => r.id), [], JSON.stringify(called.map((r) => [r.id, r.a.median, r.b.median, r.change])))
  // q19 joins order_line to item by hash: in 64 kB the hash join runs in batches
  const ch = await ab('chbench', ['chbench', '--warehouses', '1', '--streams', '1', '--no-wait', '-T', '6', '--queries', 'q19'])
  const q19 = ch.rows.filter((r) => r.txn === 'q19')
  assert.ok(q19.some((r) => r.verdict === 'better'), JSON.stringify(q19.map((r) => [r.id, r.a?.median, r.b?.median, r.verdict, r.note])))
})
