// `pgload run tpcb` end to end against a real PostgreSQL.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { runCli } from '../helpers/cli.js'
import { openConnection } from '../../lib/db/connection.js'
import { decodeHistogram } from '../../lib/metrics/histogram.js'
import { perTransactionMeaningful } from '../../lib/output/client-cpu.js'

let server
let conn
const dir = mkdtempSync(join(tmpdir(), 'pgload-run-'))

before(async () => {
  server = await getTestServer()
  const init = await runCli(['init', 'tpcb', '--scale', '1', '--force', '--url', server.url])
  assert.equal(init.code, 0, init.stderr)
  conn = await openConnection(server.target, { protocol: 'simple' })
})

after(async () => {
  await conn?.close()
  rmSync(dir, { recursive: true, force: true })
})

async function scalar (sql) {
  return (await conn.simpleQuery(sql)).rows[0][0]
}

test('a tpcb-like run: committed transactions equal the growth of pgbench_history, balances stay equal', async () => {
  const before = Number(await scalar('select count(*) from pgbench_history'))
  const out = join(dir, 'tpcb.json')
  const r = await runCli(['run', 'tpcb', '-c', '4', '-T', '3s', '-n', '--url', server.url, '--out', out])
  assert.equal(r.code, 0, r.stderr)
  const results = JSON.parse(readFileSync(out, 'utf8'))
  const grown = Number(await scalar('select count(*) from pgbench_history')) - before
  assert.ok(results.summary.transactions > 50, `only ${results.summary.transactions} transactions`)
  assert.equal(results.summary.transactions + results.summary.failed, grown)
  assert.equal(results.summary.failed, 0)
  const sums = (await conn.simpleQuery('select (select sum(abalance) from pgbench_accounts), (select sum(tbalance) from pgbench_tellers), (select sum(bbalance) from pgbench_branches)')).rows[0]
  assert.equal(sums[0], sums[1])
  assert.equal(sums[1], sums[2])
  // the document: schema, per-type figures, encoded histogram, one interval per second
  assert.equal(results.schemaVersion, 1)
  assert.equal(results.run.workload, 'tpcb')
  assert.equal(results.run.scale, 1)
  assert.equal(results.server.embedded, false, 'a server named with --url is not the embedded one')
  assert.doesNotMatch(JSON.stringify(results), new RegExp(new URL(server.url).password || 'no-password-in-url'))
  const t = results.transactions['tpcb-like']
  assert.equal(t.count, results.summary.transactions)
  assert.equal(decodeHistogram(t.histogram).totalCount, t.count)
  assert.ok(t.latencyMs.p50 <= t.latencyMs.p99 && t.latencyMs.p99 <= t.latencyMs.max)
  // -T 3s: three whole seconds, then the drain as a partial one (more whole ones if a loaded
  // machine stalled the tick)
  assert.ok(results.intervals.length >= 3, `${results.intervals.length} intervals`)
  assert.ok(results.intervals.slice(0, -1).every(iv => iv.lengthS === 1), JSON.stringify(results.intervals.map(iv => iv.lengthS)))
  assert.equal(results.intervals.reduce((s, iv) => s + iv.count['tpcb-like'], 0), t.count)
  // pgload's own CPU, split into user and kernel time that add up to the total
  const c = results.client
  assert.ok(c.userUsPerTxn > 0 && c.systemUsPerTxn >= 0, JSON.stringify(c))
  assert.ok(Math.abs(c.userUsPerTxn + c.systemUsPerTxn - c.cpuUsPerTxn) <= 0.02, JSON.stringify(c))
  assert.equal(c.cpuCoreShare, Math.round(c.cpuUs / (results.run.durationS * 1e6) * 10000) / 10000)
  // per transaction when the run is fast enough for it (a loaded machine may not be)
  if (perTransactionMeaningful(results.summary.transactions + results.summary.failed, results.run.durationS)) {
    assert.match(r.stdout, /^client CPU per transaction = [\d.]+ us \([\d.]+ user, [\d.]+ kernel; event loop \d+% busy\)$/m)
  } else {
    assert.match(r.stdout, /^client CPU = [\d.]+% of one core \([\d.]+% user, [\d.]+% kernel; event loop \d+% busy; too few transactions per second for a per-transaction figure\)$/m)
  }
  if (process.platform === 'linux') {
    // the driver thread's time on a CPU matches the process's CPU time (other threads idle)
    assert.ok(c.onCpuShare > 0 && c.cpuWaitShare >= 0 && c.onCpuShare + c.cpuWaitShare <= 1.001, JSON.stringify(c))
    assert.ok(c.cpuWaitUsPerTxn >= 0, JSON.stringify(c))
    assert.match(r.stdout, /^driver thread: on a CPU \d+% of the run, waiting for one \d+% \([\d.]+ us per transaction\)$/m)
  }
  // the summary speaks pgbench
  assert.match(r.stdout, /number of transactions actually processed: \d+/)
  assert.match(r.stdout, /latency average = [\d.]+ ms/)
  assert.match(r.stdout, /tps = [\d.]+ \(without initial connection time\)/)
  assert.match(r.stdout, /tpcb-like\s+\d+\s+0\s+[\d.]+\s+[\d.]+/)
})

