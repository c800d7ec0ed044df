// The generators of a threaded run: a terminal's own streams depend on (seed, terminal) only,
// and each thread's --rate arrivals on (seed, thread): independent streams.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { terminalStreams, arrivalStream } from '../../../lib/engine/part-seeds.js'

const draws = (prng, n = 5) => Array.from({ length: n }, () => prng.double())

test('a terminal\'s streams: the same for the same seed and terminal, different otherwise', () => {
  assert.deepEqual(draws(terminalStreams(42n, 7).choose), draws(terminalStreams(42n, 7).choose))
  assert.deepEqual(draws(terminalStreams(42n, 7).wait), draws(terminalStreams(42n, 7).wait))
  assert.notDeepEqual(draws(terminalStreams(42n, 7).choose), draws(terminalStreams(42n, 8).choose))
  assert.notDeepEqual(draws(terminalStreams(42n, 7).choose), draws(terminalStreams(43n, 7).choose))
  assert.notDeepEqual(draws(terminalStreams(42n, 7).choose), draws(terminalStreams(42n, 7).wait))
})

test('each thread its own arrival stream, exponential gaps with the asked mean', () => {
  assert.notDeepEqual(draws(arrivalStream(42n, 0)), draws(arrivalStream(42n, 1)))
  assert.deepEqual(draws(arrivalStream(42n, 1)), draws(arrivalStream(42n, 1)))
  // the gaps nextArrivalUs draws from it: -ln(1 - u) times the mean
  const prng = arrivalStream(9n, 1)
  let sum = 0
  const n = 20000
  for (let i = 0; i < n; i++) sum += -Math.log(1 - prng.double())
  assert.ok(Math.abs(sum / n - 1) < 0.03, `mean gap ${sum / n}`)
})
