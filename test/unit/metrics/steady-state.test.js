import { test } from 'node:test'
import assert from 'node:assert/strict'
import { timeToSteadyState, throughputSeries, steadyStateOf, STEADY_STATE_DEFAULTS } from '../../../lib/metrics/steady-state.js'

/** A 1 s series from per-second throughput values. */
const series = (values, stepS = 1) => values.map((tps, i) => ({ startS: i * stepS, tps }))
const flat = (n, v) => Array.from({ length: n }, () => v)

test('a run steady from the first interval reaches steady state at 0 s', () => {
  const s = timeToSteadyState(series([100, 104, 97, 101, 99, 102, 98, 100, 103, 96]))
  assert.equal(s.timeS, 0)
  assert.equal(s.medianTps, 100)
  assert.equal(s.medianFromS, 5)
  assert.equal(s.reason, null)
  assert.equal(s.band, STEADY_STATE_DEFAULTS.band)
})

test('a slow ramp (a cache warming) reaches steady state where it enters the band', () => {
  // 0, 9, ..., 81 over the first 10 s, then 100 for 50 s: the band is 90..110.
  const values = [...Array.from({ length: 10 }, (_, i) => i * 9), ...flat(50, 100)]
  assert.equal(timeToSteadyState(series(values)).timeS, 10)
  values[9] = 91
  assert.equal(timeToSteadyState(series(values)).timeS, 9)
  // The same ramp with 2 s intervals: the time is the interval's start in seconds.
  assert.equal(timeToSteadyState(series(values, 2)).timeS, 18)
})

test('isolated dips up to the grace are tolerated, longer ones restart the clock', () => {
  const base = flat(40, 100)
  const dip2 = [...base]
  dip2[10] = 40
  dip2[11] = 40
  assert.equal(timeToSteadyState(series(dip2)).timeS, 0, 'a 2 s checkpoint dip is not a ramp')
  const dip3 = [...base]
  dip3[10] = dip3[11] = dip3[12] = 40
  assert.equal(timeToSteadyState(series(dip3)).timeS, 13, 'a 3 s dip is longer than the 2 s grace')
  assert.equal(timeToSteadyState(series(dip3), { graceS: 3 }).timeS, 0)
  // A short dip right at the end is an outlier too; a long one means the run never settled.
  const endDip = [...base]
  endDip[39] = 10
  assert.equal(timeToSteadyState(series(endDip)).timeS, 0)
})

test('a run that never settles has no time to steady state, and says why', () => {
  // Still climbing: the median of the second half is passed long before the end.
  const climbing = timeToSteadyState(series(Array.from({ length: 60 }, (_, i) => 10 + i * 5)))
  assert.equal(climbing.timeS, null)
  assert.match(climbing.reason, /never within ±10 % of the median/)
  // Swinging between two levels for longer than the grace.
  const swinging = timeToSteadyState(series(Array.from({ length: 60 }, (_, i) => (Math.floor(i / 4) % 2 ? 50 : 150))))
  assert.equal(swinging.timeS, null)
  assert.equal(swinging.reason, "settled only at 56 s, after the median's part began at 30 s: run longer")
  // Settling late in the run: the median's part was not steady.
  const late = timeToSteadyState(series([...flat(40, 20), ...flat(20, 100)]))
  assert.deepEqual([late.timeS, late.medianTps], [null, 100])
})

test('short runs and zero throughput give null with a reason', () => {
  const short = timeToSteadyState(series([100, 100, 100]))
  assert.deepEqual([short.timeS, short.medianTps, short.reason], [null, null, 'fewer than 4 intervals'])
  assert.equal(timeToSteadyState(series([50, 100, 100, 100])).timeS, 1, 'four intervals are enough')
  assert.equal(timeToSteadyState([]).timeS, null)
  const zero = timeToSteadyState(series(flat(20, 0)))
  assert.equal(zero.timeS, null)
  assert.equal(zero.medianTps, 0)
  assert.match(zero.reason, /no throughput/)
  // Throughput that stops half way: the second half's median is 0.
  assert.equal(timeToSteadyState(series([...flat(10, 100), ...flat(10, 0)])).timeS, null)
})

test('sparse runs are judged on buckets of intervals with enough transactions to tell', () => {
  // 45 transactions a second on average: buckets of 9 s hold 400. A ramp over the first 16 s,
  // then 50 a second: the bucket of 9-17 s is still below the band, the one from 18 s is in it.
  const counts = [...flat(8, 10), ...flat(8, 40), ...flat(64, 50)]
  const points = counts.map((n, i) => ({ startS: i, tps: n, n, lengthS: 1 }))
  const s = timeToSteadyState(points)
  assert.deepEqual([s.timeS, s.bucketS, s.medianTps], [18, 9, 50])
  // Counting noise alone (0 to 2 transactions a second) must not decide: too few buckets.
  const tpcc = Array.from({ length: 60 }, (_, i) => [0, 1, 0, 2, 0][i % 5]).map((n, i) => ({ startS: i, tps: n, n, lengthS: 1 }))
  assert.deepEqual([timeToSteadyState(tpcc).timeS, timeToSteadyState(tpcc).reason], [null, 'fewer than 4 intervals of 400 transactions'])
})

test('the series of a results document sums the types and leaves out the ragged last interval', () => {
  const intervals = [
    { t: 1, lengthS: 1, count: { a: 60, b: 40 } },
    { t: 2, lengthS: 1, count: { a: 90, b: 10 } },
    { t: 2.04, lengthS: 0.04, count: { a: 3 } }
  ]
  assert.deepEqual(throughputSeries(intervals, 1), [{ startS: 0, tps: 100, n: 100, lengthS: 1 }, { startS: 1, tps: 100, n: 100, lengthS: 1 }])
  assert.deepEqual(throughputSeries([{ t: 4, count: { a: 10 } }], 2), [{ startS: 2, tps: 5, n: 10, lengthS: 2 }])
})

test('steadyStateOf prefers the recorded field and computes it for older files', () => {
  const intervals = [...Array.from({ length: 5 }, (_, i) => i * 20), ...flat(15, 100)].map((n, i) => ({ t: i + 1, lengthS: 1, count: { x: n } }))
  const doc = { run: { options: { intervalS: 1 } }, summary: {}, intervals }
  assert.equal(steadyStateOf(doc).timeS, 5)
  doc.summary.steadyState = { timeS: 7, medianTps: 1, band: 0.1, graceS: 2, medianFromS: 10, reason: null }
  assert.equal(steadyStateOf(doc).timeS, 7)
})
