// The bench scripts in their smoke form: they run end to end and print their tables with
// numbers (no timing assertions: the figures depend on the machine).

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { getTestServer } from '../helpers/server.js'
import { runNode } from '../helpers/cli.js'
import { openConnection } from '../../lib/db/connection.js'
import { resolveTarget } from '../../lib/server/target/resolve-target.js'

const BENCH = fileURLToPath(new URL('../../bench/index.js', import.meta.url))
const hasPgbench = spawnSync('pgbench', ['--version']).status === 0

function bench (args) {
  return runNode(BENCH, args, { timeoutMs: 300_000 })
}

const number = '\\d+(?:\\.\\d+)?'

test('vs-pgbench --smoke --floor prints pgbench, pgload and Node floor figures for each case, and the verdicts on the targets', { skip: hasPgbench ? false : 'pgbench is not installed', timeout: 180_000 }, async () => {
  const { url } = await getTestServer()
  // select-only with 1 client has a target (tps >= 0.9 of pgbench's); tpcb-like with 2 has none
  const r = await bench(['vs-pgbench', '--smoke', '--floor', '--cases', 'select-only:1,tpcb-like:2', '--url', url])
  assert.equal(r.code, 0, r.stderr)
  const lines = r.stdout.split('\n')
  assert.match(lines[0], /^workload\s+clients\s+pgbench tps\s+pg tps\s+pg ratio\s+pg ratio min\s+pg ratio max\s+lean tps\s+lean ratio\s+lean ratio min\s+lean ratio max\s+floor tps\s+floor ratio\s+floor ratio min\s+floor ratio max\s+pgbench cpu us\/txn/)
  const columns = lines[0].split(/\s{2,}/).length
  assert.equal(columns, 22)
  for (const [w, c] of [['select-only', 1], ['tpcb-like', 2]]) {
    const row = lines.find(l => l.startsWith(w))
    assert.ok(row, `a row for ${w}:\n${r.stdout}`)
    // workload, clients, then numeric columns, all present and finite
    assert.match(row, new RegExp(`^${w}\\s+${c}(\\s+${number}){${columns - 2}}$`), row)
  }
  // each runner's CPU split into user and kernel time
  const split = lines.findIndex(l => /^workload\s+clients\s+pgbench user us\/txn\s+pgbench kernel us\/txn\s+pg user us\/txn\s+pg kernel us\/txn\s+lean user us\/txn\s+lean kernel us\/txn\s+floor user us\/txn\s+floor kernel us\/txn$/.test(l))
  assert.ok(split > 0, r.stdout)
  for (const [w, c] of [['select-only', 1], ['tpcb-like', 2]]) {
    const row = lines.slice(split + 2).find(l => l.startsWith(w))
    assert.match(row ?? '', new RegExp(`^${w}\\s+${c}(\\s+${number}){8}$`), r.stdout)
  }
  // each runner's main thread on a CPU and waiting for one: a smoke run is too short to have them
  const sched = lines.findIndex(l => /^workload\s+clients\s+pgbench on-cpu us\/txn\s+pgbench cpu-wait us\/txn\s+pgbench runnable %\s+pg on-cpu us\/txn/.test(l))
  assert.ok(sched > 0, r.stdout)
  // the verdicts: one line per runner for the case with a target; one round decides nothing
  const at = lines.findIndex(l => /^workload\s+clients\s+runner\s+tps ratio\s+interval\s+target\s+verdict\s+cpu ratio\s+interval\s+target\s+verdict$/.test(l))
  assert.ok(at > 0, r.stdout)
  const verdicts = lines.slice(at + 2).filter(l => /^(select-only|tpcb-like)\s/.test(l))
  assert.deepEqual(verdicts.map(l => l.split(/\s+/)[2]), ['pg', 'lean', 'floor'], r.stdout)
  for (const l of verdicts) {
    assert.match(l, new RegExp(`^select-only\\s+1\\s+\\w+\\s+${number}\\s+-\\s+>= 0\\.9\\s+within noise\\s+${number}\\s+-\\s+<= 1\\.5\\s+within noise$`), l)
  }
})

