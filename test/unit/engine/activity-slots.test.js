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
  const v = slots.version
  slots.unbind(a)
  assert.equal(slots.ints[a.activityBase === -1 ? 0 : a.activityBase + PID], 0)
  assert.ok(slots.version > v)
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
