// The results document's last steps as outputs of the session: every output may add to it
// (finish) before the one write of the plan's results file, the plan's thresholds judge it, and
// the file is written before the other outputs' end. A required output's failure (the file, the
// thresholds) is the command's, after every output had its turn; another's is a warning line.

import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { EventEmitter } from 'node:events'
import { mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { RunSession } from '../../../lib/session/run-session.js'
import { resolvePlan } from '../../../lib/plan/resolve.js'

const dir = mkdtempSync(join(tmpdir(), 'pgload-session-results-'))
after(() => rmSync(dir, { recursive: true, force: true }))

/** A session whose measured run is faked: a handle, and a document with a summary. */
function fakedSession (lines, { p99 = 2 } = {}) {
  return new RunSession({
    signals: false,
    err: { write: (s) => lines.push(...s.split('\n').filter(Boolean)) },
    runBenchmark: async (plan, hooks) => {
      const run = new EventEmitter()
      hooks.onRun(run, { types: ['t'], sampler: null })
      const summary = { transactions: 10, failed: 0, tps: 10, latencyMs: { p50: 1, p90: 1.5, p95: 1.8, p99, max: 3, mean: 1.1 } }
      return { exitCode: 0, file: plan.out, run, results: { schemaVersion: 1, run: { startTime: 'now', durationS: 1 }, summary, transactions: [] } }
    }
  })
}

const planFor = (name, extra = {}) => resolvePlan({ workload: 'tpcb', url: 'postgres://u@127.0.0.1:1/db', durationS: 1, out: join(dir, `${name}.json`), ...extra })

test('outputs add to the document before its one write; the file is written before the others end', async () => {
  const lines = []
  const session = fakedSession(lines)
  const order = []
  session.use({
    name: 'section',
    finish (results) { order.push('finish'); results.mine = { seen: true } },
    end (results, { file }) {
      order.push('end')
      assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')).mine, { seen: true }, 'written, with the section, before end')
    }
  })
  const plan = await planFor('section', { thresholds: ['p(99) < 5ms'] })
  const outcome = await session.run(plan)
  await session.close()
  assert.deepEqual(order, ['finish', 'end'])
  const written = JSON.parse(readFileSync(plan.out, 'utf8'))
  assert.equal(written.thresholds.length, 1)
  assert.equal(written.thresholds[0].pass, true)
  assert.deepEqual(outcome.results.thresholds, written.thresholds)
  assert.deepEqual(lines, [])
})

test('an output that fails costs a warning line; the file is still written', async () => {
  const lines = []
  const session = fakedSession(lines)
  session.use({ name: 'broken', finish () { throw new Error('no luck') } })
  const plan = await planFor('broken')
  await session.run(plan)
  await session.close()
  assert.ok(existsSync(plan.out))
  assert.deepEqual(lines, ['pgload: warning: output broken failed at finish: no luck'])
})

test('a results file that cannot be written is the command\'s failure, after the other outputs ended', async () => {
  const lines = []
  const session = fakedSession(lines)
  let ended = false
  session.use({ name: 'after', end () { ended = true } })
  // the place was writable when the run started; by its end a file stands where the folder was
  const blocker = join(dir, 'blocker')
  writeFileSync(blocker, '')
  let saved = null
  await assert.rejects(session.run(await planFor('blocked', { out: join(blocker, 'x.json') })), (err) => {
    saved = /they were saved to (\S+\.json)/.exec(err.message)?.[1]
    return /^could not write results to /.test(err.message)
  })
  if (saved) rmSync(saved, { force: true })
  await session.close()
  assert.equal(ended, true, 'the other outputs still had their turn')
})
