// Merging the shards of one run: every shard once, aligned on the server's clock (where their
// common start was set) whatever their own clocks say, shard 0's server statistics kept.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Recorder } from '../../../lib/metrics/recorder.js'
import { buildResults } from '../../../lib/results/build.js'
import { mergeResults } from '../../../lib/results/merge.js'

const START = Date.parse('2026-01-01T10:00:00.000Z')

/** Shard `index` of `count`: 3 one-second intervals of `perS` transactions of 1 ms. */
function shardDoc (index, count, { runId = 'run-1', localStartMs = START, lateMs = 0, perS = 10, sampled = index === 0 } = {}) {
  const r = new Recorder(['q'])
  for (let t = 1; t <= 3; t++) {
    for (let k = 0; k < perS; k++) r.ok(0, 1000 + 10 * index + k, 0, 0, false)
    r.closeInterval(t, 1)
  }
  const { summary, transactions } = r.summarize(3)
  const doc = buildResults({
    toolVersion: '1.0.0',
    options: { workload: 'tpcb', intervalS: 1, seed: '7', protocol: 'prepared', clients: 4, shard: { index, count, runId }, out: `s${index}.json` },
    workloadName: 'tpcb',
    workload: { transactions: [{ name: 'q', weight: 1 }] },
    target: { display: `postgres://host-${index}/x` },
    embedded: false,
    serverVersion: { version: '18.0', num: 180000 },
    host: { cpus: 2, hostname: `node-${index}` },
    outcome: {
      startTime: new Date(localStartMs).toISOString(),
      endTime: new Date(localStartMs + 3000).toISOString(),
      durationS: 3,
      terminals: 1,
      connections: 1,
      paced: false,
      aborted: false,
      abortedClients: 0,
      abortReason: null,
      interrupted: false,
      summary: { ...summary, initialConnectionMs: 1 },
      transactions,
      intervals: r.intervals,
      client: null
    },
    serverStats: sampled ? { deltas: { walBytes: 4000, blksRead: 1, blksHit: 9 }, perTransaction: { walBytes: 1 }, settings: {}, tableSizes: {} } : { settings: {}, tableSizes: {}, missing: ['server statistics: sampled by shard 0'] },
    extra: null
  })
  doc.run.shard = { runId, index, count, serverStats: sampled, clockOffsetMs: START - localStartMs, clockRttMs: 0.1, scheduledStart: new Date(START).toISOString(), startedLateMs: lateMs, waitedMs: 100 }
  return doc
}

test('shards line up on the server clock, whatever their own clocks say; shard 0 coordinates', () => {
  // shard 1's machine runs 3 s ahead, shard 2's 1.6 s behind: all started at the one server time
  const docs = [shardDoc(1, 3, { localStartMs: START + 3000, lateMs: 0.4 }), shardDoc(2, 3, { localStartMs: START - 1600, lateMs: 2.5 }), shardDoc(0, 3, { lateMs: 0.1 })]
  const merged = mergeResults(docs)
  assert.deepEqual(merged.intervals.map((iv) => iv.count.q), [30, 30, 30])
  assert.equal(merged.summary.transactions, 90)
  assert.equal(merged.run.durationS, 3)
  assert.deepEqual(merged.run.shards, { runId: 'run-1', count: 3, scheduledStart: new Date(START).toISOString(), startSkewMs: 2.4 })
  assert.equal(merged.run.shard, undefined)
  assert.equal(merged.serverStats.deltas.walBytes, 4000)
  assert.equal(merged.serverStats.perTransaction.walBytes, 44.444, 'divided by all shards\' transactions')
  assert.equal(merged.server.target, 'postgres://host-0/x', 'the coordinator is shard 0, not the first file given')

  // the same files without their shard marks are aligned on their own clocks: apart
  const unmarked = docs.map((d) => ({ ...d, run: { ...d.run, shard: undefined } }))
  for (const d of unmarked) delete d.run.shard
  assert.notDeepEqual(mergeResults(unmarked).intervals.map((iv) => iv.count.q), [30, 30, 30])
})

test('only every shard of one run, each once, merge; one line says why not', () => {
  const why = (docs) => {
    try { mergeResults(docs, { sources: docs.map((d, i) => `f${i}.json`) }) } catch (err) { return `${err.code}: ${err.message}` }
    return 'merged'
  }
  assert.equal(why([shardDoc(0, 3), shardDoc(2, 3)]), 'RESULTS_MISMATCH: cannot merge: run id run-1 has 3 shards: the results of shard 1/3 are missing')
  assert.equal(why([shardDoc(0, 2), shardDoc(1, 2), shardDoc(1, 2)]), 'RESULTS_MISMATCH: cannot merge: f1.json and f2.json are both shard 1/2 of run id run-1')
  assert.equal(why([shardDoc(0, 2), shardDoc(1, 2, { runId: 'run-2' })]), 'RESULTS_MISMATCH: cannot merge: f1.json is of run id run-2, f0.json of run id run-1: not shards of one run')
  assert.equal(why([shardDoc(0, 2), shardDoc(1, 3)]), 'RESULTS_MISMATCH: cannot merge: f1.json is shard 1/3, f0.json shard 0/2: the run\'s shard counts differ')
  const plain = shardDoc(1, 2)
  delete plain.run.shard
  assert.equal(why([shardDoc(0, 2), plain]), 'RESULTS_MISMATCH: cannot merge: f1.json is not a shard\'s results, f0.json is: merge the results of one sharded run')
  assert.equal(why([shardDoc(0, 2), shardDoc(1, 2)]), 'merged')
})
