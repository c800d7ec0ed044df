// Transactions in flight when the run stops: the grace, the cancel, Ctrl-C twice, the
// per-transaction timeout, and the outcomes they are counted as.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { newRun } from './test-settings.js'

/**
 * Connections to a server that can stall: while `stalled`, a statement never answers until its
 * connection is cancelled or destroyed (then it fails with CONNECTION_LOST, as a lost socket).
 * `commitInFlight` says what the connection reports while a statement hangs.
 */
function stallingServer ({ commitInFlight = false } = {}) {
  const server = { stalled: false, opened: 0, cancels: 0, destroys: 0, hang: null, answers: new Set() }
  // the server answers every hung statement at last
  server.answerAll = () => { for (const answer of server.answers) answer(); server.answers.clear() }
  server.open = async () => {
    server.opened++
    let pending = null
    const conn = {
      backendPid: 2000 + server.opened,
      broken: false,
      closed: false,
      transactionStatus: 'I',
      commitInFlight: false,
      async prepare () {},
      execute () {
        if (conn.broken) return Promise.reject(Object.assign(new Error('lost'), { code: 'CONNECTION_LOST' }))
        if (!server.stalled && !(server.hang?.() ?? false)) return new Promise((resolve) => setTimeout(resolve, 1, { command: 'UPDATE', rowCount: 1, fields: [], rows: [] }))
        conn.commitInFlight = commitInFlight
        return new Promise((resolve, reject) => {
          pending = reject
          const answer = () => { conn.commitInFlight = false; resolve({ command: 'UPDATE', rowCount: 1, fields: [], rows: [] }) }
          server.answers.add(answer)
        })
      },
      lose () {
        conn.broken = true
        conn.commitInFlight = false
        pending?.(Object.assign(new Error('connection to server lost'), { code: 'CONNECTION_LOST' }))
      },
      async cancel () { server.cancels++; conn.lose() },
      destroy () { server.destroys++; conn.lose() },
      async simpleQuery () {},
      async close () { conn.closed = true }
    }
    return conn
  }
  return server
}

const workload = () => ({ name: 'fake', transactions: [{ name: 'q', weight: 1, async run (ctx) { await ctx.conn.execute() } }] })

test('a stall longer than the run: the run ends after the grace, the transactions in flight counted as unfinished', { timeout: 10_000 }, async () => {
  const server = stallingServer()
  const run = newRun(workload(), { openConnection: server.open, clients: 3, durationS: 0.4, graceS: 0.3, seed: 1n })
  setTimeout(() => { server.stalled = true }, 150)
  const t0 = performance.now()
  const outcome = await run.execute()
  const ms = performance.now() - t0
  assert.ok(ms >= 650 && ms < 3000, `ended after ${ms} ms (duration 0.4 s + grace 0.3 s)`)
  const s = outcome.summary
  assert.equal(s.unfinished, 3)
  assert.equal(s.outcomeUnknown, 0)
  assert.equal(s.failed, 0, 'the cancelled transactions are not failures as well')
  assert.ok(s.transactions > 10, `${s.transactions} committed before the stall`)
  assert.equal(server.cancels, 3, 'each connection got a cancel')
  assert.deepEqual(outcome.cancelled, { grace: 3, abort: 0, timeout: 0 })
  // they had waited from the stall (~0.15 s) to the end of the grace (0.7 s)
  assert.ok(s.unfinishedWaitMs.max >= 400 && s.unfinishedWaitMs.max < 2500, JSON.stringify(s.unfinishedWaitMs))
  assert.equal(outcome.transactions.q.unfinished, 3)
})

test('a commit in flight when the grace is over: outcome unknown, not unfinished', { timeout: 10_000 }, async () => {
  const server = stallingServer({ commitInFlight: true })
  const run = newRun(workload(), { openConnection: server.open, clients: 2, durationS: 0.3, graceS: 0.1, seed: 2n })
  setTimeout(() => { server.stalled = true }, 100)
  const outcome = await run.execute()
  assert.equal(outcome.summary.outcomeUnknown, 2)
  assert.equal(outcome.summary.unfinished, 0)
  assert.equal(outcome.summary.unfinishedWaitMs, null)
})

