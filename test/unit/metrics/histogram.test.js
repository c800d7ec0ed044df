import { test } from 'node:test'
import assert from 'node:assert/strict'
import hdr from 'hdr-histogram-js'
import { addInto, createHistogram, decodeHistogram, recordUs, encodeHistogram, HIGHEST_US, latencySummaryMs } from '../../../lib/metrics/histogram.js'

// recordUs before it computed the index itself: clamp, round, then hdr's own recordValue.
const reference = (h, us) => h.recordValue(us < 1 ? 1 : us > HIGHEST_US ? HIGHEST_US : Math.round(us))

const PERCENTILES = [0, 1, 10, 25, 50, 75, 90, 95, 99, 99.9, 99.99, 100]

/** Same counts (the encoding holds every count), total, min, max; with full, the derived figures too. */
function assertSame (got, want, what, full = true) {
  assert.equal(got.totalCount, want.totalCount, `${what}: totalCount`)
  assert.equal(got.minNonZeroValue, want.minNonZeroValue, `${what}: min`)
  assert.equal(got.maxValue, want.maxValue, `${what}: max`)
  assert.equal(encodeHistogram(got), encodeHistogram(want), `${what}: encoding`)
  if (!full) return
  for (const p of PERCENTILES) assert.equal(got.getValueAtPercentile(p), want.getValueAtPercentile(p), `${what}: p${p}`)
  if (want.totalCount > 0) {
    assert.equal(got.mean, want.mean, `${what}: mean`)
    assert.equal(got.stdDeviation, want.stdDeviation, `${what}: stddev`)
  }
}

function edgeValues () {
  const out = [0, -0, 0.4, 0.5, 0.6, 1, 1.49, 1.5, 2, 3, 1000, 2047, 2047.5, 2048, 2049, 4095, 4096, 4097,
    2 ** 31 - 1, 2 ** 31 - 0.5, 2 ** 31, 2 ** 31 + 1, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1,
    HIGHEST_US - 1, HIGHEST_US - 0.5, HIGHEST_US - 0.4, HIGHEST_US, HIGHEST_US + 0.4, HIGHEST_US + 1, 1e12,
    Infinity, -1, -0.4, -1e9, -Infinity]
  for (let k = 0; k <= 32; k++) {
    const p = 2 ** k
    out.push(p - 1, p, p + 1, p - 0.5, p + 0.5)
    // every sub-bucket edge near the top of bucket k: the last and first value of a sub-bucket
    if (k >= 11) for (const m of [1024, 1025, 2047]) out.push(m * 2 ** (k - 10) - 1, m * 2 ** (k - 10))
  }
  return out
}

test('recordUs equals hdr recordValue of the clamped, rounded value at every edge, one value at a time', () => {
  for (const us of edgeValues()) {
    const got = createHistogram()
    const want = createHistogram()
    recordUs(got, us)
    reference(want, us)
    assertSame(got, want, `value ${us}`, false)
    assert.equal(got.getValueAtPercentile(50), want.getValueAtPercentile(50), `value ${us}: p50`)
  }
})

test('recordUs equals hdr recordValue over many random values across the whole range', () => {
  let seed = 0x9e3779b9
  const rnd = () => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>> 0) / 2 ** 32 }
  const got = createHistogram()
  const want = createHistogram()
  for (const us of edgeValues()) { recordUs(got, us); reference(want, us) }
  for (let i = 0; i < 200_000; i++) {
    const kind = i % 4
    const us = kind === 0
      ? 10 ** (rnd() * 10 - 1) // log-uniform 0.1 us .. 1e9 us, fractional
      : kind === 1
        ? Math.floor(rnd() * 2 ** 32) // uniform integers over uint32
        : kind === 2
          ? Math.floor(rnd() * 5000) // dense where buckets 0 and 1 meet
          : (rnd() - 0.1) * 4e9 // negatives and values above the range too
    recordUs(got, us)
    reference(want, us)
  }
  assertSame(got, want, 'random values')
  assert.ok(want.totalCount > 200_000)
})

