import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SweepRunner } from '../../../lib/sweep/runner.js'
import { newSweepDocument } from '../../../lib/sweep/document.js'
import { runOrder } from '../../../lib/sweep/order.js'
import { cellsOf, cellText } from '../../../lib/sweep/axes.js'

const dirs = []
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }) })

function sweepDoc (axes = { scale: [1, 2], clients: [1, 2, 4], rate: null }, repeat = 3) {
  const planned = runOrder(cellsOf(axes), repeat, 3)
  return newSweepDocument({ id: 'x', at: new Date(0), toolVersion: '0', command: 'pgload sweep', args: [], workload: 'tpcb', label: null, axes, repeat, orderSeed: 3, options: {}, host: {}, planned })
}

const onDisk = (dir) => JSON.parse(readFileSync(join(dir, 'sweep.json'), 'utf8'))

/**
 * A runner on fakes that log what happens: loads, CHECKPOINTs and runs; `onRunStart(i, runner, fakeRun)`
 * may act while the i-th run (0-based, in this sitting) is running.
 */
function setUp (doc, { onRunStart, failAt, exitCodeAt } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'pgload-sweep-runner-'))
  dirs.push(dir)
  const log = []
  let started = 0
  const runner = new SweepRunner({
    dir,
    doc,
    plannedS: 1,
    planFor: async (run) => ({ cell: run.cell, out: join(dir, run.file) }),
    loadSize: async (size) => { log.push(`load ${size}`) },
    prepareRun: async (plan) => {
      log.push(`checkpoint ${cellText(plan.cell)}`)
      return { checkpointed: true, dbSizeBytes: 1000 * plan.cell.scale, server: { version: '18.1', embedded: true } }
    },
    runBenchmark: async (plan, hooks) => {
      const i = started++
      if (i === failAt) throw Object.assign(new Error('cannot connect to PostgreSQL at 127.0.0.1:1: connection refused\nmore'), { code: 'ECONNREFUSED' })
      let stopped = null
      const fakeRun = { stop: (why) => { stopped = `stop ${why}` }, abort: (why) => { stopped = `abort ${why}` } }
      hooks.onRun(fakeRun)
      onRunStart?.(i, runner, fakeRun)
      log.push(`run ${cellText(plan.cell)}${stopped ? ` (${stopped})` : ''}`)
      const tps = 100 * plan.cell.clients + i
      return {
        exitCode: i === exitCodeAt ? 2 : 0,
        file: plan.out,
        results: { run: { interrupted: Boolean(stopped), startTime: '2026-01-01T00:00:00.000Z', durationS: 1, terminals: plan.cell.clients, connections: plan.cell.clients }, summary: { tps, transactions: tps, failed: 0, latencyMs: { p50: 1, p99: 2, max: 3 } } }
      }
    }
  })
  return { runner, dir, log }
}

test('each scale is loaded once, ascending, before its runs; a CHECKPOINT before every run; the document after each', async () => {
  const doc = sweepDoc()
  const { runner, dir, log } = setUp(doc)
  const outcome = await runner.run()
  assert.deepEqual(outcome, { interrupted: false, ran: 18 })
  assert.equal(log[0], 'load 1')
  assert.equal(log[19], 'load 2')
  assert.equal(log.filter((l) => l.startsWith('load')).length, 2)
  for (let i = 1; i < log.length; i += 2) {
    if (log[i].startsWith('load')) i++
    assert.match(log[i], /^checkpoint /)
    assert.equal(log[i + 1], log[i].replace('checkpoint', 'run'), 'the run right after its own CHECKPOINT')
  }
  // runs in the document's order
  const ran = log.filter((l) => l.startsWith('run ')).map((l) => l.slice(4))
  assert.deepEqual(ran, doc.runs.map((r) => cellText(r.cell)))
  const saved = onDisk(dir)
  assert.ok(saved.runs.every((r) => r.status === 'done' && r.attempts === 1 && r.checkpointed === true))
  assert.equal(saved.cells.length, 6)
  assert.equal(saved.runs[0].dbSizeBytes, 1000)
  assert.deepEqual(saved.server, { version: '18.1', embedded: true })
  assert.deepEqual(saved.loads.map((l) => l.scale), [1, 2])
  assert.deepEqual(saved.cells.map((c) => c.runs), [3, 3, 3, 3, 3, 3])
})

