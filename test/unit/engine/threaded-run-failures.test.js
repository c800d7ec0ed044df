// Worker threads that fail or stop answering, played by the test: the run ends on its own, in one
// line naming the first thread that failed and why, with the other threads' results (a run of
// `-j 500` on two cores printed 57 lines and never ended).

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ThreadedRun } from '../../../lib/engine/threaded-run.js'
import { testRunArgs } from './test-settings.js'
import { FakeWorker } from './fake-worker.js'

const workload = { name: 'fake', transactions: [{ name: 'q', weight: 1, async run () {} }] }
const settle = () => new Promise(setImmediate)

/** A threaded run of `jobs` played workers; a worker answers stop and abort with its results unless `silent`. */
async function played ({ jobs, silent = [], answerMs = 50, stallMs }) {
  const { settings, runtime } = testRunArgs(workload, { clients: 6, durationS: 60, graceS: 0, seed: 1n })
  const workers = []
  const run = new ThreadedRun(workload, settings, runtime, {
    jobs,
    source: { module: 'unused', data: null },
    answerMs,
    stallMs,
    spawn: (url, { workerData }) => {
      const w = new FakeWorker(workerData)
      w.settings = { ...workerData.settings, thinkTime: null }
      const index = workers.length
      const postMessage = w.postMessage.bind(w)
      w.postMessage = (m) => {
        postMessage(m)
        if ((m.t === 'abort' || m.t === 'stop') && !silent.includes(index) && !w.answered) {
          w.answered = true
          setImmediate(() => w.done({ abortReason: m.t === 'abort' ? m.reason : null }))
        }
      }
      w.terminated = false
      const terminate = w.terminate.bind(w)
      w.terminate = () => { w.terminated = true; terminate() }
      workers.push(w)
      return w
    }
  })
  const lines = []
  run.on('internal-error', (e) => lines.push(e.stack))
  const done = run.execute()
  while (run.status.state === 'starting') await settle()
  return { run, workers, lines, done }
}

test('threads: a worker that fails and one that then never answers end the run in one line, with the others\' results', { timeout: 10_000 }, async () => {
  const { workers, lines, done } = await played({ jobs: 3, silent: [2] })
  workers[1].post({ t: 'crash', error: { message: 'timeout expired\nat somewhere' } })
  const outcome = await done
  assert.deepEqual(lines, ['worker thread 1 stopped: timeout expired'])
  assert.equal(outcome.aborted, true)
  assert.equal(outcome.abortReason, 'internal-error')
  assert.equal(workers[2].terminated, true, 'the thread that never answered is stopped')
  assert.deepEqual(outcome.client.threads.map((t) => t.crashed === true), [false, true, true])
  assert.equal(outcome.threads, 3)
})

test('threads: a worker that stops reporting mid-run is stopped as failed; the run ends with what was measured', { timeout: 10_000 }, async () => {
  const { workers, lines, done, run } = await played({ jobs: 2, stallMs: 40 })
  // worker 0 goes on reporting; worker 1 says nothing more
  const beat = setInterval(() => workers[0].post({ t: 'warmup-tick', e: { elapsedS: 0, warmupS: 0, terminals: null, connections: { active: 0, waiting: 0 } } }), 10)
  const outcome = await done
  clearInterval(beat)
  assert.equal(lines.length, 1)
  assert.match(lines[0], /^worker thread 1 stopped: no report for [\d.]+ s \(its event loop is blocked or starved of CPU\)$/)
  assert.equal(workers[1].terminated, true)
  assert.equal(run.status.state, 'finished')
  assert.equal(outcome.abortReason, 'internal-error')
  assert.deepEqual(outcome.client.threads.map((t) => t.crashed === true), [false, true])
})

test('threads: when no worker answers the end, the run still ends, in one line', { timeout: 10_000 }, async () => {
  const { workers, lines, done, run } = await played({ jobs: 2, silent: [0, 1] })
  run.stop('duration')
  await assert.rejects(done, (err) => err.code === 'WORKER_FAILED' && err.exitCode === 2)
  assert.equal(lines.length, 1)
  assert.match(lines[0], /^worker thread 0 stopped: no results [\d.]+ s after the run stopped$/)
  assert.ok(workers.every((w) => w.terminated))
})
