import { test } from 'node:test'
import assert from 'node:assert/strict'
import { explainWaits } from '../../../lib/compare/explain-waits.js'
import { explanationLines } from '../../../lib/compare/format.js'

/** A results document whose waits section has these samples per event for one type. */
const doc = (events, { transactions = 1000, intervalMs = 20, outsideMs = 0.3 } = {}) => ({
  waits: {
    available: true,
    intervalMs,
    types: { 'tpcb-like': { transactions, outsideMs, events: Object.entries(events).map(([event, samples]) => ({ event, samples })) } }
  }
})
const worse = [{ verdict: 'worse', unit: 'ms', txn: 'tpcb-like' }]

test('a type that got slower: the events whose time per transaction grew beyond their interval, largest first', () => {
  // A: 1000 transactions, 50 CPU samples of 20 ms = 1 ms each; B: CPU the same, WALSync 200 samples = 4 ms each
  const [x] = explainWaits([doc({ CPU: 50 })], [doc({ CPU: 52, 'IO:WALSync': 200, 'LWLock:WALWrite': 30 })], worse)
  assert.equal(x.type, 'tpcb-like')
  assert.deepEqual(x.events.map((e) => e.event), ['IO:WALSync', 'LWLock:WALWrite'], 'CPU did not grow beyond its interval')
  const wal = x.events[0]
  assert.equal(wal.aMs, 0)
  assert.equal(wal.bMs, 4)
  assert.equal(wal.deltaMs, 4)
  // sqrt(200) x 20 ms / 1000 transactions = 0.283 ms of standard error
  assert.ok(Math.abs(wal.lo - (4 - 1.96 * 0.2828)) < 0.002 && Math.abs(wal.hi - (4 + 1.96 * 0.2828)) < 0.002, JSON.stringify(wal))
  assert.deepEqual(x.outsideMs, { a: 0.3, b: 0.3 })
})

test('runs of a side add up; nothing worse: nothing to explain; a side without wait samples: not known', () => {
  const [x] = explainWaits([doc({ CPU: 50 }), doc({ CPU: 50 })], [doc({ CPU: 50, 'Lock:transactionid': 100 }, { transactions: 500 })], worse)
  assert.equal(x.events[0].event, 'Lock:transactionid')
  assert.equal(x.events[0].bMs, 4) // 100 x 20 ms / 500
  assert.deepEqual(explainWaits([doc({ CPU: 50 })], [doc({ CPU: 50 })], [{ verdict: '~', unit: 'ms', txn: 'tpcb-like' }]), [])
  assert.equal(explainWaits([doc({ CPU: 50 })], [{}], worse), null)
  assert.deepEqual(explanationLines({ regressions: 1, explanation: null }), ['why: not known: a side\'s runs have no wait samples (--wait-sampling off, or results of an older pgload)'])
})

test('the lines compare prints', () => {
  const v = { regressions: 1, explanation: explainWaits([doc({ CPU: 50 })], [doc({ CPU: 50, 'IO:WALSync': 200 }, { outsideMs: 0.4 })], worse) }
  assert.deepEqual(explanationLines(v), [
    'why: the server\'s wait events whose time per transaction grew (A -> B, the growth with its 95% CI):',
    '  tpcb-like: IO:WALSync 0.000 ms -> 4.000 ms (+4.000 [3.446, 4.554]); outside the server 0.300 ms -> 0.400 ms'
  ])
  const none = { regressions: 1, explanation: explainWaits([doc({ CPU: 50 })], [doc({ CPU: 51 }, { outsideMs: 2 })], worse) }
  assert.deepEqual(explanationLines(none).slice(1), ['  tpcb-like: no wait event grew beyond its interval; outside the server 0.300 ms -> 2.000 ms'])
})
