import { test } from 'node:test'
import assert from 'node:assert/strict'
import { poolerEntry, poolerTotals, clientsQueued } from '../../../../lib/server/pooler/deltas.js'

const pool = (waiting, maxWaitMs = 0, active = 2) => ({ clientsActive: 8 - waiting, clientsWaiting: waiting, maxWaitMs, serversActive: active, serversIdle: 2 - active, serversUsed: 0, poolMode: 'transaction' })
const totals = (transactions, queries, waitUs) => ({ transactions, queries, waitUs })

test('an entry: the pool at the reading, rates from the counters over the time between readings', () => {
  const before = { atMs: 1000, t: 0, pool: pool(0), totals: totals(1000, 7000, 500) }
  const now = { atMs: 2000, t: 1, pool: pool(6, 17.5794), totals: totals(2500, 17500, 6000500) }
  assert.deepEqual(poolerEntry(before, now), {
    t: 1,
    lengthS: 1,
    clientsActive: 2,
    clientsWaiting: 6,
    maxWaitMs: 17.579,
    serversActive: 2,
    serversIdle: 0,
    serversUsed: 0,
    transactions: 1500,
    tps: 1500,
    qps: 10500,
    waitS: 6,
    waitMs: 4
  })
})

test('a reading taken late: rates over the time that passed, not the interval', () => {
  const e = poolerEntry({ atMs: 0, t: 0, pool: null, totals: totals(0, 0, 0) }, { atMs: 2000, t: 1, pool: null, totals: totals(100, 100, 0) })
  assert.equal(e.tps, 50)
  assert.equal(e.clientsWaiting, null)
  assert.equal(e.waitMs, 0)
})

test('counters that are missing or went back (PgBouncer restarted) give no rate below zero', () => {
  const e = poolerEntry({ atMs: 0, t: 0, pool: pool(0), totals: totals(5000, 9000, 100) }, { atMs: 1000, t: 1, pool: pool(0), totals: totals(10, null, 0) })
  assert.equal(e.tps, 0)
  assert.equal(e.qps, null)
  assert.equal(e.waitMs, null, 'no transaction: no wait per transaction')
  assert.equal(poolerEntry({ atMs: 0, t: 0, pool: null, totals: null }, { atMs: 1000, t: 1, pool: null, totals: null }).waitS, null)
})

test('clients queued: some waiting at the reading, or a hundredth of a client waiting all along', () => {
  const entry = (clientsWaiting, waitS, lengthS = 1) => ({ clientsWaiting, waitS, lengthS })
  assert.equal(clientsQueued(entry(3, 0)), true)
  assert.equal(clientsQueued(entry(0, 0.05)), true)
  // microseconds of bookkeeping over an interval are no queue
  assert.equal(clientsQueued(entry(0, 0.002)), false)
  assert.equal(clientsQueued(entry(null, null)), false)
})

test('the run\'s figures: intervals and time with clients queued, the most waiting, the longest wait', () => {
  const series = [
    { t: 1, lengthS: 1, clientsWaiting: 6, maxWaitMs: 17.5, serversActive: 2, transactions: 1500, waitS: 6 },
    { t: 2, lengthS: 1, clientsWaiting: 0, maxWaitMs: 0, serversActive: 1, transactions: 1000, waitS: 0.001 },
    { t: 3, lengthS: 1, clientsWaiting: 7, maxWaitMs: 4.6, serversActive: 2, transactions: 1500, waitS: 6 },
    { t: 3.25, lengthS: 0.25, clientsWaiting: 0, maxWaitMs: 0, serversActive: 0, transactions: 0, waitS: 0.1 }
  ]
  assert.deepEqual(poolerTotals(series), {
    maxClientsWaiting: 7, waitingIntervals: 3, waitingS: 2.25, longestWaitMs: 17.5, maxServersActive: 2, transactions: 4000, waitS: 12.101, waitMs: 3.025
  })
  assert.deepEqual(poolerTotals([]), { maxClientsWaiting: null, waitingIntervals: 0, waitingS: 0, longestWaitMs: null, maxServersActive: null, transactions: null, waitS: null, waitMs: null })
})
