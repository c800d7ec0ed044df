// The core rule of a terminal, in simulated time (test/unit/engine/fake-run.js): latency counts
// from the intended start, schedule lag and queue wait are measured on their own, -L skips what
// is already too late, and a retried transaction draws the same random values.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fakeRun, constantRandom, MEAN_GAP } from './fake-run.js'
import { fixedUs } from '../../../lib/options/distribution.js'

/** A transaction type the fake server answers after `serviceUs`, committed. */
const answeredAfter = (world, serviceUs, extra = {}) => ({
  name: 'q',
  weight: 1,
  ...extra,
  start (ctx, done) { world.after(serviceUs, () => done(null)) }
})

/** Latency, lag and queue wait of each committed transaction, in recording order. */
const oks = (world) => world.recorder.only('ok').map(({ latencyUs, lagUs, queueUs }) => [latencyUs, lagUs, queueUs])

test('closed model with think time: latency from when the terminal became ready, the wake-up lag on its own', async () => {
  // the event loop wakes each terminal 1.5 ms after its think time ended
  const world = await fakeRun({ types: (world) => [answeredAfter(world, 10_000, { thinkUs: fixedUs(100_000) })], settings: { paced: true, transactionsPerClient: 2 }, wakeLateUs: 1500 })
  await world.run()
  // first wait 100 ms, woken at 101.5, answered at 111.5: 11.5 ms from the intended start at 100
  // then think until 211.5, woken at 213, answered at 223
  assert.deepEqual(oks(world), [[11_500, 1500, 0], [11_500, 1500, 0]])
  const s = world.recorder.summarize(1).summary
  assert.equal(s.latencyMs.mean, 11.5)
  assert.equal(s.lagMs.max, 1.5)
  assert.equal(world.recorder.types[0].thinkN, 2, 'both think times counted as waits')
  assert.deepEqual(world.finished, [0])
  assert.deepEqual(world.bugs, [])
})

test('a workload\'s own first wait (ramp-up) replaces the think-time-like one; latency from its end', async () => {
  const begun = []
  const world = await fakeRun({
    types: (world) => [{ name: 'q', weight: 1, thinkUs: fixedUs(100_000), start (ctx, done) { begun.push(world.nowUs); world.after(3000, () => done(null)) } }],
    settings: { paced: true, transactionsPerClient: 1 },
    wakeLateUs: 200,
    hooks: { firstWaitUs: () => 7000 }
  })
  await world.run()
  // ready at 7 ms (not after a 100 ms think time), woken at 7.2, answered at 10.2
  assert.deepEqual(begun, [7200])
  assert.deepEqual(oks(world), [[3200, 200, 0]])
})

test('TPC-C keying time: the intended start is the end of the keying time', async () => {
  const world = await fakeRun({
    types: (world) => [answeredAfter(world, 4000, { keyingUs: fixedUs(18_000) })],
    settings: { transactionsPerClient: 1 },
    wakeLateUs: 700
  })
  await world.run()
  // keyed until 18 ms, woken at 18.7, answered at 22.7
  assert.deepEqual(oks(world), [[4700, 700, 0]])
  assert.equal(world.recorder.types[0].keyingSumUs, 18_000)
})

test('--rate: latency from the scheduled arrival, so a slow server shows in it (coordinated omission)', async () => {
  // 100 transactions/s, every gap exactly 10 ms; the server takes 25 ms
  const world = await fakeRun({ types: (world) => [answeredAfter(world, 25_000)], settings: { rateIntervalUs: 10_000, transactionsPerClient: 3 }, waitRandom: constantRandom(MEAN_GAP) })
  await world.run()
  // arrivals at 10, 20, 30 ms; begun at 10, 35, 60; answered at 35, 60, 85
  assert.deepEqual(oks(world), [[25_000, 0, 0], [40_000, 15_000, 0], [55_000, 30_000, 0]])
  const s = world.recorder.summarize(1).summary
  assert.equal(s.lagMs.max, 30)
  assert.equal(s.late, 0, 'no limit, nothing late')
})

