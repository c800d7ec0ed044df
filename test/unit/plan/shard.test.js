import { test } from 'node:test'
import assert from 'node:assert/strict'
import { resolvePlan } from '../../../lib/plan/resolve.js'
import { derivedRunId, shardSeed } from '../../../lib/plan/shard.js'

const plan = (input) => resolvePlan({ workload: 'tpcb', clients: '8', durationS: '5s', ...input })

test('--shard K/N counts from 0, as JOB_COMPLETION_INDEX does; --shards N takes K from it', async () => {
  const a = await plan({ shard: '3/4' })
  assert.deepEqual([a.shard.index, a.shard.count, a.shard.timeoutS], [3, 4, 60])
  const b = await plan({ shards: '4', shardIndex: '0' })
  assert.deepEqual([b.shard.index, b.shard.count], [0, 4])
  assert.equal((await plan({ shard: '1/4', shardIndex: '3' })).shard.index, 1, '--shard wins over the environment')
  assert.equal((await plan({ shardIndex: '2' })).shard, undefined, 'JOB_COMPLETION_INDEX alone does not shard a run')
  assert.equal((await plan({ shard: '0/2', shardTimeout: '5m', runId: 'job-7' })).shard.timeoutS, 300)
})

test('all shards of one command derive one run id and one seed; other commands another', async () => {
  const shards = await Promise.all([0, 1, 2].map((k) => plan({ shards: '3', shardIndex: String(k), out: `s${k}.json`, progressS: String(k + 1) })))
  assert.equal(new Set(shards.map((p) => p.shard.runId)).size, 1)
  assert.equal(new Set(shards.map((p) => p.seed)).size, 1, 'without --seed the seed comes from the run id')
  assert.equal(shards[0].seed, shardSeed(shards[0].shard.runId))
  assert.match(shards[0].shard.runId, /^pgload-[0-9a-f]{12}$/)
  const other = await plan({ shards: '3', shardIndex: '0', clients: '9' })
  assert.notEqual(other.shard.runId, shards[0].shard.runId)
  assert.notEqual((await plan({ shards: '4', shardIndex: '0' })).shard.runId, shards[0].shard.runId, 'the shard count is part of it')
  const given = await plan({ shards: '3', shardIndex: '0', runId: 'nightly-42' })
  assert.equal(given.shard.runId, 'nightly-42')
  assert.notEqual(given.seed, shards[0].seed)
  const seeded = await plan({ shards: '3', shardIndex: '0', seed: '123' })
  assert.equal(seeded.seed, '123', 'a given seed is kept')
  assert.notEqual(derivedRunId(seeded, 3), shards[0].shard.runId)
})

test('bad shard options: one line naming the flag', async () => {
  const cases = [
    [{ shard: '4/4' }, '--shard 4/4: shards are numbered 0 to 3'],
    [{ shard: '1' }, '--shard must be K/N, shard K (counted from 0) of N, got "1"'],
    [{ shard: '0/0' }, '--shard N must be an integer in 1..1000, got "0"'],
    [{ shards: '4' }, '--shards 4 needs --shard K/4 or the environment variable JOB_COMPLETION_INDEX (set by a Kubernetes Indexed Job)'],
    [{ shards: '4', shardIndex: '4' }, 'JOB_COMPLETION_INDEX 4 is not a shard of --shards 4: shards are numbered 0 to 3'],
    [{ shards: '4', shardIndex: '-1' }, 'JOB_COMPLETION_INDEX must be a shard number from 0, got "-1"'],
    [{ shard: '1/2', shards: '3' }, '--shard 1/2 and --shards 3 disagree'],
    [{ runId: 'x' }, '--run-id goes with --shard K/N or --shards N'],
    [{ shardTimeout: '5s' }, '--shard-timeout goes with --shard K/N or --shards N'],
    [{ shard: '0/2', runId: 'a b' }, /^--run-id must be 1 to 63 letters/],
    [{ shard: '0/2', shardTimeout: '0' }, '--shard-timeout must be positive, got "0"']
  ]
  for (const [input, message] of cases) {
    await assert.rejects(plan(input), (err) => {
      assert.equal(err.code, 'BAD_OPTION', JSON.stringify(input))
      if (typeof message === 'string') assert.equal(err.message, message)
      else assert.match(err.message, message)
      return true
    })
  }
})