test('-t counts exactly in the summary, -r and --log; --no-jit-warmup is still accepted', async () => {
  const logDir = mkdtempSync(join(dir, 'log-'))
  const before = Number(await scalar('select count(*) from pgbench_history'))
  const out = join(dir, 'warm.json')
  const r = await runCli(['run', 'tpcb', '-b', 'simple-update', '-c', '2', '-t', '25', '-n', '-r', '-l', '--log-prefix', join(logDir, 'pgbench_log'), '--url', server.url, '--out', out])
  assert.equal(r.code, 0, r.stderr)
  const results = JSON.parse(readFileSync(out, 'utf8'))
  assert.equal(results.summary.transactions, 50)
  assert.equal(Number(await scalar('select count(*) from pgbench_history')) - before, 50)
  for (const c of results.script['simple-update'].commands.filter((c) => !c.text.startsWith('\\'))) assert.equal(c.count, 50, c.text)
  const logged = readdirSync(logDir).map((f) => readFileSync(join(logDir, f), 'utf8').trim().split('\n').length).reduce((a, b) => a + b, 0)
  assert.equal(logged, 50)

  const off = join(dir, 'nowarm.json')
  const r2 = await runCli(['run', 'tpcb', '-b', 'select-only', '-c', '1', '-t', '5', '-n', '--no-jit-warmup', '--url', server.url, '--out', off])
  assert.equal(r2.code, 0, r2.stderr)
  const r2Results = JSON.parse(readFileSync(off, 'utf8'))
  assert.equal(r2Results.summary.transactions, 5)
  assert.equal(r2Results.client.jitWarmup, undefined)
})

test('--rate: a 1.5 s table lock shows in p99 and max latency; lag and queue wait are reported on their own', async () => {
  const out = join(dir, 'rate.json')
  const lock = await openConnection(server.target, { protocol: 'simple' })
  let locker = null
  // Lock 1.5 s after the run has started measuring (start-up time varies with machine load).
  const startLock = async () => {
    await new Promise((resolve) => setTimeout(resolve, 1500))
    await lock.simpleQuery('begin; lock table pgbench_accounts in access exclusive mode')
    await new Promise((resolve) => setTimeout(resolve, 1500))
    await lock.simpleQuery('commit')
  }
  const r = await runCli(['run', '-b', 'select-only', '-c', '4', '-R', '100', '-T', '6s', '-n', '--url', server.url, '--out', out], {
    onSpawn (child) {
      child.stderr.on('data', (d) => { if (!locker && String(d).includes('pgload: running')) locker = startLock() })
    }
  })
  await locker
  await lock.close()
  assert.equal(r.code, 0, r.stderr)
  const s = JSON.parse(readFileSync(out, 'utf8')).summary
  assert.ok(s.latencyMs.max >= 1000, `max ${s.latencyMs.max} ms`)
  assert.ok(s.latencyMs.p99 >= 1000, `p99 ${s.latencyMs.p99} ms`)
  assert.ok(s.lagMs.max >= 500, `lag max ${s.lagMs.max} ms: the backlog waits on the schedule`)
  assert.ok(s.queueMs.max !== null, 'queue wait is reported')
  assert.match(r.stdout, /rate limit schedule lag: avg [\d.]+ \(max [\d.]+\) ms/)
})

