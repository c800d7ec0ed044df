// Activity slots: one per open connection, freed and reused as connections come and go; a
// transaction's latency is kept only when a reader asked for that transaction.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ActivitySlots, PID, TYPE, STATEMENT, SEQ, WANT, DONE } from '../../../lib/engine/activity-slots.js'

test('connections take free slots and give them back; none left: no slot', () => {
  const slots = new ActivitySlots(2)
  const a = { backendPid: 11 }
  const b = { backendPid: 12 }
  const c = { backendPid: 13 }
  slots.bind(a)
  slots.bind(b)
  slots.bind(c)
  assert.notEqual(a.activityBase, b.activityBase)
  assert.equal(c.activityBase, -1)
  assert.equal(slots.ints[a.activityBase + PID], 11)
  const freed = a.activityBase
  slots.unbind(a)
  assert.equal(a.activityBase, -1)
  assert.equal(slots.ints[freed + PID], 0)
  slots.bind(c)
  assert.ok(c.activityBase >= 0)
  assert.equal(slots.ints[c.activityBase + PID], 13)
})

test('a transaction\'s type, statement and number; its latency only when asked for', () => {
  const slots = new ActivitySlots(1, { shared: true })
  assert.ok(slots.ints.buffer instanceof SharedArrayBuffer)
  const conn = { backendPid: 7 }
  slots.bind(conn)
  const base = conn.activityBase
  slots.begin(base, 2)
  slots.ints[base + STATEMENT] = 4
  assert.deepEqual([slots.ints[base + TYPE], slots.ints[base + STATEMENT], slots.ints[base + SEQ]], [2, 4, 1])
  let seq = slots.end(base)
  slots.latency(base, seq, 1500)
  assert.equal(slots.ints[base + DONE], 0, 'nobody asked')
  slots.begin(base, 0)
  assert.equal(slots.ints[base + STATEMENT], -1, 'a new transaction has said no statement yet')
  slots.ints[base + WANT] = slots.ints[base + SEQ]
  seq = slots.end(base)
  assert.equal(slots.ints[base + TYPE], -1)
  slots.latency(base, seq, 2500)
  assert.equal(slots.ints[base + DONE], 2)
  assert.equal(slots.latencyUs[0], 2500)
})

test('worker threads: each takes its own range of the shared slots, the reader sees them all', () => {
  const run = new ActivitySlots(5, { shared: true })
  const one = ActivitySlots.over(structuredClone(run.share(0, 2)))
  const two = ActivitySlots.over(structuredClone(run.share(2, 3)))
  const conns = [21, 22, 23].map((backendPid) => ({ backendPid }))
  one.bind(conns[0])
  two.bind(conns[1])
  two.bind(conns[2])
  const slotOf = (c) => c.activityBase / 6
  assert.equal(slotOf(conns[0]), 0)
  assert.deepEqual([slotOf(conns[1]), slotOf(conns[2])].sort(), [2, 3])
  two.begin(conns[1].activityBase, 1)
  assert.equal(run.ints[conns[1].activityBase + PID], 22)
  assert.equal(run.ints[conns[1].activityBase + TYPE], 1)
})