test('vs-pgbench --pin runs every runner on the client CPUs and gives the server its CPU affinity back', {
  skip: !hasPgbench ? 'pgbench is not installed' : spawnSync('taskset', ['-V']).status !== 0 ? 'taskset is not installed' : process.env.PGLOAD_TEST_URL ? 'the server may not be on this machine' : false,
  timeout: 120_000
}, async () => {
  const { url } = await getTestServer()
  const conn = await openConnection(resolveTarget({ url }), { protocol: 'simple' })
  const dataDir = (await conn.simpleQuery('SHOW data_directory')).rows[0][0]
  await conn.close()
  const postmaster = readFileSync(join(dataDir, 'postmaster.pid'), 'latin1').split('\n')[0]
  const mask = () => /affinity mask: (\w+)/.exec(spawnSync('taskset', ['-p', postmaster], { encoding: 'utf8' }).stdout)?.[1]
  const before = mask()
  assert.ok(before, 'the postmaster\'s mask is readable')
  // CPU 0 for both: every machine has it
  const r = await bench(['vs-pgbench', '--smoke', '--driver', 'lean', '--cases', 'select-only:1', '--pin', '0:0', '--url', url])
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stderr, /the server \(postmaster \d+ and its processes\) on CPUs 0, each runner on CPUs 0/)
  assert.match(r.stdout, /^pinned: each runner on CPUs 0, the server's processes on CPUs 0 \(taskset\)/m)
  assert.match(r.stdout, new RegExp(`^select-only\\s+1(\\s+${number}){8}$`, 'm'))
  assert.equal(mask(), before)
  const bad = await bench(['vs-pgbench', '--smoke', '--pin', '0', '--url', url])
  assert.notEqual(bad.code, 0)
  assert.match(bad.stderr, /--pin must be CLIENT:SERVER CPU lists such as 0:1 or 0:1-3, got "0"/)
})

test('driver --smoke prints tps and CPU per query for both drivers', { timeout: 120_000 }, async () => {
  const { url } = await getTestServer()
  const r = await bench(['driver', '--smoke', '--url', url])
  assert.equal(r.code, 0, r.stderr)
  for (const d of ['pg', 'lean']) {
    const row = r.stdout.split('\n').find(l => l.startsWith(d + ' '))
    assert.match(row ?? '', new RegExp(`^${d}\\s+2(\\s+${number}){5}$`), r.stdout)
  }
})

test('terminals --smoke reports lag, heap per terminal, memory slopes and GC pauses', { timeout: 120_000 }, async () => {
  const { url } = await getTestServer()
  const r = await bench(['terminals', '--smoke', '--url', url, '--json'])
  assert.equal(r.code, 0, r.stderr)
  const out = JSON.parse(r.stdout)
  assert.equal(out.terminals, 2000)
  assert.ok(out.transactions > 0 && out.failed === 0, r.stdout)
  assert.ok(out.lagMs.p99 >= 0 && Number.isFinite(out.heapPerTerminalBytes) && out.heapPerTerminalBytes > 0, r.stdout)
  assert.ok(Number.isFinite(out.rssSlopeMBPerMin) && Number.isFinite(out.heapSlopeMBPerMin), r.stdout)
  assert.ok(out.gc.minor.count >= 0 && out.gc.major.maxMs >= 0, r.stdout)
  assert.match(out.intervalsWithLagP99Over2ms, /^\d+ of \d+$/)
  if (process.platform === 'linux') assert.ok(out.client.onCpuShare > 0 && out.client.cpuWaitShare >= 0, JSON.stringify(out.client))
})

test('engine --smoke runs pgload on in-memory connections and on the lean driver with an in-memory server', { timeout: 120_000 }, async () => {
  const r = await bench(['engine', '--smoke'])
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stdout, new RegExp(`^select-only\\s+2\\s+${number}\\s+${number}\\s+${number}\\s+${number}$`, 'm'), r.stdout)
})

test('warmup --smoke prints the first two seconds of pgbench and pgload by quarter second, and the throughput each lost', { skip: hasPgbench ? false : 'pgbench is not installed', timeout: 180_000 }, async () => {
  const { url } = await getTestServer()
  const r = await bench(['warmup', '--smoke', '--url', url, '--json'])
  assert.equal(r.code, 0, r.stderr)
  const out = JSON.parse(r.stdout)
  assert.equal(out.buckets.length, 8)
  assert.equal(out.buckets[7].toS, 2)
  for (const who of ['pgbench', 'pgload']) {
    assert.ok(out[who].steadyTps > 0 && Number.isFinite(out[who].lostS) && out[who].steadyP99Ms > 0, r.stdout)
    assert.ok(out.buckets.every((b) => b[who].relTps >= 0), r.stdout)
  }
  const text = await bench(['warmup', '--smoke', '--url', url])
  assert.equal(text.code, 0, text.stderr)
  assert.match(text.stdout, new RegExp(`^0\\.00-0\\.25\\s+${number}\\s+${number}\\s+${number}\\s+${number}$`, 'm'), text.stdout)
  assert.match(text.stdout, /throughput lost in the first 2 s/)
})

