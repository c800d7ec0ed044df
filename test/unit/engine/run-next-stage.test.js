// An adaptive stage (Run.nextStage, what `pgload capacity` steps with): the arrival rate changes
// at an interval edge, each rate a stage of the results adding up to the run; and a run that
// fails after its pool opened closes its connections (they kept the process alive).

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { newRun } from './test-settings.js'
import { fakeServer } from './fake-server.js'

const workload = () => ({ name: 'fake', transactions: [{ name: 'q', weight: 1, async run (ctx) { await ctx.conn.execute() } }] })

test('nextStage: the rate changes at an interval edge; each rate a stage, the stages adding up to the run', async () => {
  const server = fakeServer()
  const run = newRun(workload(), { openConnection: server.open, clients: 8, stages: [{ durationS: 3, target: 200, ramp: true }], durationS: 3, maxQueue: 1000, rate: 200, intervalS: 0.5, seed: 5n })
  const begun = []
  run.on('stage', (e) => begun.push(e.index))
  run.on('interval', (e) => {
    if (e.index === 1) run.nextStage(600)
    if (e.index === 3) run.nextStage(100)
  })
  assert.throws(() => run.nextStage(100), /from an 'interval' listener/)
  const outcome = await run.execute()
  assert.deepEqual(begun, [0, 1, 2])
  const st = outcome.stages
  assert.deepEqual(st.map((s) => [s.startS, s.target.to]), [[0, 200], [1, 600], [2, 100]])
  assert.equal(st[0].endS, 1)
  assert.equal(st.reduce((n, s) => n + s.summary.transactions, 0), outcome.summary.transactions)
  assert.equal(st.reduce((n, s) => n + s.summary.arrivals, 0), outcome.summary.arrivals)
  // arrivals at each rate: 1 s at 200, 1 s at 600, 1 s at 100 (Poisson: within 5 standard deviations)
  for (const [s, expected] of [[st[0], 200], [st[1], 600], [st[2], 100]]) {
    assert.ok(Math.abs(s.summary.arrivals - expected) < 5 * Math.sqrt(expected) + 5, `stage ${s.index}: ${s.summary.arrivals} arrivals, ${expected} expected`)
  }
})

test('many free terminals: arrivals are counted when due, and a new rate applies at once, not after the arrivals they would have held', async () => {
  const server = fakeServer()
  // 200 free terminals at 50 arrivals/s: had each held the next arrival, they would hold 4 s of them
  const run = newRun(workload(), { openConnection: server.open, clients: 200, stages: [{ durationS: 3, target: 50, ramp: false }], durationS: 3, maxQueue: 1000, rate: 50, intervalS: 0.5, seed: 7n })
  run.on('interval', (e) => { if (e.index === 1) run.nextStage(400) })
  const outcome = await run.execute()
  const st = outcome.stages
  for (const [s, expected] of [[st[0], 50], [st[1], 800]]) {
    assert.ok(Math.abs(s.summary.arrivals - expected) < 5 * Math.sqrt(expected) + 5, `stage ${s.index}: ${s.summary.arrivals} arrivals, ${expected} expected`)
  }
  assert.equal(outcome.summary.arrivals, outcome.summary.transactions + outcome.summary.failed + outcome.summary.dropped)
})

test('a run that fails after its pool opened closes its connections and rejects', async () => {
  const server = fakeServer()
  const run = newRun(workload(), { openConnection: server.open, clients: 3, durationS: 5, seed: 1n })
  run.context.begin = () => { throw new Error('boom') }
  await assert.rejects(run.execute(), /boom/)
  assert.equal(server.opened, 3)
  assert.ok(server.conns.every((c) => c.closed), 'every connection closed')
})
