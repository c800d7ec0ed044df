import { test } from 'node:test'
import assert from 'node:assert/strict'
import { newRun } from './test-settings.js'
import { fakeServer } from './fake-server.js'
import { compileScript } from '../../../lib/script/compile.js'
import { scriptWorkload } from '../../../lib/script/workload.js'

function workload () {
  return { name: 'fake', transactions: [{ name: 'q', weight: 1, async run (ctx) { await ctx.conn.execute() } }] }
}

test('a run whose server disappears ends by itself, keeping what was measured', async () => {
  const server = fakeServer()
  const run = newRun(workload(), { openConnection: server.open, clients: 4, durationS: 60, seed: 1n, reconnectWindowS: 0.5 })
  setTimeout(() => { server.up = false }, 300)
  const t0 = performance.now()
  const outcome = await run.execute()
  assert.ok(performance.now() - t0 < 5000, 'ended long before the 60 s duration')
  assert.equal(outcome.abortReason, 'connection-lost')
  assert.equal(outcome.aborted, true)
  assert.ok(outcome.summary.transactions > 10)
  assert.ok(outcome.summary.errors.CONNECTION_LOST >= 1)
})

test('-t: every client runs exactly its transactions; intervals add up to the total', async () => {
  const server = fakeServer()
  const run = newRun(workload(), { openConnection: server.open, clients: 3, transactionsPerClient: 25, seed: 7n })
  const outcome = await run.execute()
  assert.equal(outcome.summary.transactions, 75)
  assert.equal(outcome.intervals.reduce((s, iv) => s + iv.count.q, 0), 75)
  assert.equal(server.opened, 3)
  assert.deepEqual(outcome.backendPids.sort(), [1001, 1002, 1003], 'the backends whose exit the server statistics wait for')
})

test('stop() lets transactions in flight finish and records them; the run is marked interrupted', async () => {
  const server = fakeServer()
  const run = newRun(workload(), { openConnection: server.open, clients: 2, durationS: 60, seed: 3n })
  setTimeout(() => run.stop('interrupted'), 200)
  const outcome = await run.execute()
  assert.equal(outcome.interrupted, true)
  assert.equal(outcome.aborted, false)
  assert.ok(outcome.summary.transactions > 0)
  assert.equal(outcome.summary.failed, 0)
})

for (const form of ['run', 'start']) {
  test(`retryable errors are retried with the same random state, up to --max-tries (workload ${form}())`, async () => {
    const server = fakeServer()
    const seen = []
    let calls = 0
    let rollbacks = 0
    // one try: a serialization failure inside an open transaction two times out of three
    const attempt = (ctx) => {
      seen.push(ctx.random.int(1, 1e9))
      ctx.conn.simpleQuery = async (sql) => { if (sql === 'ROLLBACK') { rollbacks++; ctx.conn.transactionStatus = 'I' } }
      if (++calls % 3 !== 0) {
        ctx.conn.transactionStatus = 'E'
        const e = new Error('could not serialize access'); e.code = '40001'
        return e
      }
      return null
    }
    const tx = form === 'run'
      ? { async run (ctx) { const e = attempt(ctx); if (e) throw e } }
      : { start (ctx, done) { const e = attempt(ctx); setImmediate(done, e) } }
    const wl = { name: 'retry', transactions: [{ name: 'r', weight: 1, ...tx }] }
    const run = newRun(wl, { openConnection: server.open, clients: 1, transactionsPerClient: 2, maxTries: 3, seed: 11n })
    const outcome = await run.execute()
    assert.equal(outcome.summary.transactions, 2)
    assert.equal(outcome.summary.retries, 4)
    assert.equal(outcome.summary.retried, 2)
    assert.equal(rollbacks, 4, 'each failed try is rolled back before the next')
    assert.equal(seen[0], seen[1])
    assert.equal(seen[1], seen[2])
    assert.notEqual(seen[2], seen[3])
    assert.equal(seen[3], seen[5])
  })
}

test('a script that never waits (no SQL) still ends on time with a duration', async () => {
  const server = fakeServer()
  const compiled = [compileScript({ name: 'sets.sql', text: '\\set a random(1, 10)\n\\set b :a + 1\n', weight: 1 }, { protocol: 'prepared' })]
  const wl = scriptWorkload(compiled, { randomSeed: 1n, clients: 2 })
  const run = newRun(wl, { openConnection: server.open, clients: 2, durationS: 0.3, seed: 1n, seeds: wl.seeds })
  const t0 = performance.now()
  const outcome = await run.execute()
  assert.ok(performance.now() - t0 < 5000, 'the deadline fired')
  assert.ok(outcome.summary.transactions > 100, `${outcome.summary.transactions} transactions`)
  assert.equal(outcome.summary.failed, 0)
})

