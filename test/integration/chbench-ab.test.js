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

const db = scratchDatabase(`pgload_chbench_ab_${process.pid}`)
const dir = mkdtempSync(join(tmpdir(), 'pgload-chbench-ab-'))
// a band wider than this shared machine's run-to-run noise in tps: work_mem moves q19 by half
const NOISE = ['--noise', '15']

before(async () => {
  await db.create()
  for (const args of [['init', 'chbench', '--warehouses', '1', '--seed', '3'], ['init', 'tpcb', '--scale', '1']]) {
    const r = await runCli([...args, '--url', db.url])
    assert.equal(r.code, 0, r.stderr)
  }
})
after(async () => {
  await db.drop()
  rmSync(dir, { recursive: true, force: true })
})

const ab = async (name, run) => {
  const r = await runCli(['ab', '--a', 'work_mem=64kB', '--b', 'work_mem=64MB', '--rounds', '1', ...NOISE, '--json', '--out-dir', join(dir, name), '--',
    'run', ...run, '--url', db.url, '--no-wait-sampling'], { timeoutMs: 180_000 })
  assert.equal(r.code, 0, r.stderr)
  return JSON.parse(r.stdout)
}

test('work_mem 64kB -> 64MB: a hash- or sort-heavy query differs significantly; tpcb-like does not', async () => {
  const ch = await ab('chbench', ['chbench', '--warehouses', '1', '--streams', '1', '--no-wait', '-T', '4', '--queries', 'q16,q19'])
  const differing = ch.rows.filter((r) => /^q\d+$/.test(r.txn ?? '') && r.verdict !== '~')
  assert.ok(differing.some((r) => ['q16', 'q19'].includes(r.txn)), JSON.stringify(ch.rows.filter((r) => r.txn === 'q19')))
  const tp = await ab('tpcb', ['tpcb', '-c', '2', '-T', '4'])
  assert.deepEqual(tp.rows.filter((r) => r.verdict !== '~').map((r) => r.id), [])
})