test('-L with --rate: arrivals already later than the limit are skipped and counted; later ones are late', async () => {
  const world = await fakeRun({
    types: (world) => [answeredAfter(world, 25_000)],
    settings: { rateIntervalUs: 10_000, latencyLimitUs: 20_000, transactionsPerClient: 6 },
    waitRandom: constantRandom(MEAN_GAP)
  })
  await world.run()
  // arrival 10: done at 35. 20: 15 ms late at 35, run, done at 60. 30: 30 ms late at 60, skipped;
  // 40: exactly 20 ms late, run, done at 85. 50 and 60: 35 and 25 ms late, skipped (6 slots in all).
  assert.deepEqual(oks(world), [[25_000, 0, 0], [40_000, 15_000, 0], [45_000, 20_000, 0]])
  const s = world.recorder.summarize(1).summary
  assert.equal(s.skipped, 3)
  assert.equal(s.transactions, 3)
  assert.equal(s.late, 3, 'all three took longer than 20 ms from their arrival')
  assert.equal(world.nowUs, 85_000, 'nothing ran after the last skip')
})

test('a skipped arrival before the measured window is not counted', async () => {
  const world = await fakeRun({
    types: (world) => [answeredAfter(world, 25_000)],
    settings: { rateIntervalUs: 10_000, latencyLimitUs: 20_000, transactionsPerClient: 6, measureStartUs: 55_000 },
    waitRandom: constantRandom(MEAN_GAP)
  })
  await world.run()
  // as above, but the window opens at 55 ms: of the slots skipped (30, 50 and 60 ms) only the last
  // counts, and the transaction that ended at 35 ms neither
  assert.equal(world.recorder.summarize(1).summary.skipped, 1)
  assert.deepEqual(oks(world), [[40_000, 15_000, 0], [45_000, 20_000, 0]])
})

test('queue wait for a pooled connection: part of the latency, and reported on its own', async () => {
  // two unpaced terminals share one connection; the server takes 10 ms
  const world = await fakeRun({ types: (world) => [answeredAfter(world, 10_000)], terminals: 2, connections: 1, settings: { transactionsPerClient: 2 } })
  await world.run()
  // terminal 0 runs at once (0-10 ms); terminal 1 waited 0-10, runs 10-20; and so on
  assert.deepEqual(oks(world), [[10_000, 0, 0], [20_000, 0, 10_000], [20_000, 0, 10_000], [20_000, 0, 10_000]])
  assert.equal(world.nowUs, 40_000)
  const s = world.recorder.summarize(1).summary
  assert.equal(s.queueMs.max, 10)
  assert.equal(s.latencyMs.max, 20)
  assert.deepEqual(world.finished.sort(), [0, 1])
})

/** A type whose first `failures` tries of each transaction fail with `code` inside an open transaction. */
function failingTries (world, { failures, code = '40001', serviceUs = 5000, seen = [] }) {
  let tries = 0
  return {
    name: 'r',
    weight: 1,
    start (ctx, done) {
      seen.push([ctx.random.int(1, 1e9), ctx.random.int(1, 1e9)])
      const fail = tries++ < failures
      if (!fail) tries = 0
      world.after(serviceUs, () => {
        if (!fail) return done(null)
        ctx.conn.transactionStatus = 'E'
        done(Object.assign(new Error('could not serialize access'), { code }))
      })
    }
  }
}

test('a serialization failure is retried with the same random values; latency from the first try', async () => {
  const seen = []
  const world = await fakeRun({
    types: (world) => [failingTries(world, { failures: 2, seen })],
    settings: { transactionsPerClient: 2, maxTries: 3 }
  })
  await world.run()
  assert.equal(seen.length, 6, 'three tries each')
  assert.deepEqual(seen[1], seen[0], 'the same parameters on each try')
  assert.deepEqual(seen[2], seen[0])
  assert.notDeepEqual(seen[3], seen[0], 'the next transaction draws new ones')
  assert.deepEqual(seen[5], seen[3])
  // three tries of 5 ms: 15 ms from the transaction's start, not 5 from its last try's
  assert.deepEqual(oks(world), [[15_000, 0, 0], [15_000, 0, 0]])
  assert.deepEqual(world.recorder.only('retried').map((c) => c.n), [2, 2])
  assert.equal(world.pool.all[0].rollbacks, 4, 'each failed try rolled back first')
  const s = world.recorder.summarize(1).summary
  assert.equal(s.retries, 4)
  assert.equal(s.retried, 2)
  assert.equal(s.failed, 0)
})

