// Worker threads (-j N) on in-memory connections: the same transactions whatever N, exact merged
// counts, the split of connections and --rate, stop and abort, and a worker that fails.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { newRunOn } from './test-settings.js'
import { Run } from '../../../lib/engine/run.js'
import { traceTypes, byTerminal } from './thread-source.js'
import { fakeConnection } from './fake-run.js'

const SOURCE = new URL('./thread-source.js', import.meta.url).href

/** A run of the trace workload on `jobs` threads (jobs 1: this thread); its outcome and trace. */
async function traced ({ jobs, types, seed = 42n, clients = 7, perClient = 12, durationS = 0, data = {}, opts = {}, onRun, waits = {} }) {
  const trace = []
  const workload = { name: 'trace', transactions: traceTypes(types, trace, data) }
  let pid = 0
  const runOptions = { clients, transactionsPerClient: perClient, durationS, seed, openConnection: async () => fakeConnection(++pid), ...opts }
  const run = newRunOn(workload, runOptions, { jobs, source: { module: SOURCE, data: { types, ...data } }, ...waits })
  onRun?.(run)
  const outcome = await run.execute()
  const all = jobs > 1 ? (run.partSections ?? []).flatMap((s) => s.trace) : trace
  return { run, outcome, perTerminal: byTerminal(all) }
}

const TWO_TYPES = [['a', 3], ['b', 1]]

test('same seed: every terminal runs the same types with the same parameters on 2 and 3 threads', async () => {
  const two = await traced({ jobs: 2, types: TWO_TYPES })
  const three = await traced({ jobs: 3, types: TWO_TYPES })
  assert.equal(two.perTerminal.size, 7)
  for (let id = 0; id < 7; id++) {
    assert.equal(two.perTerminal.get(id).length, 12)
    assert.deepEqual(three.perTerminal.get(id), two.perTerminal.get(id), `terminal ${id}`)
  }
  // both types ran, and another seed gives other transactions
  const types = new Set([...two.perTerminal.values()].flat().map((t) => t[0]))
  assert.deepEqual([...types].sort(), ['a', 'b'])
  const other = await traced({ jobs: 2, types: TWO_TYPES, seed: 43n })
  assert.notDeepEqual(other.perTerminal.get(0), two.perTerminal.get(0))
})

test('one type: the same parameters on one thread (pgbench\'s order) as on two', async () => {
  const one = await traced({ jobs: 1, types: [['only', 1]] })
  const two = await traced({ jobs: 2, types: [['only', 1]] })
  assert.ok(one.run instanceof Run)
  for (let id = 0; id < 7; id++) assert.deepEqual(two.perTerminal.get(id), one.perTerminal.get(id), `terminal ${id}`)
})

test('counts merge exactly: the outcome, its intervals and each thread\'s part', async () => {
  const ticks = []
  const { outcome, run } = await traced({ jobs: 3, types: TWO_TYPES, clients: 8, perClient: 25, onRun: (r) => r.on('tick', (t) => ticks.push(t)) })
  assert.equal(outcome.summary.transactions, 8 * 25)
  assert.equal(outcome.transactions.a.count + outcome.transactions.b.count, 200)
  assert.equal(outcome.terminals, 8)
  assert.equal(outcome.threads, 3)
  assert.equal(run.poolSize, 8)
  const inSeries = outcome.intervals.reduce((n, iv) => n + iv.count.a + iv.count.b, 0)
  assert.equal(inSeries, 200)
  assert.equal(ticks.length, outcome.intervals.length)
  assert.deepEqual(outcome.client.threads.map((t) => [t.firstTerminal, t.terminals, t.transactions]), [[0, 2, 50], [2, 3, 75], [5, 3, 75]])
  assert.equal(outcome.summary.latencyMs.p50 !== null, true)
})

test('--connections and --rate are shared out over the threads and sum to the asked amounts', () => {
  const workload = { transactions: traceTypes([['a', 1]], []) }
  const run = newRunOn(workload, { clients: 10, connections: 5, rate: 300, seed: 1n }, { jobs: 3, source: { module: SOURCE, data: {} } })
  assert.deepEqual(run.connectionShares, [2, 1, 2])
  assert.equal(run.poolSize, 5)
  assert.deepEqual(run.ranges.map((r) => r.count), [3, 3, 4])
  assert.deepEqual(run.rates, [90, 90, 120])
})