test('NaN is recorded as hdr recordValue records it (a count with no value), no more, no less', () => {
  const got = createHistogram()
  const want = createHistogram()
  for (const us of [5, NaN, 7, undefined]) { recordUs(got, us); reference(want, us) }
  assert.equal(got.totalCount, 4)
  assert.equal(got.totalCount, want.totalCount)
  assert.equal(got.minNonZeroValue, want.minNonZeroValue)
  assert.equal(got.maxValue, want.maxValue)
  assert.equal(encodeHistogram(got), encodeHistogram(want))
})

test('a histogram of another layout takes hdr own path and still matches', () => {
  const build = () => hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: HIGHEST_US, numberOfSignificantValueDigits: 2, bitBucketSize: 32, autoResize: false, useWebAssembly: false })
  const got = build()
  const want = build()
  for (const us of edgeValues()) { recordUs(got, us); reference(want, us) }
  for (let i = 1; i < 1e9; i = Math.ceil(i * 1.37)) { recordUs(got, i); reference(want, i) }
  assertSame(got, want, '2 significant digits')
})

test('addInto gives what hdr add gives: counts, total, min, max, percentiles, timestamps', () => {
  let seed = 7
  const rand = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31 }
  const fill = (h, n, scale) => { for (let i = 0; i < n; i++) recordUs(h, rand() ** 3 * scale) }
  const cases = [
    ['both filled', (a, b) => { fill(a, 5000, 1e6); fill(b, 3000, 1e9) }],
    ['into empty', (a, b) => { fill(b, 100, 1e4) }],
    ['from empty', (a, b) => { fill(a, 100, 1e4) }],
    ['both empty', () => {}],
    ['edges only', (a, b) => { for (const us of edgeValues()) recordUs(b, us); recordUs(a, 5) }],
    ['from below into', (a, b) => { recordUs(a, 1e6); recordUs(b, 3) }]
  ]
  for (const [what, setup] of cases) {
    const got = createHistogram(); const from = createHistogram(); const want = createHistogram()
    seed = 7
    setup(got, from)
    seed = 7
    setup(want, createHistogram()) // the same values into an independent copy
    from.startTimeStampMsec = 1000; from.endTimeStampMsec = 2000
    const fromBefore = encodeHistogram(from)
    addInto(got, from)
    want.add(from)
    assertSame(got, want, what)
    assert.equal(got.startTimeStampMsec, want.startTimeStampMsec, `${what}: start`)
    assert.equal(got.endTimeStampMsec, want.endTimeStampMsec, `${what}: end`)
    assert.equal(encodeHistogram(from), fromBefore, `${what}: from is unchanged`)
    // a second add counts twice
    addInto(got, from)
    want.add(from)
    assertSame(got, want, `${what}, twice`, false)
  }
})

test('addInto with a histogram of another layout takes hdr own path', () => {
  const other = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: HIGHEST_US, numberOfSignificantValueDigits: 2, bitBucketSize: 32, autoResize: false, useWebAssembly: false })
  for (let i = 1; i < 1e8; i = Math.ceil(i * 1.5)) recordUs(other, i)
  const got = createHistogram(); const want = createHistogram()
  recordUs(got, 42); recordUs(want, 42)
  addInto(got, other)
  want.add(other)
  assertSame(got, want, 'into ours from 2 significant digits')
})

test('merging decoded histograms (compare, reports) gives what hdr add gives', () => {
  const a = createHistogram(); const b = createHistogram()
  for (let i = 1; i < 1e9; i = Math.ceil(i * 1.21)) { recordUs(a, i); recordUs(b, i * 3 + 1) }
  const got = createHistogram(); const want = createHistogram()
  for (const enc of [encodeHistogram(a), encodeHistogram(b)]) {
    addInto(got, decodeHistogram(enc))
    want.add(decodeHistogram(enc))
  }
  assertSame(got, want, 'decoded')
})

test('latencySummaryMs: a mean over bucket midpoints never reads outside the recorded min and max', () => {
  const h = createHistogram()
  // three waits packed in one wide bucket: the bucket's midpoint lies above all of them
  for (const us of [17319350, 17320990, 17320000]) recordUs(h, us)
  const f = latencySummaryMs(h)
  assert.ok(f.mean <= f.max, `mean ${f.mean} above max ${f.max}`)
  assert.ok(f.mean >= f.min, `mean ${f.mean} below min ${f.min}`)
})
