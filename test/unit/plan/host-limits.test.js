// What a machine allows a run: -j by its cores, the connections by its open-file limit, checked
// when the plan is resolved (before anything connects), with the machine given by the test.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { hostLimits, openFileLimit, maxJobs } from '../../../lib/plan/host-limits.js'
import { resolvePlan } from '../../../lib/plan/resolve.js'

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max processes             63704                63704                processes
Max open files            1024                 524288               files
`

test('the soft open-file limit from /proc/self/limits; none where it cannot be read', () => {
  assert.equal(openFileLimit(LIMITS), 1024)
  assert.equal(openFileLimit(LIMITS.replace('1024 ', 'unlimited ')), Infinity)
  assert.equal(hostLimits({ readLimits: () => LIMITS }).openFiles, 1024)
  assert.equal(hostLimits({ readLimits: () => { throw new Error('ENOENT') } }).openFiles, Infinity)
})

test('-j: 4 per core, at most 256', () => {
  assert.equal(maxJobs(1), 4)
  assert.equal(maxJobs(2), 8)
  assert.equal(maxJobs(64), 256)
  assert.equal(maxJobs(0), 1)
})

test('the plan refuses -j past the cores and connections past the open-file limit, naming the flag', async () => {
  const host = { cores: 2, openFiles: 1024 }
  await resolvePlan({ clients: 8, jobs: 8 }, { host })
  await assert.rejects(resolvePlan({ clients: 9, jobs: 9 }, { host }),
    { message: '--jobs must be an integer in 1..8 on this machine (4 per core, 2 cores, at most 256), got 9' })
  await resolvePlan({ clients: 1024 - 64 - 4 }, { host })
  await assert.rejects(resolvePlan({ clients: 1024 - 64 - 3 }, { host }),
    { message: '--clients 957 needs at least 1025 open files, but the limit is 1024' })
  await assert.rejects(resolvePlan({ clients: 5000, connections: 2000 }, { host }), { message: /^--connections 2000 needs at least 2068 open files/ })
  await assert.rejects(resolvePlan({ clients: 2000, connect: true, connections: 10 }, { host }), { message: /^--clients 2000 needs/ })
  // think-time terminals share their connections: a workload of many paced clients is not refused
  await resolvePlan({ clients: 5000, thinkTime: 'fixed:100' }, { host })
  // a shard opens its share
  await resolvePlan({ clients: 4000, shards: 8, shard: '0/8' }, { host })
})
