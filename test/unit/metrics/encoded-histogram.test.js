// The one reader of encoded histograms: the buckets it visits are a full decode's, and what it
// cannot read safely (another layout, damaged counts) is named instead of walked.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { deflateSync } from 'node:zlib'
import { readEncodedCounts } from '../../../lib/metrics/encoded-histogram.js'
import { createHistogram, recordUs, encodeHistogram, decodeHistogram, COUNTS_ARRAY_LENGTH } from '../../../lib/metrics/histogram.js'

function visited (encoded) {
  const out = []
  const read = readEncodedCounts(encoded, (index, count) => out.push([index, count]))
  return { read, out }
}

// An encoding with pgload's header around `counts` (already ZigZag LEB128 bytes).
function encodingOf (counts, { highest = 3_600_000_000n } = {}) {
  const raw = Buffer.alloc(40 + counts.length)
  raw.writeInt32BE(0x1c849303 | 0x10, 0)
  raw.writeInt32BE(counts.length, 4)
  raw.writeInt32BE(3, 12)
  raw.writeBigInt64BE(1n, 16)
  raw.writeBigInt64BE(highest, 24)
  raw.writeDoubleBE(1, 32)
  Buffer.from(counts).copy(raw, 40)
  const z = deflateSync(raw)
  const out = Buffer.alloc(8 + z.length)
  out.writeInt32BE(0x1c849304 | 0x10, 0)
  out.writeInt32BE(z.length, 4)
  z.copy(out, 8)
  return out.toString('base64')
}

test('every bucket with a count is visited once, in index order, as a full decode holds it', () => {
  const h = createHistogram()
  for (const us of [1, 2, 999, 1000, 1001, 65_536, 1_234_567, 3_600_000_000]) recordUs(h, us)
  for (let i = 0; i < 300; i++) recordUs(h, 42) // a count above one LEB128 byte
  const encoded = encodeHistogram(h)
  const { read, out } = visited(encoded)
  const full = decodeHistogram(encoded)
  const expected = []
  for (let i = 0; i < full.countsArrayLength; i++) if (full.getCountAtIndex(i)) expected.push([i, full.getCountAtIndex(i)])
  assert.deepEqual(out, expected)
  assert.deepEqual(read, { problem: null, totalCount: 308 })
  assert.deepEqual(visited(encodeHistogram(createHistogram())), { read: { problem: null, totalCount: 0 }, out: [] })
})

test('another layout, a word past its end and a bucket past the last are problems, with no bucket visited past them', () => {
  const other = visited(encodingOf([2], { highest: 1_000_000n }))
  assert.match(other.read.problem, /^not pgload's layout/)
  assert.deepEqual(other.out, [])
  assert.equal(visited(encodingOf([0x82])).read.problem, 'damaged counts (a word runs past its end)')
  // skip to the last bucket (ZigZag of -COUNTS_ARRAY_LENGTH), then a count of 1 there and one past it
  const skip = []
  for (let v = 2 * COUNTS_ARRAY_LENGTH - 1; ; v = Math.floor(v / 128)) {
    if (v < 128) { skip.push(v); break }
    skip.push((v & 0x7f) | 0x80)
  }
  const past = visited(encodingOf([...skip, 2]))
  assert.equal(past.read.problem, `damaged counts (bucket ${COUNTS_ARRAY_LENGTH + 1} past the last, ${COUNTS_ARRAY_LENGTH})`)
  assert.deepEqual(past.out, [])
  assert.equal(readEncodedCounts('abc').problem, 'not base64 (length 3 is not a multiple of 4)')
})
