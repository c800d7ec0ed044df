import { test } from 'node:test'
import assert from 'node:assert/strict'
import { EventEmitter } from 'node:events'
import { ScenarioRuns } from '../../../lib/scenarios/scenario-run.js'

/** A run handle that records the commands it gets. */
function fakeRun () {
  const run = new EventEmitter()
  run.calls = []
  run.status = { state: 'starting', startUs: undefined }
  run.stop = (reason) => run.calls.push(['stop', reason])
  run.abort = (reason) => run.calls.push(['abort', reason])
  return run
}

test('stop reaches every run, and a scenario still waiting for its start is released and stopped when it comes', async () => {
  const runs = new ScenarioRuns()
  const a = fakeRun()
  runs.add(a, null)
  const waiting = runs.wait(60_000)
  runs.stop('interrupted')
  await waiting // released at once, not after a minute
  assert.deepEqual(a.calls, [['stop', 'interrupted']])
  const late = fakeRun()
  runs.add(late, null)
  assert.deepEqual(late.calls, [['stop', 'interrupted']])
  runs.abort('interrupted')
  assert.deepEqual(a.calls.at(-1), ['abort', 'interrupted'])
  assert.equal(runs.status.state, 'stopping')
})

test('a run bounded by transactions is stopped at its window\'s end once measuring', async () => {
  const runs = new ScenarioRuns()
  const run = fakeRun()
  runs.add(run, 0.01)
  assert.deepEqual(run.calls, [])
  const stopped = new Promise((resolve) => { run.stop = (reason) => resolve(reason) })
  // the window's timer does not hold the process (the run's own work does): this test holds it
  const hold = setInterval(() => {}, 1000)
  run.emit('measuring')
  try {
    assert.equal(await stopped, 'duration')
  } finally {
    clearInterval(hold)
  }
})