test('10,000 think-time terminals on a handful of connections follow the think-time arithmetic', async () => {
  const out = join(dir, 'think.json')
  // A 10 s mean think time asks for about 1,000 tps: within what this 2-core machine serves while
  // other test files run, so the system is in a steady state (saturated, Little's law still holds
  // in the long run, but the queue would still be growing within a few seconds). 32 connections
  // serve 1,000 tps unless a round trip takes over 30 ms, which a loaded machine can reach for 8.
  const r = await runCli(['run', '-b', 'select-only', '-c', '10000', '--connections', '32', '--think-time', 'exp:10000', '--warmup', '1s', '-T', '5s', '-n', '--url', server.url, '--out', out, '--no-server-stats'])
  assert.equal(r.code, 0, r.stderr)
  const results = JSON.parse(readFileSync(out, 'utf8'))
  assert.equal(results.run.connections, 32)
  assert.equal(results.run.clients, 10000)
  const t = results.transactions['select-only']
  // Little's law for a closed system: rate = terminals / (mean think + mean response). The
  // response includes any wait for one of the connections, so this holds on a slow machine too.
  // Whole seconds of the measured window only: the drain after the deadline is not steady state.
  const steady = results.intervals.filter((iv) => iv.lengthS === 1)
  const measured = steady.reduce((s, iv) => s + iv.count['select-only'], 0) / steady.length
  const expected = 10000 / ((t.thinkMs.mean + t.latencyMs.mean) / 1000)
  assert.ok(steady.length >= 3)
  assert.ok(Math.abs(measured - expected) / expected < 0.15, `measured ${measured} tps, expected ${expected}`)
  assert.ok(Math.abs(t.thinkMs.mean - 10000 * (1 - Math.exp(-10))) < 600, `think mean ${t.thinkMs.mean}`)
  assert.ok(measured > 700 && measured < 1300, `about 1,000 tps expected, measured ${measured}`)
})

test('Ctrl-C mid-run stops, writes the results, and exits 130', async () => {
  const out = join(dir, 'sigint.json')
  const r = await runCli(['run', 'tpcb', '-c', '2', '-T', '60s', '-n', '--url', server.url, '--out', out], {
    onSpawn (child) {
      // interrupt 2 s into the run itself (start-up time varies with machine load)
      let armed = false
      child.stderr.on('data', (d) => {
        if (!armed && String(d).includes('pgload: running')) { armed = true; setTimeout(() => child.kill('SIGINT'), 2000) }
      })
    }
  })
  assert.equal(r.code, 130, r.stderr)
  assert.ok(existsSync(out))
  const results = JSON.parse(readFileSync(out, 'utf8'))
  assert.equal(results.run.interrupted, true)
  assert.ok(results.summary.transactions > 0)
  assert.ok(results.run.durationS < 30)
})

test('missing tables: one line that says to run init, exit 1', async () => {
  await conn.simpleQuery('create database pgload_empty')
  try {
    const url = server.url.replace(/\/[^/?]*(\?.*)?$/, '/pgload_empty')
    const r = await runCli(['run', 'tpcb', '-t', '1', '--url', url, '--out', join(dir, 'none.json')])
    assert.equal(r.code, 1)
    assert.match(r.stderr, /^pgload: the pgbench tables are missing/m)
    assert.match(r.stderr, /pgload init tpcb/)
    assert.doesNotMatch(r.stderr, /at .*\.js:\d+/, 'no stack trace')
  } finally {
    await conn.simpleQuery('drop database pgload_empty')
  }
})
