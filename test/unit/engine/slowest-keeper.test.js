// The slowest transactions kept per type: only those beating the type's N-th slowest are
// captured, slowest first; worker threads' lists merge to the run's N slowest.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { SlowestKeeper, mergeSlowest } from '../../../lib/engine/slowest-keeper.js'

/** Offer as the terminal does: only past the type's floor. */
function feed (keeper, type, latencies) {
  for (const us of latencies) if (us > keeper.floorUs[type]) keeper.offer(type, us, { us })
}

test('keeps the N slowest per type, capturing only transactions that beat the N-th slowest so far', () => {
  let captures = 0
  const keeper = new SlowestKeeper(2, 3, (type, state) => { captures++; return { type, us: state.us } })
  feed(keeper, 0, [5, 1, 9, 3, 7, 2, 8, 4, 6, 0])
  feed(keeper, 1, [10])
  const [a, b] = keeper.entries()
  assert.deepEqual(a.map((e) => e.latencyUs), [9, 8, 7])
  assert.deepEqual(a.map((e) => e.parameters), [{ type: 0, us: 9 }, { type: 0, us: 8 }, { type: 0, us: 7 }])
  assert.deepEqual(b.map((e) => e.latencyUs), [10])
  // 5, 1, 9 fill the list (floor 1); then 3, 7 and 8 beat the floor (3, 5, 7); and type 1's 10
  assert.equal(captures, 3 + 3 + 1)
  assert.equal(keeper.floorUs[0], 7)
  assert.equal(keeper.floorUs[1], -1, 'not full: anything is kept')
})

test('the threads\' lists merge into the run\'s N slowest per type', () => {
  const e = (us) => ({ latencyUs: us, parameters: us })
  const merged = mergeSlowest([[[e(9), e(2)], [e(4)]], undefined, [[e(5), e(3)], []]], 2)
  assert.deepEqual(merged.map((l) => l.map((x) => x.latencyUs)), [[9, 5], [4]])
  assert.equal(mergeSlowest([undefined], 2), undefined)
})
