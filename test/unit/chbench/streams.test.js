// An analytic stream: every query once per set in an order of its own, sets counted in the window.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { streamState, nextQuery, queryEnded, analyticFigures } from '../../../workloads/chbench/streams.js'
import { Prng } from '../../../lib/random/prng.js'

test('each set runs the 22 queries once, in a new order each time', () => {
  const s = streamState(0, Prng.fromSeed(5n))
  const sets = [0, 1, 2].map(() => Array.from({ length: 22 }, () => nextQuery(s)))
  for (const set of sets) assert.deepEqual([...set].sort((a, b) => a - b), Array.from({ length: 22 }, (_, i) => i))
  assert.notDeepEqual(sets[0], sets[1])
  const other = streamState(1, Prng.fromSeed(6n))
  assert.notDeepEqual(Array.from({ length: 22 }, () => nextQuery(other)), sets[0])
})

test('a set counts when its last query ends in the measured window, with the time from its first query\'s start', () => {
  const s = streamState(0, Prng.fromSeed(1n))
  let t = 1_000_000
  const run = (measuring) => {
    for (let i = 0; i < 22; i++) {
      nextQuery(s)
      t += 500_000
      queryEnded(s, { endEpochUs: t, latencyUs: 400_000 }, measuring)
    }
  }
  run(false)
  assert.deepEqual(s.setsS, [])
  run(true)
  assert.deepEqual(s.setsS, [(21 * 500_000 + 400_000) / 1e6])
})

test('figures: queries per hour and a geometric mean only when every query ran', () => {
  const transactions = Object.fromEntries(Array.from({ length: 22 }, (_, i) => [`q${i + 1}`, { count: 2, latencyMs: { mean: i === 0 ? 100 : 10 } }]))
  const f = analyticFigures({ durationS: 60, transactions }, [], new Map([['q1', 30]]))
  assert.equal(f.queries, 44)
  assert.equal(f.queriesPerHour, 2640)
  assert.equal(f.geoMeanMs, Math.round(Math.exp((Math.log(100) + 21 * Math.log(10)) / 22) * 100) / 100)
  assert.equal(f.perQuery.q1.rows, 30)
  delete transactions.q22
  assert.equal(analyticFigures({ durationS: 60, transactions }, [], new Map()).geoMeanMs, null)
})

test('a set that ends in the measured window records when, from the window\'s start', () => {
  const s = streamState(0, Prng.fromSeed(2n), [0, 1])
  let t = 5_000_000
  for (let set = 0; set < 2; set++) {
    for (let i = 0; i < 2; i++) {
      nextQuery(s)
      t += 250_000
      queryEnded(s, { endEpochUs: t, latencyUs: 200_000 }, set === 1, 5_500_000)
    }
  }
  assert.deepEqual(s.setEndsS, [0.5])
  assert.deepEqual(analyticFigures({ durationS: 1, transactions: {} }, [s], new Map()).sets, [{ stream: 0, complete: 1, meanS: 0.45, endsS: [0.5] }])
})
