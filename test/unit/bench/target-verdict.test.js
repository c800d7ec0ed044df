import { test } from 'node:test'
import assert from 'node:assert/strict'
import { targetVerdict } from '../../../bench/lib/target-verdict.js'

test('a tps target is met only when the whole interval of the median is at or above it', () => {
  // 9 rounds: the 96 % interval of the median is the 2nd to the 8th smallest
  const met = targetVerdict([0.95, 0.91, 1.02, 0.97, 0.89, 0.99, 0.96, 0.93, 1.05], 0.9, 'atLeast')
  assert.equal(met.rounds, 9)
  assert.equal(met.median, 0.96)
  assert.deepEqual([met.lo, met.hi], [0.91, 1.02])
  assert.ok(met.confidence > 0.95 && met.confidence < 0.97, String(met.confidence))
  assert.equal(met.verdict, 'met')
  // the same rounds against a higher target straddle it
  assert.equal(targetVerdict([0.95, 0.91, 1.02, 0.97, 0.89, 0.99, 0.96, 0.93, 1.05], 0.95, 'atLeast').verdict, 'within noise')
  assert.equal(targetVerdict([0.8, 0.85, 0.82, 0.88, 0.84], 0.9, 'atLeast').verdict, 'missed')
  // the interval's lower end equal to the target meets it
  assert.equal(targetVerdict([0.9, 0.95, 0.97, 0.99, 1.0], 0.9, 'atLeast').verdict, 'met')
})

test('a CPU target is met when the whole interval is at or below it, missed when above', () => {
  assert.equal(targetVerdict([1.2, 1.3, 1.25, 1.42, 1.22], 1.5, 'atMost').verdict, 'met')
  assert.equal(targetVerdict([1.6, 1.7, 1.55, 1.9, 1.65], 1.5, 'atMost').verdict, 'missed')
  assert.equal(targetVerdict([1.3, 1.6, 1.45, 1.55, 1.4], 1.5, 'atMost').verdict, 'within noise')
})

test('one round, or failed rounds only, decide nothing; failed rounds are left out', () => {
  const one = targetVerdict([1.2], 0.9, 'atLeast')
  assert.deepEqual([one.lo, one.hi, one.confidence, one.rounds, one.verdict], [null, null, 0, 1, 'within noise'])
  const none = targetVerdict([NaN, NaN], 0.9, 'atLeast')
  assert.equal(none.rounds, 0)
  assert.equal(none.verdict, 'within noise')
  const some = targetVerdict([NaN, 0.95, 0.97, 0.99, 1.0, 0.96], 0.9, 'atLeast')
  assert.equal(some.rounds, 5)
  assert.equal(some.verdict, 'met')
})
