// Shards across a network: the server in one network namespace, two shards in two others, each
// on its own veth link. The barrier, the clock offset and the merge work over real links; with
// a delay on one shard's link, its round trip and clock offset show it, and the shards still aim
// at one start within half their round trips, on the one clock the namespaces share.

import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import { BIN, runCli } from '../helpers/cli.js'
import { netnsUnavailable, createTopology, runInNamespace, startInNamespace } from '../helpers/netns.js'
import { startNamespaceCluster } from '../helpers/namespace-cluster.js'

const execFileAsync = promisify(execFile)
const RELAY = fileURLToPath(new URL('../helpers/delay-relay.js', import.meta.url))
const DELAY_MS = 10
const unavailable = await netnsUnavailable()
const dir = mkdtempSync(join(tmpdir(), 'pgload-netns-'))
let topology
let cluster

before(async () => {
  if (unavailable) return
  topology = await createTopology(2)
  cluster = await startNamespaceCluster({ ns: topology.server, addresses: topology.clients.map((c) => c.serverAddress), network: '10.213.0.0/16' })
  const [c0] = topology.clients
  const init = await runInNamespace(c0.ns, [process.execPath, BIN, 'init', 'tpcb', '--scale', '1', '--url', cluster.url(c0.serverAddress)])
  assert.equal(init.code, 0, init.stderr)
}, { timeout: 120_000 })

after(() => {
  cluster?.stop()
  topology?.remove()
  rmSync(dir, { recursive: true, force: true })
})

/** Both shards of one run, each in its namespace, by the URL given for it; their results. */
async function runShards (runId, urls) {
  const runs = await Promise.all(topology.clients.map((c, k) => runInNamespace(c.ns, [process.execPath, BIN,
    'run', 'tpcb', '--url', urls[k], '-c', '4', '-T', '3s', '-n', '--shard', `${k}/2`, '--run-id', runId,
    '--shard-timeout', '30s', '-o', join(dir, `${runId}-${k}.json`)])))
  runs.forEach((r) => assert.equal(r.code, 0, r.stderr))
  const docs = [0, 1].map((k) => JSON.parse(readFileSync(join(dir, `${runId}-${k}.json`), 'utf8')))
  const merge = await runCli(['merge', ...docs.map((_, k) => join(dir, `${runId}-${k}.json`)), '-o', join(dir, `${runId}.json`)])
  assert.equal(merge.code, 0, merge.stderr)
  const merged = JSON.parse(readFileSync(join(dir, `${runId}.json`), 'utf8'))
  return { docs, merged, mergeOut: merge.stdout }
}

/** The merge adds the shards' counts exactly. */
function assertExactMerge (docs, merged) {
  const sum = (f) => docs.reduce((a, d) => a + f(d), 0)
  assert.ok(merged.summary.transactions > 0)
  assert.equal(merged.summary.transactions, sum((d) => d.summary.transactions))
  assert.equal(merged.summary.failed, sum((d) => d.summary.failed))
  assert.equal(merged.transactions['tpcb-like'].count, sum((d) => d.transactions['tpcb-like'].count))
  assert.equal(merged.intervals.reduce((a, iv) => a + iv.count['tpcb-like'], 0), merged.summary.transactions)
}

/**
 * How far apart the shards started on the one kernel clock the namespaces share: each shard
 * aimed at the scheduled start (server clock) minus its measured offset, and started
 * `startedLateMs` after that (`late: false`: where they aimed, the barrier's own error).
 */
function sharedClockSkewMs (docs, { late = true } = {}) {
  const starts = docs.map((d) => (late ? d.run.shard.startedLateMs : 0) - d.run.shard.clockOffsetMs)
  return Math.max(...starts) - Math.min(...starts)
}

