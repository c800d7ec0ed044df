// pgbench's weighted choice: the draw's position in the running sum of weights picks the index.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { chooseWeighted } from '../../../lib/random/weighted-choice.js'
import { Prng } from '../../../lib/random/prng.js'

/** A generator that returns the given draws in order, and records the ranges asked for. */
function scripted (draws) {
  const asked = []
  return { asked, int (min, max) { asked.push([min, max]); return draws.shift() } }
}

test('each draw falls in the weight band of one index; zero weights are skipped', () => {
  const weights = [2, 0, 3, 1]
  const prng = scripted([0, 1, 2, 4, 5])
  assert.deepEqual([0, 1, 2, 3, 4].map(() => chooseWeighted(weights, 6, prng)), [0, 0, 2, 2, 3])
  assert.deepEqual(prng.asked[0], [0, 5])
})

test('over many draws, indexes come up in proportion to their weights', () => {
  const prng = Prng.fromSeed(42n)
  const counts = [0, 0, 0]
  for (let i = 0; i < 30000; i++) counts[chooseWeighted([1, 0, 2], 3, prng)]++
  assert.equal(counts[1], 0)
  assert.ok(Math.abs(counts[2] / counts[0] - 2) < 0.1, JSON.stringify(counts))
})
