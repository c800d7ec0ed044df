import { test } from 'node:test'
import assert from 'node:assert/strict'
import { median, medianInterval, mannWhitneyU, minimumPValue, relativeShift, seededRandom, quantileSorted } from '../../../../lib/compare/statistics/distribution-free.js'

test('median and quantiles interpolate between ranks', () => {
  assert.equal(median([3, 1, 2]), 2)
  assert.equal(median([4, 1, 3, 2]), 2.5)
  assert.equal(quantileSorted([10, 20, 30, 40, 50], 0.25), 20)
})

test('median interval: order statistics with the confidence they really have', () => {
  const few = medianInterval([5, 1, 4, 2, 3])
  assert.deepEqual([few.lo, few.hi, few.median], [1, 5, 3])
  assert.ok(Math.abs(few.confidence - (1 - 2 / 32)) < 1e-12) // 93.75 %: five runs cannot give 95 %
  const many = medianInterval(Array.from({ length: 20 }, (_, i) => i + 1))
  assert.ok(many.confidence >= 0.95)
  assert.ok(many.lo > 1 && many.hi < 20, 'twenty samples narrow the interval')
  assert.equal(medianInterval([7]).lo, null)
})

test('Mann-Whitney U: exact p-values of the textbook cases', () => {
  // completely separated 5 vs 5: p = 2 / C(10,5) = 2/252
  const r = mannWhitneyU([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])
  assert.equal(r.exact, true)
  assert.equal(r.u, 0)
  assert.ok(Math.abs(r.p - 2 / 252) < 1e-12)
  // interleaved: no evidence
  assert.ok(mannWhitneyU([1, 3, 5, 7, 9], [2, 4, 6, 8, 10]).p > 0.5)
  // 3 vs 3 can never go below 0.1
  assert.ok(Math.abs(mannWhitneyU([1, 2, 3], [4, 5, 6]).p - 0.1) < 1e-12)
  assert.ok(Math.abs(minimumPValue(3, 3) - 0.1) < 1e-12)
  assert.ok(minimumPValue(4, 4) < 0.05)
})

test('Mann-Whitney U with ties uses the normal approximation', () => {
  const r = mannWhitneyU([1, 1, 2, 2, 3, 3, 4, 4], [5, 5, 6, 6, 7, 7, 8, 8])
  assert.equal(r.exact, false)
  assert.ok(r.p < 0.01)
  assert.equal(mannWhitneyU([1, 1, 1], [1, 1, 1]).p, 1)
})

test('relative shift: Hodges-Lehmann estimate and interval on the log scale', () => {
  const a = [100, 101, 99, 100.5, 99.5]
  const b = a.map(v => v * 1.1)
  const s = relativeShift(a, b)
  assert.ok(Math.abs(s.estimate - 0.1) < 1e-9)
  assert.ok(s.lo < 0.1 && s.hi > 0.1)
  assert.ok(s.lo > 0.05, `interval ${s.lo}..${s.hi} excludes no change`)
})

test('seeded random: same seed, same sequence; different seed, different one', () => {
  const x = seededRandom(42)
  const y = seededRandom(42)
  const z = seededRandom(43)
  const sx = Array.from({ length: 5 }, x)
  assert.deepEqual(sx, Array.from({ length: 5 }, y))
  assert.notDeepEqual(sx, Array.from({ length: 5 }, z))
  assert.ok(sx.every(v => v >= 0 && v < 1))
})