function printShards (t, docs, merged) {
  for (const d of docs) {
    const s = d.run.shard
    t.diagnostic(`shard ${s.index}/${s.count}: round trip ${s.clockRttMs} ms, clock offset ${s.clockOffsetMs} ms, started ${s.startedLateMs} ms late`)
  }
  t.diagnostic(`merge: start skew ${merged.run.shards.startSkewMs} ms (shards' own clocks); on the shared clock: aimed ${sharedClockSkewMs(docs, { late: false }).toFixed(3)} ms apart, started ${sharedClockSkewMs(docs).toFixed(3)} ms apart`)
}

describe('shards in network namespaces', { skip: unavailable ?? false }, () => {
  test('two shards in two namespaces meet through the server in a third, and merge exactly', { timeout: 90_000 }, async (t) => {
    const urls = topology.clients.map((c) => cluster.url(c.serverAddress))
    const { docs, merged, mergeOut } = await runShards(`netns-${process.pid}`, urls)
    assertExactMerge(docs, merged)
    assert.equal(docs[0].run.shard.scheduledStart, docs[1].run.shard.scheduledStart)
    assert.match(mergeOut, /start skew [\d.]+ ms/)
    for (const d of docs) assert.ok(d.run.shard.clockRttMs > 0 && Number.isFinite(d.run.shard.clockOffsetMs))
    printShards(t, docs, merged)
  })

  test(`a ${DELAY_MS} ms delay on one shard's way to the server: measured, and the shards aim at one start within half their round trips`, { timeout: 90_000 }, async (t) => {
    const [c0, c1] = topology.clients
    const urls = [cluster.url(c0.serverAddress), cluster.url(c1.serverAddress)]
    let relay = null
    if (await addNetemDelay(c0)) {
      t.diagnostic(`netem: ${DELAY_MS} ms on shard 0's link to the server`)
    } else {
      // no netem in this kernel: a relay in shard 0's namespace delays what it sends the server
      t.diagnostic(`netem is not available in this kernel: a relay in shard 0's namespace delays its traffic to the server by ${DELAY_MS} ms`)
      relay = await startInNamespace(c0.ns, [process.execPath, RELAY, c0.serverAddress, '5432', String(DELAY_MS)], /listening (\d+)/)
      const u = new URL(urls[0])
      u.hostname = '127.0.0.1'
      u.port = relay.match[1]
      urls[0] = u.toString()
    }
    try {
      const { docs, merged } = await runShards(`netns-delay-${process.pid}`, urls)
      assertExactMerge(docs, merged)
      printShards(t, docs, merged)
      const [s0, s1] = docs.map((d) => d.run.shard)
      assert.ok(s0.clockRttMs >= DELAY_MS, `shard 0's round trip ${s0.clockRttMs} ms includes the delay`)
      assert.ok(s1.clockRttMs < DELAY_MS, `shard 1's round trip ${s1.clockRttMs} ms does not`)
      // the delay is one way: the offset seen is about half of it, within half the round trip
      assert.ok(s0.clockOffsetMs > DELAY_MS / 4 && s0.clockOffsetMs <= s0.clockRttMs / 2 + 0.5, `shard 0's offset ${s0.clockOffsetMs} ms`)
      // each shard's aim is off by at most half its round trip (how late a process then starts
      // its terminals is its own, and printed)
      const aimed = sharedClockSkewMs(docs, { late: false })
      assert.ok(aimed <= (s0.clockRttMs + s1.clockRttMs) / 2, `aimed ${aimed} ms apart, round trips ${s0.clockRttMs} and ${s1.clockRttMs} ms`)
    } finally {
      relay?.child.kill('SIGTERM')
    }
  })
})

/** tc netem on the client's end of its link (loading sch_netem if need be); false where the kernel has none. */
async function addNetemDelay (client) {
  const add = () => execFileAsync('ip', ['netns', 'exec', client.ns, 'tc', 'qdisc', 'add', 'dev', client.device, 'root', 'netem', 'delay', `${DELAY_MS}ms`])
  try {
    await add()
    return true
  } catch {
    try {
      await execFileAsync('modprobe', ['sch_netem'])
      await add()
      return true
    } catch {
      return false
    }
  }
}