test('--max-tries: the last failure counts the transaction as failed by its SQLSTATE, retries kept', async () => {
  const world = await fakeRun({
    types: (world) => [failingTries(world, { failures: 5, code: '40P01' })],
    settings: { transactionsPerClient: 1, maxTries: 2, verboseErrors: true }
  })
  await world.run()
  assert.deepEqual(world.recorder.only('failed').map((c) => c.code), ['40P01'])
  assert.deepEqual(world.recorder.only('retried').map((c) => c.n), [1])
  assert.deepEqual(world.retryable, [{ tries: 1, willRetry: true }, { tries: 2, willRetry: false }])
  assert.deepEqual(oks(world), [])
})

test('-L bounds retries: no try starts once the transaction is later than the limit', { timeout: 5000 }, async () => {
  // unlimited tries, but a 12 ms limit: tries end at 5, 10 and 15 ms; after the third it is too late
  const world = await fakeRun({ types: (world) => [failingTries(world, { failures: Infinity })], settings: { transactionsPerClient: 1, maxTries: 0, latencyLimitUs: 12_000 } })
  await world.run()
  assert.equal(world.nowUs, 15_000)
  assert.deepEqual(world.recorder.only('failed').map((c) => c.code), ['40001'])
  assert.deepEqual(world.recorder.only('retried').map((c) => c.n), [2])
})

test('once the run stops, the transaction in flight is still measured and no new one begins', async () => {
  const world = await fakeRun({
    types: (world) => [answeredAfter(world, 10_000)],
    settings: { transactionsPerClient: 100 }
  })
  // the duration is over at 25 ms, in the third transaction (20-30 ms)
  world.at(25_000, () => { world.context.expired = true; world.context.stopping = true })
  await world.run()
  assert.deepEqual(oks(world), [[10_000, 0, 0], [10_000, 0, 0], [10_000, 0, 0]])
  assert.equal(world.nowUs, 30_000)
  assert.deepEqual(world.finished, [0])
})

test('a transaction cancelled after the grace is unfinished, its wait counted from the scheduled arrival', async () => {
  let answer = null
  const types = [{ name: 'q', weight: 1, start (ctx, done) { answer = done } }] // never answered by itself
  const world = await fakeRun({ types: () => types, settings: { rateIntervalUs: 10_000 }, waitRandom: constantRandom(MEAN_GAP), wakeLateUs: 2000 })
  await world.run()
  // arrived at 10 ms, begun at 12 (the event loop was late); the grace ends at 100 ms
  assert.equal(world.terminals[0].inFlightSinceUs, 12_000)
  world.nowUs = 100_000
  assert.equal(world.terminals[0].cancelTransaction('grace', world.nowUs), true)
  assert.equal(world.terminals[0].cancelTransaction('grace', world.nowUs), false, 'once')
  assert.equal(world.terminals[0].inFlightSinceUs, -1)
  assert.deepEqual(world.recorder.only('unfinished').map((c) => c.waitedUs), [90_000])
  assert.equal(world.cancels.length, 1)
  assert.equal(world.cancels[0].now, false, 'a cancel request first, not an abort')
  assert.deepEqual(world.finished, [0], 'the terminal is done at once')
  // its try settles later (the socket is gone): nothing more is recorded
  answer(Object.assign(new Error('connection lost'), { code: 'CONNECTION_LOST' }))
  await world.run()
  assert.deepEqual(world.recorder.calls.map((c) => c.call), ['unfinished'])
  assert.deepEqual(world.bugs, [])
})

test('--transaction-timeout: the transaction fails as TRANSACTION_TIMEOUT and the terminal goes on', async () => {
  const answers = []
  const types = [{ name: 'q', weight: 1, start (ctx, done) { answers.push(done) } }]
  const world = await fakeRun({ types: () => types, settings: { transactionsPerClient: 2 } })
  await world.run()
  world.nowUs = 50_000
  assert.equal(world.terminals[0].cancelTransaction('timeout', world.nowUs), true)
  assert.deepEqual(world.finished, [], 'not done: it goes on once its try settles')
  answers[0](Object.assign(new Error('connection lost'), { code: 'CONNECTION_LOST' }))
  await world.run()
  assert.deepEqual(world.recorder.only('failed').map((c) => c.code), ['TRANSACTION_TIMEOUT'])
  assert.equal(answers.length, 2, 'the next transaction began')
})
