import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { decodeSparse, ValueGrid, SparseAccumulator, sparseFromEncoded } from '../../../../lib/compare/statistics/interval-series.js'
import { createHistogram, recordUs, encodeHistogram, decodeHistogram } from '../../../../lib/metrics/histogram.js'

function bucketsOf (encoded) {
  const h = decodeHistogram(encoded)
  const out = []
  for (let i = 0; i < h.countsArrayLength; i++) {
    const c = h.getCountAtIndex(i)
    if (c) out.push([h.highestEquivalentValue(h.valueFromIndex(i)), c])
  }
  return out
}

test('decodeSparse reads the same buckets as a full decode', () => {
  const h = createHistogram()
  for (const us of [1, 2, 999, 1000, 1001, 65_536, 1_234_567, 3_600_000_000]) recordUs(h, us)
  for (let i = 0; i < 5000; i++) recordUs(h, 100 + (i * 7919) % 200_000)
  recordUs(h, 42)
  for (let i = 0; i < 300; i++) recordUs(h, 42) // a count above one LEB128 byte
  const fixture = JSON.parse(readFileSync(new URL('../../../fixtures/compare/tpcc-1.json', import.meta.url), 'utf8'))
  for (const encoded of [encodeHistogram(h), fixture.transactions['new-order'].histogram, fixture.intervals[3].histograms.payment, encodeHistogram(createHistogram())]) {
    const d = decodeSparse(encoded)
    assert.deepEqual([...d.values].map((v, i) => [v, d.counts[i]]), bucketsOf(encoded))
    assert.equal(d.total, decodeHistogram(encoded).totalCount)
  }
})

test('an accumulator reads percentiles as HdrHistogram does; a coarse grid stays within its width', () => {
  const h = createHistogram()
  for (let i = 1; i <= 10_000; i++) recordUs(h, i * 3)
  const encoded = encodeHistogram(h)
  const exact = new ValueGrid()
  const acc = new SparseAccumulator(exact)
  const sparse = sparseFromEncoded(encoded, exact)
  acc.reset()
  acc.add(sparse)
  const r = acc.read([50, 99, 99.9])
  assert.deepEqual(r.percentiles, [50, 99, 99.9].map(p => h.getValueAtPercentile(p)))
  assert.equal(r.max, h.highestEquivalentValue(h.maxValue)) // bucket resolution, as a decoded histogram
  const coarse = new ValueGrid(0.005)
  const c = new SparseAccumulator(coarse)
  const cs = sparseFromEncoded(encoded, coarse)
  c.reset()
  c.add(cs)
  const rc = c.read([50, 99])
  for (const [i, p] of [50, 99].entries()) {
    const rel = rc.percentiles[i] / h.getValueAtPercentile(p) - 1
    assert.ok(rel >= -0.001 && rel <= 0.006, `p${p}: ${rel}`)
  }
  assert.ok(coarse.values.length < exact.values.length / 2)
})
