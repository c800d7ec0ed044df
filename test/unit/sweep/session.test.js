import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { EventEmitter } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runSweep } from '../../../lib/sweep/session.js'
import { sweepSpec } from '../../../lib/sweep/spec.js'
import { newSweepDocument } from '../../../lib/sweep/document.js'
import { runOrder } from '../../../lib/sweep/order.js'
import { RunSession } from '../../../lib/session/run-session.js'

const dir = mkdtempSync(join(tmpdir(), 'pgload-sweep-session-'))
after(() => rmSync(dir, { recursive: true, force: true }))

test('a sitting: each run\'s plan is its cell\'s, with its file; a line before and after each run; warnings of the run shown', async () => {
  const url = 'postgres://me@127.0.0.1:1/bench' // never reached: the world is faked
  const spec = await sweepSpec({ workload: 'tpcb', scripts: [], url, clients: '2,1', durationS: '1s', label: 'night', workloadOptions: { scale: '1' } }, { repeat: 1 })
  const doc = newSweepDocument({ id: 'x', at: new Date(0), toolVersion: '0', command: 'c', args: [], workload: 'tpcb', label: 'night', axes: spec.axes, repeat: 1, orderSeed: 1, options: spec.options, host: {}, planned: runOrder(spec.cells, 1, 1) })
  let text = ''
  const err = { write: (s) => { text += s } }
  const plans = []
  const session = new RunSession({
    signals: false,
    err,
    // the measured run, faked: a run handle that warns of an aborted client, and its document
    runBenchmark: async (plan, hooks) => {
      plans.push(plan)
      const run = new EventEmitter()
      run.stop = () => {}
      hooks.onRun(run, { types: [], sampler: null })
      run.emit('terminal-aborted', { error: new Error('client 0 aborted in command 1') })
      return { exitCode: 0, file: null, run, results: { run: { startTime: 'now', durationS: 1 }, summary: { tps: 10 * plan.clients, transactions: 10, failed: 0, latencyMs: { p50: 1, p99: 2, max: 3 } } } }
    }
  })
  const outcome = await runSweep({ spec, dir, doc }, {
    err,
    loadSize: async () => {},
    prepareRun: async () => ({ checkpointed: false, checkpointRefused: 'permission denied to execute CHECKPOINT command', dbSizeBytes: 1 }),
    // each run through a session, as the command's: its outputs are the sweep's progress lines
    runBenchmark: (plan, hooks) => session.run(plan, { onRun: hooks.onRun, outputs: hooks.outputs })
  })
  await session.close()
  assert.deepEqual(outcome, { interrupted: false, ran: 2, error: null })
  assert.deepEqual(plans.map((p) => [p.clients, p.workloadOptions.scale, p.url, p.durationS]), doc.runs.map((r) => [r.cell.clients, 1, url, 1]))
  assert.deepEqual(plans.map((p) => p.out), doc.runs.map((r) => join(dir, r.file)))
  assert.deepEqual(plans.map((p) => p.label), doc.runs.map((r) => `night scale 1, clients ${r.cell.clients}`))
  const lines = text.split('\n')
  assert.equal(lines[0], 'pgload sweep: loading scale 1 for its 2 runs')
  assert.equal(lines[1], `pgload sweep: cell 1/2 (scale 1, clients ${doc.runs[0].cell.clients}, repeat 1): running 1 s; time left about 6s`)
  assert.equal(lines[2], 'pgload sweep: warning: CHECKPOINT before each run refused (permission denied to execute CHECKPOINT command): a run may begin during a checkpoint')
  assert.equal(lines[3], 'pgload: error: client 0 aborted in command 1')
  assert.equal(lines[4], `pgload sweep: cell 1/2 (scale 1, clients ${doc.runs[0].cell.clients}, repeat 1): ${10 * doc.runs[0].cell.clients}.0 tps, p50 1.00 ms, p99 2.00 ms, max 3.00 ms`)
  assert.equal(text.match(/^pgload sweep: warning: CHECKPOINT/gm).length, 1, 'said once')
  assert.equal(text.match(/^pgload sweep: cell 2\/2 /gm).length, 2)
})
