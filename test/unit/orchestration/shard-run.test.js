import { test } from 'node:test'
import assert from 'node:assert/strict'
import { resolvePlan } from '../../../lib/plan/resolve.js'
import { shardPart } from '../../../lib/orchestration/shard-run.js'
import { newRun } from '../engine/test-settings.js'

const workload = { name: 'w', transactions: [{ name: 'q', weight: 1, async run () {} }] }

test('a shard runs its range of the terminals with its share of the rate, numbered as a part of the whole run', async () => {
  const parts = []
  for (const k of [0, 1, 2]) parts.push(shardPart(await resolvePlan({ workload: 'tpcb', clients: 9, rate: 900, shard: `${k}/3`, jobs: 2 }), workload))
  assert.deepEqual(parts.map((p) => [p.terminalRange.first, p.terminalRange.count, p.rate, p.part]), [[0, 3, 300, 0], [3, 3, 300, 2], [6, 3, 300, 4]])
  assert.equal(shardPart(await resolvePlan({ workload: 'tpcb', clients: 9 }), workload), null)
})

test('shards with one seed draw different --rate arrivals (independent streams, not copies)', () => {
  const first = (part) => {
    const run = newRun(workload, { openConnection: async () => ({}), clients: 4, rate: 100, seed: 42n, part })
    return run.context.waitRandom.nextU64()
  }
  assert.notEqual(first(0), first(1))
  assert.equal(first(1), first(1))
})
