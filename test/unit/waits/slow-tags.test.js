// The slowest sampled transactions' own samples: n per type, by latency, found by their activity
// slot and transaction number.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { SlowTags } from '../../../lib/waits/slow-tags.js'

test('keeps each type\'s n slowest sampled transactions, their samples counted by event', () => {
  const tags = new SlowTags(2, 2)
  tags.offer(0, 1, 500, [0, 1, 'CPU'])
  tags.offer(1, 7, 900, [0, 1, 'IO:DataFileRead', 0, 2, 'IO:DataFileRead', 0, 2, 'CPU'])
  tags.offer(2, 3, 100, [0, 1, 'CPU']) // slower ones fill the type: not kept
  tags.offer(0, 4, 700, [0, 1, 'Lock:transactionid'])
  tags.offer(3, 9, 50, [1, 0, 'CPU'])
  assert.deepEqual(tags.find(1, 7), { slot: 1, seq: 7, latencyUs: 900, events: { 'IO:DataFileRead': 2, CPU: 1 } })
  assert.equal(tags.find(0, 4).latencyUs, 700)
  assert.equal(tags.find(0, 1), null, 'replaced by a slower one')
  assert.equal(tags.find(2, 3), null)
  assert.equal(tags.find(3, 9).events.CPU, 1, 'another type keeps its own')
})