test('-C: every transaction opens and closes a connection of its own; the connect time is reported', async () => {
  const server = fakeServer()
  const run = newRun(workload(), { openConnection: server.open, clients: 3, transactionsPerClient: 30, seed: 5n, connectPerTransaction: true })
  const outcome = await run.execute()
  assert.equal(outcome.summary.transactions, 90)
  assert.equal(server.opened, 90)
  assert.equal(typeof outcome.summary.averageConnectionMs, 'number')
  assert.equal(run.pool.all.length, 0, 'no connection left open')
  // the backends of the last 64 connections closed, not all 90
  assert.equal(outcome.backendPids.length, 64)
  assert.ok(outcome.backendPids.every(p => p > 1026 && p <= 1090), String(outcome.backendPids))
})

test('-C: a client whose connection cannot be opened aborts; the others carry on', async () => {
  const server = fakeServer()
  let n = 0
  const open = async () => { if (++n === 4) throw new Error('too many connections'); return server.open() }
  const run = newRun(workload(), { openConnection: open, clients: 2, transactionsPerClient: 5, seed: 5n, connectPerTransaction: true })
  const outcome = await run.execute()
  assert.equal(outcome.abortedClients, 1)
  assert.equal(outcome.aborted, true)
  assert.ok(outcome.summary.transactions >= 5 && outcome.summary.transactions < 10)
})

test('--think-time applies to the run\'s copy of the types: the caller\'s workload is not changed', async () => {
  const server = fakeServer()
  const own = { spec: 'fixed:2', meanUs: 2000, maxUs: 2000, sampleUs: () => 2000 }
  const wl = { name: 'fake', transactions: [workload().transactions[0], { name: 'own', weight: 1, thinkUs: own, async run (ctx) { await ctx.conn.execute() } }] }
  const before = wl.transactions
  const snapshot = wl.transactions.map((t) => ({ ...t }))
  const thinkTime = { spec: 'fixed:1', meanUs: 1000, maxUs: 1000, sampleUs: () => 1000 }
  const run = newRun(wl, { openConnection: server.open, clients: 2, transactionsPerClient: 3, seed: 2n, thinkTime })
  const outcome = await run.execute()
  assert.equal(wl.transactions, before, 'the same array')
  assert.deepEqual(wl.transactions, snapshot, 'its types unchanged')
  assert.equal(wl.transactions[0].thinkUs, undefined)
  assert.equal(outcome.paced, true)
  assert.equal(outcome.summary.transactions, 6)
  // each type thought its own time: --think-time for the first, its own for the second
  assert.ok(outcome.transactions.q.count > 0 && outcome.transactions.own.count > 0)
  assert.equal(outcome.transactions.q.thinkMs.mean, 1)
  assert.equal(outcome.transactions.own.thinkMs.mean, 2)
})

test('a terminal range runs only those terminals, with their global numbers and seeds', async () => {
  const seen = []
  const w = {
    name: 'fake',
    transactions: [{ name: 'q', weight: 1, async run (ctx) { seen.push([ctx.id, ctx.random.nextU64()]); await ctx.conn.execute() } }]
  }
  const whole = []
  const wWhole = { ...w, transactions: [{ name: 'q', weight: 1, async run (ctx) { whole.push([ctx.id, ctx.random.nextU64()]); await ctx.conn.execute() } }] }
  await newRun(wWhole, { openConnection: fakeServer().open, clients: 6, transactionsPerClient: 2, seed: 5n }).execute()
  const run = newRun(w, { openConnection: fakeServer().open, clients: 6, transactionsPerClient: 2, seed: 5n, terminalRange: { first: 2, count: 3, total: 6 } })
  assert.equal(run.terminalCount, 3)
  assert.equal(run.poolSize, 3)
  const outcome = await run.execute()
  assert.equal(outcome.summary.transactions, 6)
  const key = (a) => a.map(([id, r]) => `${id}:${r}`).sort()
  assert.deepEqual(key(seen), key(whole.filter(([id]) => id >= 2 && id < 5)))
})