test('resuming runs only what is not done: pending, failed and interrupted runs, loading only their scales', async () => {
  const doc = sweepDoc()
  for (const r of doc.runs) if (r.cell.scale === 1) Object.assign(r, { status: 'done', tps: 1, wallS: 2, attempts: 1 })
  const scale2 = doc.runs.filter((r) => r.cell.scale === 2)
  Object.assign(scale2[0], { status: 'done', tps: 1, attempts: 1 })
  Object.assign(scale2[1], { status: 'interrupted', tps: 1, attempts: 1 })
  Object.assign(scale2[2], { status: 'failed', error: 'x', attempts: 1 })
  const { runner, dir, log } = setUp(doc)
  const outcome = await runner.run()
  assert.deepEqual(outcome, { interrupted: false, ran: 8 })
  assert.deepEqual(log.filter((l) => l.startsWith('load')), ['load 2'])
  const saved = onDisk(dir)
  assert.ok(saved.runs.every((r) => r.status === 'done'))
  assert.equal(saved.runs.find((r) => r.order === scale2[1].order).attempts, 2)
  assert.equal(saved.runs.find((r) => r.order === scale2[0].order).attempts, 1, 'a done run is not run again')
})

test('an interrupt lets the current run finish, records it as interrupted and starts no other', async () => {
  const doc = sweepDoc({ scale: null, clients: [1, 2], rate: null }, 2)
  const { runner, dir, log } = setUp(doc, { onRunStart: (i, r) => { if (i === 1) r.interrupt() } })
  const outcome = await runner.run()
  assert.deepEqual(outcome, { interrupted: true, ran: 2 })
  assert.deepEqual(log.filter((l) => l.startsWith('run')), [`run ${cellText(doc.runs[0].cell)}`, `run ${cellText(doc.runs[1].cell)} (stop interrupted)`])
  assert.deepEqual(onDisk(dir).runs.map((r) => r.status), ['done', 'interrupted', 'pending', 'pending'])
})

test('a second interrupt aborts the current run at once; it is still recorded', async () => {
  const doc = sweepDoc({ scale: null, clients: [1, 2], rate: null }, 1)
  const { runner, dir, log } = setUp(doc, { onRunStart: (i, r) => { r.interrupt(); r.interrupt(true) } })
  assert.deepEqual(await runner.run(), { interrupted: true, ran: 1 })
  assert.match(log.at(-1), /\(abort interrupted\)$/)
  assert.deepEqual(onDisk(dir).runs.map((r) => r.status), ['interrupted', 'pending'])
})

test('a run that cannot run at all is recorded as failed and stops the sweep with one line; an aborted one does not', async () => {
  const doc = sweepDoc({ scale: null, clients: [1, 2, 4], rate: null }, 1)
  const { runner, dir } = setUp(doc, { failAt: 2, exitCodeAt: 0 })
  await assert.rejects(runner.run(), (err) => err.name === 'PgloadError' &&
    err.message === `run 3 of the sweep (${cellText(doc.runs[2].cell)}, repeat 1) failed: cannot connect to PostgreSQL at 127.0.0.1:1: connection refused`)
  const saved = onDisk(dir)
  assert.deepEqual(saved.runs.map((r) => r.status), ['failed', 'done', 'failed'])
  assert.match(saved.runs[0].error, /^the run was aborted/)
  assert.equal(saved.runs[2].error, 'cannot connect to PostgreSQL at 127.0.0.1:1: connection refused')
  assert.deepEqual(saved.cells.map((c) => c.cell.clients), [doc.runs[1].cell.clients], 'cells hold done runs only')
})

test('a second interrupt while nothing can be stopped (a CHECKPOINT that hangs) does not wait for it', async () => {
  const doc = sweepDoc({ scale: null, clients: [1], rate: null }, 1)
  const dir = mkdtempSync(join(tmpdir(), 'pgload-sweep-runner-'))
  dirs.push(dir)
  const runner = new SweepRunner({
    dir,
    doc,
    plannedS: 1,
    planFor: async (run) => ({ cell: run.cell }),
    loadSize: async () => {},
    prepareRun: () => new Promise(() => {}), // a server that never answers
    runBenchmark: async () => { throw new Error('never reached') }
  })
  const running = runner.run()
  await new Promise((resolve) => setImmediate(resolve))
  runner.interrupt()
  runner.interrupt(true)
  assert.deepEqual(await running, { interrupted: true, ran: 0 })
  assert.equal(doc.runs[0].status, 'pending')
})
