import { test } from 'node:test'
import assert from 'node:assert/strict'
import { DeliveryQueue } from '../../../workloads/tpcc/deferred-queue.js'

/** A connection that has one new order per district, and fails as told. */
function fakeConnection ({ failFirst = null, emptyDistricts = 0 } = {}) {
  const log = []
  let failed = false
  return {
    log,
    transactionStatus: 'I',
    closed: false,
    async execute (stmt, values = []) {
      log.push(stmt.text.split(/\s+/)[0])
      if (stmt.text === 'BEGIN') this.transactionStatus = 'T'
      if (stmt.text === 'COMMIT' || stmt.text === 'ROLLBACK') this.transactionStatus = 'I'
      if (/^SELECT no_o_id/.test(stmt.text)) return { rows: values[1] <= emptyDistricts ? [] : [['2101']] }
      if (/^WITH n AS/.test(stmt.text) && failFirst && !failed) {
        failed = true
        const e = new Error('deadlock detected')
        e.code = failFirst
        throw e
      }
      return { rows: [] }
    },
    async close () { this.closed = true }
  }
}

test('queued deliveries are processed in order, with queue-to-completion times', async () => {
  const conn = fakeConnection({ emptyDistricts: 2 })
  let opened = 0
  let now = 0
  const q = new DeliveryQueue({ open: async () => { opened++; return conn }, workers: 1, nowUs: () => (now += 1000) })
  for (let i = 0; i < 5; i++) q.enqueue(1, 3)
  assert.equal(await q.drain(5000), true)
  const s = q.summary()
  assert.deepEqual([s.queued, s.completed, s.pending, s.failed, s.retries], [5, 5, 0, 0, 0])
  assert.equal(s.skippedDistricts, 10) // districts 1 and 2 had nothing, five times
  assert.equal(opened, 1, 'one worker connection, reused')
  assert.equal(conn.closed, true, 'drain closes idle connections')
  assert.equal(s.within80sPct, 100)
  assert.equal(s.pass, true)
  assert.ok(s.queueToCompletionMs.max > 0)
})

test('a deadlock is retried; another error is counted as failed', async () => {
  const conn = fakeConnection({ failFirst: '40P01' })
  const q = new DeliveryQueue({ open: async () => conn, workers: 2, nowUs: () => performance.now() * 1000 })
  q.enqueue(1, 1)
  await q.drain(5000)
  assert.deepEqual([q.summary().completed, q.summary().retries, q.summary().failed], [1, 1, 0])
  assert.ok(conn.log.includes('ROLLBACK'))

  const bad = fakeConnection({ failFirst: '23505' })
  const q2 = new DeliveryQueue({ open: async () => bad, workers: 1, nowUs: () => performance.now() * 1000 })
  q2.enqueue(1, 1)
  q2.enqueue(2, 1)
  await q2.drain(5000)
  const s = q2.summary()
  assert.deepEqual([s.completed, s.failed, s.errors['23505']], [1, 1, 1])
})

test('deliveries later than 80 s fail the 90 % rule', async () => {
  const conn = fakeConnection()
  const times = [0, 0, 1e6, 81e6] // both queued at 0; done at 1 s and at 81 s
  let i = 0
  const q = new DeliveryQueue({ open: async () => conn, workers: 1, nowUs: () => times[i++] })
  q.enqueue(1, 1)
  q.enqueue(1, 1)
  await q.drain(5000)
  const s = q.summary()
  assert.equal(s.within80sPct, 50)
  assert.equal(s.pass, false)
})