test('transactions that finish within the grace are committed, none cancelled', { timeout: 10_000 }, async () => {
  const server = stallingServer()
  const run = newRun(workload(), { openConnection: server.open, clients: 2, durationS: 0.3, graceS: 5, seed: 3n })
  let before = 0
  setTimeout(() => { server.stalled = true }, 200)
  setTimeout(() => { before = run.recorder.types[0].count; server.answerAll() }, 600)
  const t0 = performance.now()
  const outcome = await run.execute()
  assert.ok(performance.now() - t0 < 2000, 'the run ended as soon as they were answered, not after the grace')
  assert.equal(outcome.summary.unfinished, 0)
  assert.equal(server.cancels, 0)
  assert.equal(outcome.summary.failed, 0)
  assert.ok(outcome.summary.transactions >= before + 2, 'the two answered late are committed')
})

test('Ctrl-C twice during a stall: the run returns at once, whatever the grace, cutting transactions as unfinished', { timeout: 10_000 }, async () => {
  const server = stallingServer()
  const run = newRun(workload(), { openConnection: server.open, clients: 4, durationS: 60, graceS: 60, seed: 4n })
  setTimeout(() => { server.stalled = true }, 100)
  setTimeout(() => run.stop('interrupted'), 200)
  let abortedAt = 0
  setTimeout(() => { abortedAt = performance.now(); run.abort('interrupted') }, 300)
  const outcome = await run.execute()
  const ms = performance.now() - abortedAt
  assert.ok(ms < 500, `returned ${ms} ms after the second Ctrl-C`)
  assert.equal(outcome.interrupted, true)
  assert.equal(outcome.aborted, false, 'an interruption is not an abort by errors')
  assert.equal(outcome.summary.unfinished, 4)
  assert.equal(outcome.cancelled.abort, 4)
  assert.ok(server.destroys >= 4, 'sockets destroyed at once, not after the cancel requests')
})

test('--transaction-timeout: a transaction over it is cancelled and failed; the client goes on', { timeout: 10_000 }, async () => {
  const server = stallingServer()
  let n = 0
  server.hang = () => ++n === 5 // the fifth statement never answers
  const run = newRun(workload(), { openConnection: server.open, clients: 1, transactionsPerClient: 10, transactionTimeoutS: 0.2, seed: 5n })
  const t0 = performance.now()
  const outcome = await run.execute()
  assert.ok(performance.now() - t0 < 3000)
  assert.equal(outcome.summary.transactions, 9)
  assert.equal(outcome.summary.failed, 1)
  assert.deepEqual(outcome.summary.errors, { TRANSACTION_TIMEOUT: 1 })
  assert.equal(outcome.cancelled.timeout, 1)
  assert.equal(server.opened, 2, 'the cancelled connection was replaced')
})

test('a connection lost after COMMIT was sent (the driver says outcome unknown) is counted apart', { timeout: 10_000 }, async () => {
  let n = 0
  const wl = {
    name: 'fake',
    transactions: [{
      name: 'q',
      weight: 1,
      async run (ctx) {
        if (++n % 4 === 0) {
          ctx.conn.broken = true
          throw Object.assign(new Error('connection to server lost'), { code: 'CONNECTION_LOST', outcomeUnknown: true })
        }
        if (n % 4 === 1 && n > 1) {
          ctx.conn.broken = true
          throw Object.assign(new Error('connection to server lost'), { code: 'CONNECTION_LOST' })
        }
      }
    }]
  }
  const server = stallingServer()
  const run = newRun(wl, { openConnection: server.open, clients: 1, transactionsPerClient: 12, seed: 6n })
  const outcome = await run.execute()
  assert.equal(outcome.summary.outcomeUnknown, 3)
  assert.equal(outcome.summary.failed, 2)
  assert.deepEqual(outcome.summary.errors, { CONNECTION_LOST: 2 })
  assert.equal(outcome.summary.transactions, 7)
})
