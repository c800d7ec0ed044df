// `pgload run -j 2` on the embedded server: the merged counts are the server's (pgbench_history
// rows, TPC-C's order counters), each worker thread runs its own terminals (TPC-C: whole
// warehouses), and Ctrl-C stops every thread and keeps what was measured.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { runCli } from '../helpers/cli.js'
import { openConnection } from '../../lib/db/connection.js'

let server
let conn
const dir = mkdtempSync(join(tmpdir(), 'pgload-threads-'))
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

before(async () => {
  server = await getTestServer()
  const tpcb = await runCli(['init', 'tpcb', '--scale', '1', '--force', '--url', server.url])
  assert.equal(tpcb.code, 0, tpcb.stderr)
  const tpcc = await runCli(['init', 'tpcc', '--warehouses', '2', '--force', '--url', server.url], { timeoutMs: 300_000 })
  assert.equal(tpcc.code, 0, tpcc.stderr)
  conn = await openConnection(server.target, { protocol: 'simple' })
})

after(async () => {
  await conn?.close()
  rmSync(dir, { recursive: true, force: true })
})

const read = (file) => JSON.parse(readFileSync(file, 'utf8'))
const seriesCount = (results) => results.intervals.reduce((n, iv) => n + Object.values(iv.count).reduce((a, b) => a + b, 0), 0)

async function historyRows () {
  // pgload's backends may still be finishing their last statement after the process exits
  for (let i = 0; i < 50; i++) {
    const left = (await conn.simpleQuery("select count(*) from pg_stat_activity where application_name = 'pgload' and pid <> pg_backend_pid()")).rows[0][0]
    if (Number(left) === 0) break
    await sleep(100)
  }
  return Number((await conn.simpleQuery('select count(*) from pgbench_history')).rows[0][0])
}

test('tpcb -j 2: merged counts equal pgbench_history rows, per-command statistics merged, N recorded', async () => {
  const out = join(dir, 'tpcb.json')
  const r = await runCli(['run', 'tpcb', '-c', '4', '-j', '2', '-T', '2s', '-r', '--url', server.url, '--out', out])
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stdout, /^number of threads: 2$/m)
  const results = read(out)
  assert.equal(results.run.threads, 2)
  assert.equal(results.run.options.jobs, 2)
  assert.ok(results.summary.transactions > 0)
  assert.equal(await historyRows(), results.summary.transactions)
  assert.equal(seriesCount(results), results.summary.transactions)
  assert.deepEqual(results.client.threads.map((t) => [t.thread, t.firstTerminal, t.terminals, t.connections]), [[0, 0, 2, 2], [1, 2, 2, 2]])
  assert.equal(results.client.threads[0].transactions + results.client.threads[1].transactions, results.summary.transactions)
  assert.ok(results.client.threads.every((t) => t.eventLoopUtilization > 0 && t.cpuUs > 0))
  // every command of the script ran once per transaction, in both threads together
  const commands = Object.values(results.script)[0].commands
  assert.ok(commands.length > 0)
  for (const c of commands) assert.equal(c.count, results.summary.transactions, c.text)
})

test('tpcc -j 2: one warehouse per thread, New-Orders the threads saw equal the order counters\' growth', async () => {
  const out = join(dir, 'tpcc.json')
  const r = await runCli(['run', 'tpcc', '--warehouses', '2', '--no-wait', '-j', '2', '-T', '2s', '--url', server.url, '--out', out])
  assert.equal(r.code, 0, r.stderr)
  const results = read(out)
  assert.deepEqual(results.client.threads.map((t) => [t.firstTerminal, t.terminals]), [[0, 10], [10, 10]])
  assert.ok(results.transactions['new-order'].count > 0)
  // no warm-up: the New-Order commits the driver counted are the districts' new orders
  assert.equal(results.tpcc.tpmC, results.tpcc.nopm)
  assert.equal(seriesCount(results), results.summary.transactions)
  const refused = await runCli(['run', 'tpcc', '--warehouses', '2', '--no-wait', '-j', '3', '-T', '2s', '--url', server.url, '--out', join(dir, 'no.json')])
  assert.equal(refused.code, 1)
  assert.match(refused.stderr, /^pgload: --jobs 3 needs at least 3 warehouses, the run has 2$/m)
})

test('Ctrl-C with -j 2: every thread stops, exit 130, the results reconcile with the server', async () => {
  const out = join(dir, 'interrupted.json')
  let sent = 0
  const r = await runCli(['run', 'tpcb', '-c', '4', '-j', '2', '-T', '60s', '--url', server.url, '--out', out], {
    timeoutMs: 60_000,
    onSpawn (child) {
      child.stderr.on('data', (d) => {
        if (sent === 0 && String(d).includes('pgload: running')) {
          sent++
          setTimeout(() => child.kill('SIGINT'), 1000)
        }
      })
    }
  })
  assert.equal(sent, 1)
  assert.equal(r.code, 130, r.stderr)
  assert.match(r.stderr, /the run was interrupted; the results cover what was measured/)
  const results = read(out)
  assert.equal(results.run.interrupted, true)
  assert.ok(results.run.durationS < 30)
  assert.equal(await historyRows(), results.summary.transactions)
})
