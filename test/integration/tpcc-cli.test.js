// End to end through bin/pgload.js: init, bad input, a short unpaced run with its tpcc results,
// and `verify tpcc`.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { verifyCommand } from '../../lib/cli/verify.js'
import { openConnection } from '../../lib/db/connection.js'

const BIN = new URL('../../bin/pgload.js', import.meta.url).pathname
let url
let target

before(async () => { ({ url, target } = await getTestServer()) })

// every results directory the runs write to, removed at the end
const dirs = []
const tempDir = () => { const d = mkdtempSync(join(tmpdir(), 'pgload-tpcc-')); dirs.push(d); return d }
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }) })

function pgload (...args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1' } })
    let stdout = ''; let stderr = ''
    child.stdout.on('data', d => { stdout += d })
    child.stderr.on('data', d => { stderr += d })
    child.on('close', code => resolve({ code, stdout, stderr }))
  })
}

const errorLine = (r) => r.stderr.split('\n').filter(l => l.startsWith('pgload:')).pop()

test('init, bad input, a 5 s --no-wait run with tpmC, a paced run, then verify', async () => {
  let r = await pgload('run', 'tpcc', '--url', url, '--duration', '2s')
  assert.equal(r.code, 1)
  assert.match(errorLine(r), /no TPC-C schema is loaded: run `pgload init tpcc --warehouses N` first/)

  r = await pgload('init', 'tpcc', '--url', url, '--warehouses', '1', '--seed', '5')
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stderr, /done in .* s \(item .* s, .*primary keys, indexes .* s.*consistency checks .* s\)/)

  for (const [args, message] of [
    [['--warehouses', '2'], /--warehouses 2 is more than the 1 loaded/],
    [['--warehouses', '0'], /--warehouses must be an integer in 1..100000, got "0"/],
    [['--mix', '45,43,4,4,5'], /--mix must add up to 100/],
    [['--mix', '55,33,4,4,4'], /breaks the TPC-C minimums/]
  ]) {
    r = await pgload('run', 'tpcc', '--url', url, '--duration', '2s', '--no-server-stats', ...args)
    assert.equal(r.code, 1, args.join(' '))
    assert.match(errorLine(r), message)
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace')
  }

  const out = join(tempDir(), 'run.json')
  r = await pgload('run', 'tpcc', '--url', url, '--warehouses', '1', '--no-wait', '--duration', '5s', '--out', out, '--no-server-stats')
  assert.equal(r.code, 0, r.stderr)
  const doc = JSON.parse(readFileSync(out, 'utf8'))
  assert.equal(doc.run.workload, 'tpcc')
  assert.equal(doc.run.clients, 10)
  assert.equal(doc.run.paced, false)
  for (const t of ['new-order', 'payment', 'order-status', 'delivery', 'stock-level']) assert.ok(doc.transactions[t].count > 0, t)
  assert.equal(doc.summary.failed, 0)
  const no = doc.transactions['new-order']
  assert.ok(doc.tpcc.tpmC > 0)
  const expectedTpmC = (no.count - no.rollbacks) / (doc.run.durationS / 60)
  assert.ok(Math.abs(doc.tpcc.tpmC - expectedTpmC) < expectedTpmC * 1e-4, `tpmC ${doc.tpcc.tpmC}, committed New-Orders per minute ${expectedTpmC}`)
  assert.ok(Math.abs(doc.tpcc.nopm - doc.tpcc.tpmC) / doc.tpcc.tpmC < 0.05, `NOPM ${doc.tpcc.nopm} vs tpmC ${doc.tpcc.tpmC}`)
  assert.equal(doc.tpcc.pacing, 'unpaced')
  assert.equal(doc.tpcc.warehouses, 1)
  assert.ok(Math.abs(doc.tpcc.efficiency - 100 * doc.tpcc.tpmC / 12.86) < 0.05, `efficiency ${doc.tpcc.efficiency}`)
  assert.deepEqual(Object.keys(doc.tpcc.responseTime), ['new-order', 'payment', 'order-status', 'delivery', 'stock-level'])
  assert.equal(doc.tpcc.responseTime['stock-level'].limitMs, 20000)

  // Spec pacing scaled down 100x: paced, with Delivery deferred to workers.
  const pacedOut = join(tempDir(), 'paced.json')
  r = await pgload('run', 'tpcc', '--url', url, '--wait-scale', '0.01', '--duration', '4s', '--out', pacedOut, '--no-server-stats')
  assert.equal(r.code, 0, r.stderr)
  const paced = JSON.parse(readFileSync(pacedOut, 'utf8'))
  assert.equal(paced.run.paced, true)
  assert.equal(paced.tpcc.pacing, 'spec-paced')
  assert.equal(paced.tpcc.waitScale, 0.01)
  assert.equal(paced.tpcc.delivery.mode, 'deferred')
  assert.equal(paced.tpcc.delivery.pending, 0)
  assert.equal(paced.tpcc.delivery.failed, 0)
  assert.ok(paced.run.connections < 10, `paced pool ${paced.run.connections}`)
  assert.ok(Math.abs(paced.transactions['new-order'].keyingMs.mean - 180) < 1, 'keying 18 s x 0.01')

  r = await pgload('verify', 'tpcc', '--url', url)
  assert.equal(r.code, 0, r.stderr)
  assert.equal(r.stdout.match(/^pass /gm).length, 11)
  assert.match(r.stdout, /^skip {2}11\. count\(ORDER\) - count\(NEW-ORDER\) = 2100 .*Delivery has run/m)
  assert.match(r.stdout, /tpcc: all 11 checks passed \(1 not applicable\)/)

  const conn = await openConnection(target)
  try {
    await conn.query('UPDATE district SET d_ytd = d_ytd + 5 WHERE d_w_id = 1 AND d_id = 3')
  } finally {
    await conn.close()
  }
  r = await pgload('verify', 'tpcc', '--url', url)
  assert.equal(r.code, 1)
  assert.match(errorLine(r), /^pgload: tpcc: 2 of 12 consistency checks failed$/)
  assert.match(r.stdout, /^FAIL {2}1\. W_YTD = sum\(D_YTD\) +1 violation$/m)
  assert.match(r.stdout, /^FAIL {2}9\. D_YTD = sum\(H_AMOUNT\) +1 violation$/m)

  // The library entry point gives the same verdict.
  const lines = []
  await assert.rejects(verifyCommand({ workload: 'tpcc', url, stdout: { write: s => lines.push(s) } }),
    (err) => err.exitCode === 1 && /tpcc: 2 of 12 consistency checks failed/.test(err.message))
  assert.match(lines.join(''), /^pass {2}2\. /m)
})
