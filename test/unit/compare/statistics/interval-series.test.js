import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { deflateSync } from 'node:zlib'
import { decodeSparse, ValueGrid, SparseAccumulator, sparseFromEncoded } from '../../../../lib/compare/statistics/interval-series.js'
import { createHistogram, recordUs, encodeHistogram, decodeHistogram, COUNTS_ARRAY_LENGTH } from '../../../../lib/metrics/histogram.js'

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

test('decodeSparse gives no bucket without its value when the counts run past the last bucket', () => {
  const raw = Buffer.alloc(40 + 4)
  raw.writeInt32BE(0x1c849303 | 0x10, 0)
  raw.writeInt32BE(4, 4)
  raw.writeInt32BE(3, 12)
  raw.writeBigInt64BE(1n, 16)
  raw.writeBigInt64BE(3_600_000_000n, 24)
  raw.writeDoubleBE(1, 32)
  // ZigZag LEB128: a run of COUNTS_ARRAY_LENGTH empty buckets, then a count of 1 past the last
  let v = 2 * COUNTS_ARRAY_LENGTH - 1
  let pos = 40
  while (v >= 128) { raw[pos++] = (v & 0x7f) | 0x80; v = Math.floor(v / 128) }
  raw[pos++] = v
  raw[pos++] = 2
  raw.writeInt32BE(pos - 40, 4)
  const z = deflateSync(raw.subarray(0, pos))
  const encoded = Buffer.concat([Buffer.from([0x1c, 0x84, 0x93, 0x14]), Buffer.alloc(4), z])
  encoded.writeInt32BE(z.length, 4)
  const d = decodeSparse(encoded.toString('base64'))
  assert.ok([...d.values].every((x) => Number.isFinite(x)), `values ${[...d.values]}`)
})