test('more threads than terminals: as many as terminals (pgbench); more than TPC-C\'s warehouses: one line', () => {
  const workload = { transactions: traceTypes([['a', 1]], []) }
  const two = newRunOn(workload, { clients: 2, seed: 1n }, { jobs: 3, source: { module: SOURCE, data: {} } })
  assert.equal(two.jobs, 2)
  assert.ok(newRunOn(workload, { clients: 1, seed: 1n }, { jobs: 2, source: { module: SOURCE, data: {} } }) instanceof Run)
  const tpcc = { transactions: traceTypes([['a', 1]], []), terminals: 20, terminalGroup: 10, terminalGroupName: 'warehouses' }
  assert.throws(() => newRunOn(tpcc, { clients: 1, seed: 1n }, { jobs: 3, source: { module: SOURCE, data: {} } }),
    (err) => err.code === 'BAD_OPTION' && err.message === '--jobs 3 needs at least 3 warehouses, the run has 2')
})

test('stop (Ctrl-C once) ends every thread, and what was measured is kept', async () => {
  const { outcome } = await traced({
    jobs: 2,
    types: [['a', 1]],
    perClient: 0,
    durationS: 60,
    data: { answerMs: 2 },
    onRun: (r) => r.once('measuring', () => setTimeout(() => r.stop('interrupted'), 300))
  })
  assert.equal(outcome.interrupted, true)
  assert.ok(outcome.durationS < 10, `ended early: ${outcome.durationS} s`)
  assert.ok(outcome.summary.transactions > 0)
  assert.equal(outcome.aborted, false)
})

test('a worker that fails: one line, and the run ends with the other\'s measurements', async () => {
  const errors = []
  const { outcome } = await traced({
    jobs: 2,
    types: [['a', 1]],
    perClient: 0,
    durationS: 60,
    data: { answerMs: 2, crash: { thread: 1, afterMs: 1800 } },
    onRun: (r) => r.on('internal-error', (e) => errors.push(e))
  })
  assert.equal(errors.length, 1)
  assert.equal(errors[0].stack, 'worker thread 1 stopped: simulated failure')
  assert.equal(outcome.abortReason, 'internal-error')
  assert.equal(outcome.aborted, true)
  assert.ok(outcome.summary.transactions > 0)
  assert.deepEqual(outcome.client.threads[1], { thread: 1, crashed: true })
  // the failed worker's closed intervals count in the totals as in the series
  const inSeries = outcome.intervals.reduce((n, iv) => n + iv.count.a, 0)
  assert.equal(outcome.summary.transactions, inSeries)
  assert.ok(outcome.summary.transactions > outcome.client.threads[0].transactions)
  assert.ok(outcome.durationS < 10)
})

test('a worker whose event loop blocks is stopped after its silence: one line, and the run ends with what was measured', { timeout: 30_000 }, async () => {
  const errors = []
  const { outcome } = await traced({
    jobs: 2,
    types: [['a', 1]],
    perClient: 0,
    durationS: 60,
    opts: { intervalS: 0.2 },
    waits: { stallMs: 3000 },
    data: { answerMs: 2, block: { thread: 1, afterMs: 500 } },
    onRun: (r) => r.on('internal-error', (e) => errors.push(e.stack))
  })
  assert.equal(errors.length, 1)
  assert.match(errors[0], /^worker thread 1 stopped: no report for [\d.]+ s \(its event loop is blocked or starved of CPU\)$/)
  assert.equal(outcome.abortReason, 'internal-error')
  assert.ok(outcome.summary.transactions > 0)
  assert.deepEqual(outcome.client.threads[1], { thread: 1, crashed: true })
  assert.ok(outcome.durationS < 60)
})

test('abort (Ctrl-C twice) ends every thread at once; the abort event comes once', async () => {
  const aborts = []
  let threaded
  const { outcome } = await traced({
    jobs: 2,
    types: [['a', 1]],
    perClient: 0,
    durationS: 60,
    data: { answerMs: 2 },
    onRun: (r) => {
      threaded = r
      r.on('aborting', (e) => aborts.push(e.reason))
      r.once('measuring', () => setTimeout(() => { r.stop('interrupted'); r.abort('interrupted'); r.abort('interrupted') }, 300))
    }
  })
  assert.equal(threaded.status.hurried, true)
  assert.deepEqual(aborts, ['interrupted'])
  assert.equal(outcome.interrupted, true)
  assert.equal(outcome.aborted, false) // interrupted, not failed
  assert.ok(outcome.summary.transactions > 0)
})
