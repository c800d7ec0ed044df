// An output of a library caller's own, registered through the public API: it is told the start,
// every interval (the final one too), each stage and the end, for a run on worker threads (-j 2)
// and for a two-stage run, exactly as the results document records them.

import { test, before } from 'node:test'
import assert from 'node:assert/strict'
import { getTestServer } from '../helpers/server.js'
import { RunSession, defineOutput, resolvePlan } from '../../lib/index.js'

let server
const SLEEP = { kind: 'file', name: 'sleep.sql', weight: 1, text: 'SELECT pg_sleep(0.002);\n' }

before(async () => {
  server = await getTestServer()
})

/** An output that keeps what it is told. */
function recorder () {
  const seen = { starts: 0, types: null, run: null, intervals: [], stages: [], ends: [], closes: 0, phases: [] }
  const output = defineOutput({
    name: 'recorder',
    phase (name) { seen.phases.push(name) },
    start (ctx) {
      seen.starts++
      seen.types = ctx.types
      seen.run = ctx.run
      assert.equal(ctx.sampler, null, 'the sampler only for outputs that need it')
    },
    interval (e) { seen.intervals.push(e) },
    stage (e) { seen.stages.push(e) },
    end (results, ctx) { seen.ends.push({ results, file: ctx.file, exitCode: ctx.exitCode }) },
    close () { seen.closes++ }
  })
  return { seen, output }
}

/** Every interval the document records reached the output, with the same counts. */
function assertIntervals (seen, results) {
  const measured = seen.intervals.filter((e) => !e.warmup)
  assert.equal(measured.length, results.intervals.length)
  const counted = (e) => Object.values(e.types ?? {}).reduce((n, t) => n + (t.count ?? 0), 0)
  const told = measured.reduce((n, e) => n + counted(e), 0)
  assert.equal(told, results.summary.transactions)
  assert.equal(measured.at(-1).final, true)
}

test('a run on two worker threads: every interval and the end reach a custom output', async () => {
  const plan = await resolvePlan({ workload: 'tpcb', scripts: [SLEEP], url: server.url, clients: 4, jobs: 2, durationS: 3, intervalS: 1, writeFile: false, serverStats: false })
  const { seen, output } = recorder()
  const session = new RunSession({ signals: false, err: { write () {} } }).use(output)
  const outcome = await session.run(plan)
  await session.close()
  assert.equal(seen.starts, 1)
  assert.deepEqual(seen.types, ['sleep.sql'])
  assert.equal(seen.run, outcome.run)
  assert.ok(seen.phases.includes('running'))
  assert.equal(seen.ends.length, 1)
  assert.equal(seen.ends[0].results, outcome.results)
  assert.equal(seen.ends[0].exitCode, 0)
  assert.equal(outcome.results.run.options.jobs, 2)
  assertIntervals(seen, outcome.results)
  assert.equal(seen.closes, 1)
})

test('a two-stage run: both stages and every interval reach it', async () => {
  const plan = await resolvePlan({ workload: 'tpcb', scripts: [SLEEP], url: server.url, clients: 4, rate: 50, stages: '2s:50,2s:100', intervalS: 1, writeFile: false, serverStats: false })
  const { seen, output } = recorder()
  const session = new RunSession({ signals: false, err: { write () {} } })
  // an output for this run only: closed once the run ends
  const outcome = await session.run(plan, { outputs: [output] })
  assert.equal(seen.closes, 1)
  await session.close()
  assert.equal(seen.closes, 1)
  assert.equal(outcome.results.stages.length, 2)
  assert.equal(seen.stages.length, 2)
  assertIntervals(seen, outcome.results)
})

test('an output that throws costs a warning line, not the run nor the other outputs', async () => {
  const plan = await resolvePlan({ workload: 'tpcb', scripts: [SLEEP], url: server.url, clients: 2, durationS: 1, intervalS: 1, writeFile: false, serverStats: false })
  const lines = []
  const { seen, output } = recorder()
  const session = new RunSession({ signals: false, err: { write (s) { lines.push(s) } } })
  session.use({ name: 'broken', interval () { throw new Error('boom') }, end () { throw new Error('bang') } }).use(output)
  const outcome = await session.run(plan)
  await session.close()
  assert.equal(outcome.exitCode, 0)
  assert.equal(seen.ends.length, 1)
  assert.ok(lines.some((l) => /output broken failed at interval: boom/.test(l)), lines.join(''))
  assert.ok(lines.some((l) => /output broken failed at end: bang/.test(l)))
})

test('interrupt() before the run starts: the run is not started and the error says 130 or 143', async () => {
  const plan = await resolvePlan({ workload: 'tpcb', scripts: [SLEEP], url: server.url, clients: 2, durationS: 1, writeFile: false, serverStats: false })
  const session = new RunSession({ signals: false, err: { write () {} } })
  session.interrupt('SIGTERM')
  await assert.rejects(session.run(plan), (err) => err.code === 'INTERRUPTED' && err.exitCode === 143)
  await session.close()
})
