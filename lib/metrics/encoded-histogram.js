// Reads the counts of an encoded histogram (what encodeHistogram writes: HdrHistogram's V2
// compressed encoding in base64) straight from the encoding, without building the histogram: a
// decoded histogram allocates and scans its whole counts array, too slow for every interval
// histogram of a long run. Anything but a well-formed encoding of pgload's layout (1 us .. 1 h,
// 3 significant digits) is named as a problem, never read past its end.

import { inflateSync } from 'node:zlib'
import { COUNTS_ARRAY_LENGTH, SIGNIFICANT_DIGITS, HIGHEST_US } from './histogram.js'

const V2_COMPRESSED_COOKIE = 0x1c849304 // outer cookie (low nibble of its second byte: word size)
const V2_COOKIE = 0x1c849303 // cookie of the inflated histogram
const V2_WORD_BYTES = 9 // a V2 count is ZigZag LEB128 of up to 9 bytes
const HEADER_BYTES = 40 // cookie, payload length, index offset, digits, lowest, highest, ratio
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/
const MAX_COUNT = 2 ** 32 - 1 // counts are decoded into 32-bit buckets
// Inflating stops here: pgload's histograms are a few kilobytes even when every bucket is used.
const MAX_INFLATED_BYTES = 1 << 20

/**
 * The buckets of an encoded histogram, in index order, or what keeps it from being read.
 * @param {string} encoded
 * @param {((index: number, count: number) => void) | null} [onBucket] called for each bucket
 *   with a count above zero (index as HdrHistogram's counts array has it)
 * @returns {{ problem: string, totalCount: null } | { problem: null, totalCount: number }}
 */
export function readEncodedCounts (encoded, onBucket = null) {
  const problem = (what) => ({ problem: what, totalCount: null })
  if (encoded.length % 4 !== 0) return problem(`not base64 (length ${encoded.length} is not a multiple of 4)`)
  if (!BASE64.test(encoded)) return problem('not base64 (characters outside A-Z a-z 0-9 + / =)')
  const buf = Buffer.from(encoded, 'base64')
  if (buf.length < 8 || (buf.readInt32BE(0) & ~0xf0) !== V2_COMPRESSED_COOKIE) return problem('not an HdrHistogram compressed encoding (no V2 cookie)')
  const compressed = buf.readInt32BE(4)
  if (compressed <= 0 || compressed > buf.length - 8) return problem(`compressed length ${compressed} does not match the ${buf.length - 8} bytes present`)
  let raw
  try {
    raw = inflateSync(buf.subarray(8, 8 + compressed), { maxOutputLength: MAX_INFLATED_BYTES })
  } catch (err) {
    return problem(`damaged compressed data (${oneLine(err)})`)
  }
  const layout = layoutProblem(raw)
  if (layout) return problem(layout)
  const counts = walkCounts(raw, onBucket)
  return typeof counts === 'string' ? problem(counts) : { problem: null, totalCount: counts }
}

function layoutProblem (raw) {
  if (raw.length < HEADER_BYTES) return 'truncated header'
  const cookie = raw.readInt32BE(0)
  if ((cookie & ~0xf0) !== V2_COOKIE) return 'not a V2 HdrHistogram (bad cookie)'
  const digits = raw.readInt32BE(12)
  const lowest = raw.readBigInt64BE(16)
  const highest = raw.readBigInt64BE(24)
  if (digits !== SIGNIFICANT_DIGITS || lowest !== 1n || highest !== BigInt(HIGHEST_US)) {
    return `not pgload's layout (lowest ${lowest}, highest ${highest}, ${digits} digits; expected 1, ${HIGHEST_US}, ${SIGNIFICANT_DIGITS})`
  }
  const payload = raw.readInt32BE(4)
  if (payload < 0 || HEADER_BYTES + payload > raw.length) return `payload length ${payload} runs past the ${raw.length - HEADER_BYTES} bytes present`
  return null
}

// Walk the ZigZag LEB128 counts (negative words are runs of empty buckets): every bucket index
// stays inside the counts array. Returns what is wrong, or the sum of the counts.
function walkCounts (raw, onBucket) {
  const end = HEADER_BYTES + raw.readInt32BE(4)
  let index = 0
  let total = 0
  let pos = HEADER_BYTES
  while (pos < end) {
    let v = 0
    let scale = 1
    let bytes = 0
    let b
    do {
      if (pos >= end || bytes === V2_WORD_BYTES) return 'damaged counts (a word runs past its end)'
      b = raw[pos++]
      v += (b & 0x7f) * scale
      scale *= 128
      bytes++
    } while (b & 0x80)
    const word = v % 2 === 0 ? v / 2 : -(v + 1) / 2
    if (word < 0) index -= word
    else if (word > MAX_COUNT) return `damaged counts (a bucket count of ${word})`
    else {
      index++
      total += word
      if (index <= COUNTS_ARRAY_LENGTH && word > 0 && onBucket !== null) onBucket(index - 1, word)
    }
    if (index > COUNTS_ARRAY_LENGTH) return `damaged counts (bucket ${index} past the last, ${COUNTS_ARRAY_LENGTH})`
  }
  return total
}

function oneLine (err) {
  return String(err?.message ?? err).replace(/\s+/g, ' ').trim()
}
