// The run handle's status of a ThreadedRun, with workers played by the test (each message a
// worker would post, on the test's clock): stop during the warm-up, a worker's own end and the
// grace, Ctrl-C twice, a worker that aborts (--exit-on-abort), a lost server.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ThreadedRun } from '../../../lib/engine/threaded-run.js'
import { testRunArgs } from './test-settings.js'
import { FakeWorker } from './fake-worker.js'

const workload = { name: 'fake', transactions: [{ name: 'q', weight: 1, async run () {} }] }

async function threaded (t, opts = {}) {
  const { settings, runtime } = testRunArgs(workload, { clients: 4, durationS: 60, seed: 1n, ...opts })
  const workers = []
  const run = new ThreadedRun(workload, settings, runtime, {
    jobs: 2,
    source: { module: 'unused', data: null },
    spawn: (url, { workerData }) => {
      const w = new FakeWorker(workerData)
      w.settings = { ...workerData.settings, thinkTime: null }
      workers.push(w)
      return w
    }
  })
  const seen = []
  run.on('status', (s) => seen.push(`${s.state}${s.reason ? ':' + s.reason : ''}${s.hurried ? ' hurried' : ''}`))
  for (const name of ['stopping', 'aborting', 'server-lost', 'finished']) run.on(name, () => seen.push(`<${name}>`))
  const done = run.execute()
  while (run.status.state === 'starting') await new Promise(setImmediate)
  return { run, workers, seen, done }
}

const settle = () => new Promise(setImmediate)

test('threads: stop during the warm-up goes to every worker; finished once all are done', async (t) => {
  const { run, workers, seen, done } = await threaded(t, { warmupS: 10 })
  assert.deepEqual(workers.map((w) => w.commands), [['go'], ['go']])
  run.stop('interrupted')
  for (const w of workers) { w.post({ t: 'stopping', reason: 'interrupted' }); w.done({ interrupted: true }) }
  const outcome = await done
  assert.deepEqual(workers.map((w) => w.commands), [['go', 'stop:interrupted'], ['go', 'stop:interrupted']])
  assert.deepEqual(seen, ['running', '<stopping>', 'stopping:interrupted', 'finished:interrupted', '<finished>'])
  assert.equal(outcome.interrupted, true)
  assert.equal(outcome.aborted, false)
})

test('threads: a worker\'s own end is the run\'s stopping, not a command to the others; the grace\'s cancels are counted', async (t) => {
  const { run, workers, seen, done } = await threaded(t, { durationS: 1 })
  workers[0].post({ t: 'stopping', reason: 'duration' })
  workers[1].post({ t: 'stopping', reason: 'duration' })
  assert.equal(run.status.reason, 'duration')
  workers[0].post({ t: 'event', name: 'cancelled', e: { reason: 'grace', count: 2, graceS: 10 } })
  assert.equal(run.status.cancelled.grace, 2)
  workers[0].done({ grace: 2 })
  workers[1].done()
  await done
  assert.deepEqual(workers.map((w) => w.commands), [['go'], ['go']])
  assert.deepEqual(seen, ['running', '<stopping>', 'stopping:duration', 'finished:duration', '<finished>'])
})

test('threads: Ctrl-C twice hurries and aborts every worker once, and marks the run interrupted', async (t) => {
  const { run, workers, seen, done } = await threaded(t)
  run.stop('interrupted')
  run.abort('interrupted')
  run.abort('interrupted')
  await settle()
  for (const w of workers) w.done({ interrupted: true })
  const outcome = await done
  assert.deepEqual(workers[0].commands, ['go', 'stop:interrupted', 'abort:interrupted', 'abort:interrupted'])
  assert.deepEqual(seen, ['running', '<stopping>', 'stopping:interrupted', 'stopping:interrupted hurried', '<aborting>', 'aborting:interrupted hurried', 'finished:interrupted hurried', '<finished>'])
  assert.equal(outcome.interrupted, true)
  assert.equal(outcome.aborted, false)
})

test('threads: a worker that loses the server aborts the whole run (server-lost, aborting, finished)', async (t) => {
  const { workers, seen, done } = await threaded(t)
  workers[1].post({ t: 'event', name: 'server-lost', e: { error: { message: 'refused' }, failingForMs: 10000, serverLostS: 10 } })
  workers[1].post({ t: 'stopping', reason: 'connection-lost' })
  workers[1].post({ t: 'aborting', reason: 'connection-lost' })
  await settle()
  for (const w of workers) w.done({ abortReason: 'connection-lost' })
  const outcome = await done
  assert.deepEqual(workers[0].commands, ['go', 'abort:connection-lost'])
  assert.deepEqual(seen, ['running', '<server-lost>', '<stopping>', 'stopping:connection-lost', '<aborting>', 'aborting:connection-lost', 'finished:connection-lost', '<finished>'])
  assert.equal(outcome.abortReason, 'connection-lost')
  assert.equal(outcome.aborted, true)
})