test('vs-peers --smoke --floor runs pgload -j 1 and -j 2, pgbench -j 1 and -j 2 (and sysbench where installed) and the Node.js floor on both workloads, with verdicts', { skip: hasPgbench ? false : 'pgbench is not installed', timeout: 180_000 }, async () => {
  const { url } = await getTestServer()
  const hasSysbench = spawnSync('sysbench', ['--version']).status === 0
  try {
    const r = await bench(['vs-peers', '--smoke', '--floor', '--url', url, '--json'])
    assert.equal(r.code, 0, r.stderr)
    const out = JSON.parse(r.stdout)
    assert.deepEqual(out.rows.map((x) => [x.workload, x.clients]), [['point-select', 2], ['tpcb-like', 2]])
    const expected = ['pgbench -j 1', 'pgbench -j 2', 'pgload -j 1', 'pgload -j 2', 'floor -j 1', 'floor -j 2']
    assert.deepEqual(Object.keys(out.rows[0].runners).sort(), [...expected, ...(hasSysbench ? ['sysbench'] : [])].sort())
    assert.deepEqual(Object.keys(out.rows[1].runners).sort(), expected.sort(), 'sysbench has no tpcb-like')
    if (!hasSysbench) assert.match(r.stderr, /sysbench is not installed/)
    for (const x of out.rows) {
      for (const v of Object.values(x.runners)) assert.ok(v.tps > 0 && v.cpuUsPerTxn > 0, JSON.stringify(x))
      assert.ok(x.tpsVerdict.median > 0 && x.cpuVerdict.median > 0)
      assert.equal(x.tpsVerdict.verdict, 'within noise', 'one round decides nothing')
      assert.ok(x.floor.tpsRatio > 0 && x.floor.cpuRatio > 0, JSON.stringify(x.floor))
      assert.notEqual(x.bestPeer.split(' ')[0], 'floor', 'the floor is not a peer')
    }
  } finally {
    const conn = await openConnection(resolveTarget({ url }), { protocol: 'simple' })
    await conn.simpleQuery('DROP TABLE IF EXISTS sbtest1')
    await conn.close()
  }
})

test('shards --smoke merges local shards of one run and prints totals, percentiles and the start skew', { timeout: 180_000 }, async () => {
  const { url } = await getTestServer()
  const r = await bench(['shards', '--smoke', '--url', url])
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stdout, /^1\s+(\d+)\s+\1\s+yes\s/m, r.stdout)
  assert.match(r.stdout, new RegExp(`^1\\s+merged(\\s+${number}){5}\\s+yes$`, 'm'), r.stdout)
  assert.match(r.stdout, new RegExp(`^median start skew ${number} ms \\(target within 50 ms: (met|missed)\\)`, 'm'), r.stdout)
})

test('engine --smoke --jobs 1,2 prints the threads\' scaling on in-memory connections', { timeout: 120_000 }, async () => {
  const r = await bench(['engine', '--smoke', '--jobs', '1,2'])
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stdout, new RegExp(`^2\\s+\\d+\\s+${number}\\s+${number}\\s+${number}x \\(${number}-${number}\\)\\s+${number}x$`, 'm'), r.stdout)
})

test('waits --smoke prints a workload\'s tps and CPU with the wait sampler on and off, and the verdict', { timeout: 120_000 }, async () => {
  const { url } = await getTestServer()
  const r = await bench(['waits', '--smoke', '--workloads', 'select-only', '--url', url])
  assert.equal(r.code, 0, r.stderr)
  for (const w of ['select-only']) {
    // the sampled run took samples near its rate: the sampler ran, so the ratio measures it
    assert.match(r.stdout, new RegExp(`^${w}\\s+2(\\s+${number}){7}$`, 'm'), r.stdout)
    assert.match(r.stdout, new RegExp(`^${w}\\s+2\\s+${number}\\s+n/a\\s+>= 0\\.98\\s+within noise$`, 'm'), r.stdout)
  }
})

test('an unknown bench name is refused with the list', async () => {
  const r = await bench(['nope'])
  assert.equal(r.code, 1)
  assert.match(r.stderr, /vs-pgbench/)
})
