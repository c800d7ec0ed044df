// The one histogram factory: latency in integer microseconds, 1 us .. 1 h, 3 significant digits.
// Histograms travel encoded (HdrHistogram compressed base64) and merge exactly by adding.

import hdr from 'hdr-histogram-js'
import { round3 } from '../format/round.js'

/** Highest trackable value: one hour in microseconds. Larger values are clamped. */
export const HIGHEST_US = 3_600_000_000
/** Significant value digits (0.1 % relative precision). */
export const SIGNIFICANT_DIGITS = 3

/** @typedef {import('hdr-histogram-js').Histogram} Histogram */

/**
 * A new empty latency histogram (plain JS, 32-bit counts: fastest recordValue, no WASM to free).
 * @returns {Histogram}
 */
export function createHistogram () {
  return hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: HIGHEST_US,
    numberOfSignificantValueDigits: SIGNIFICANT_DIGITS,
    bitBucketSize: 32,
    autoResize: false,
    useWebAssembly: false
  })
}

// recordUs and addInto work on the counts directly (hdr's recordValue computes the index with
// Math.log2 and Math.pow: about 6x the time per value in a micro-benchmark). That reads
// hdr-histogram-js's internals (pinned exactly in package.json), so the layout is checked once
// here; a release that lays its buckets out differently gets hdr's public recordValue and add,
// and one warning.
const probe = createHistogram()
const UNIT_MAGNITUDE = probe.unitMagnitude
const SUB_HALF_MAGNITUDE = probe.subBucketHalfCountMagnitude
const SUB_HALF_COUNT = probe.subBucketHalfCount
const SUB_MASK = probe.subBucketMask
/** Buckets of a histogram of this layout (its counts array length). */
export const COUNTS_ARRAY_LENGTH = probe.countsArrayLength
/** 31 - clz32(v | SUB_MASK) - SUB_HALF_MAGNITUDE - UNIT_MAGNITUDE is hdr's getBucketIndex. */
const BUCKET_BASE = 31 - SUB_HALF_MAGNITUDE - UNIT_MAGNITUDE
const INTERNALS = ['incrementCountAtIndex', 'updateMinAndMax', 'incrementTotalCount', 'handleRecordException',
  'setTotalCount', 'updatedMaxValue', 'updateMinNonZeroValue', 'countsArrayIndex']

/**
 * Why recordUs and addInto cannot use a histogram's internals, or null when they can.
 * @param {any} h a histogram from createHistogram
 * @returns {string|null}
 */
export function layoutMismatch (h) {
  for (const name of INTERNALS) if (typeof h[name] !== 'function') return `no ${name}()`
  if (!(h._counts instanceof Uint32Array) || h._counts.length !== h.countsArrayLength) return 'its counts are not a Uint32Array of countsArrayLength'
  const half = h.subBucketHalfCountMagnitude
  if (h.unitMagnitude !== 0 || h.lowestDiscernibleValueRounded !== 1 || h.unitMagnitudeMask !== 0 ||
      !(half >= 1 && half <= 20) || h.subBucketCount !== 2 ** (half + 1) || h.subBucketHalfCount !== 2 ** half ||
      h.subBucketMask !== h.subBucketCount - 1 || h.countsArrayLength !== (h.bucketCount + 1) * h.subBucketHalfCount) {
    return 'its bucket layout differs'
  }
  if (half !== SUB_HALF_MAGNITUDE) return 'its bucket layout differs from the first histogram\'s'
  for (const v of [1, 2, SUB_MASK, SUB_MASK + 1, 2 ** 31 - 1, 2 ** 31, HIGHEST_US]) {
    if (countsIndex(v) !== h.countsArrayIndex(v)) return `its counts index of ${v} differs`
  }
  return null
}

const mismatch = layoutMismatch(probe)
/** Whether recordUs and addInto take the direct path (false: hdr's public recordValue and add). */
export const directCounts = mismatch === null
if (!directCounts) {
  process.emitWarning(`hdr-histogram-js is not laid out as pgload expects (${mismatch}): latencies are recorded through its public API, which is slower`, { code: 'PGLOAD_HISTOGRAM_FALLBACK' })
}

/**
 * hdr's countsArrayIndex for an integer 0 <= v < 2^32 (>>> and clz32 read v as uint32).
 * @param {number} v
 * @returns {number}
 */
function countsIndex (v) {
  const bucket = BUCKET_BASE - Math.clz32(v | SUB_MASK)
  return ((bucket + 1) << SUB_HALF_MAGNITUDE) + (v >>> (bucket + UNIT_MAGNITUDE)) - SUB_HALF_COUNT
}

/**
 * Record one value in microseconds, clamped into the trackable range and rounded to an integer.
 * Same result as h.recordValue of the clamped value, bit for bit; histograms of another layout
 * (not from createHistogram) and NaN take hdr's own path.
 * @param {Histogram} h
 * @param {number} us
 */
export function recordUs (h, us) {
  const v = us < 1 ? 1 : us > HIGHEST_US ? HIGHEST_US : Math.round(us)
  if (!directCounts || Number.isNaN(v) || h.subBucketHalfCountMagnitude !== SUB_HALF_MAGNITUDE || h.unitMagnitude !== UNIT_MAGNITUDE) {
    h.recordValue(v)
    return
  }
  // What JsHistogram.recordSingleValue does once it has the index.
  const index = countsIndex(v)
  if (index >= h.countsArrayLength) h.handleRecordException(1, v)
  else h.incrementCountAtIndex(index)
  h.updateMinAndMax(v)
  h.incrementTotalCount()
}

// Histograms whose counts addInto may add index by index: createHistogram's layout.
function ownLayout (h) {
  return directCounts && h.subBucketHalfCountMagnitude === SUB_HALF_MAGNITUDE && h.unitMagnitude === UNIT_MAGNITUDE &&
    h.countsArrayLength === probe.countsArrayLength && h._counts instanceof Uint32Array
}

/**
 * Add `from`'s counts to `into`. The same result as hdr's `into.add(from)`, for the closing of
 * every interval: hdr's add left its optimised code on almost every call in runs (about once a
 * second, "insufficient type feedback") and then summed 23,552 counts in the interpreter.
 * Histograms of another layout take hdr's own path.
 * @param {Histogram} into
 * @param {Histogram} from
 */
export function addInto (into, from) {
  if (!ownLayout(into) || !ownLayout(from)) {
    into.add(from)
    return
  }
  const a = into._counts
  const b = from._counts
  let added = 0
  for (let i = 0; i < b.length; i++) {
    const c = b[i]
    if (c !== 0) {
      a[i] += c
      added += c
    }
  }
  // What hdr's add does after its loop (unitMagnitudeMask is 0 and the lowest value 1 here).
  into.setTotalCount(into.totalCount + added)
  into.updatedMaxValue(Math.max(into.maxValue, from.maxValue))
  into.updateMinNonZeroValue(Math.min(into.minNonZeroValue, from.minNonZeroValue))
  into.startTimeStampMsec = Math.min(into.startTimeStampMsec, from.startTimeStampMsec)
  into.endTimeStampMsec = Math.max(into.endTimeStampMsec, from.endTimeStampMsec)
}

/**
 * @param {Histogram} h
 * @returns {string} compressed base64 (HdrHistogram V2 log encoding)
 */
export function encodeHistogram (h) {
  return hdr.encodeIntoCompressedBase64(h)
}

/**
 * @param {string} encoded
 * @returns {Histogram}
 */
export function decodeHistogram (encoded) {
  return hdr.decodeFromCompressedBase64(encoded, 32, false)
}

/**
 * Merge encoded histograms exactly (by adding counts) into a new histogram.
 * @param {Iterable<string | Histogram>} items
 * @returns {Histogram}
 */
export function mergeHistograms (items) {
  const out = createHistogram()
  for (const item of items) {
    if (!item) continue
    addInto(out, typeof item === 'string' ? decodeHistogram(item) : item)
  }
  return out
}

const MS = 1000

/**
 * Latency figures in milliseconds (microsecond precision) from a histogram of microseconds.
 * Empty histograms give nulls, never zeros that look like measurements.
 * @param {Histogram} h
 * @returns {{ mean: number|null, stddev: number|null, min: number|null, p50: number|null, p90: number|null, p95: number|null, p99: number|null, p999: number|null, max: number|null }}
 */
export function latencySummaryMs (h) {
  if (h.totalCount === 0) {
    return { mean: null, stddev: null, min: null, p50: null, p90: null, p95: null, p99: null, p999: null, max: null }
  }
  // The histogram's mean is taken over bucket midpoints: for values packed in one bucket it can
  // read outside the recorded range, so it is held within min and max as percentiles are.
  const min = h.minNonZeroValue
  const max = h.maxValue
  return {
    mean: round3(Math.min(max, Math.max(min, h.mean)) / MS),
    stddev: round3(h.stdDeviation / MS),
    min: round3(min / MS),
    p50: percentileMs(h, 50),
    p90: percentileMs(h, 90),
    p95: percentileMs(h, 95),
    p99: percentileMs(h, 99),
    p999: percentileMs(h, 99.9),
    max: round3(max / MS)
  }
}

/**
 * A percentile in milliseconds. HdrHistogram reports the top of the value's bucket; it is
 * clamped to the recorded maximum so that no percentile ever reads above max.
 * @param {Histogram} h
 * @param {number} p 0..100
 * @returns {number|null}
 */
export function percentileMs (h, p) {
  if (h.totalCount === 0) return null
  const v = h.getValueAtPercentile(p)
  return round3((v > h.maxValue ? h.maxValue : v) / MS)
}

/**
 * Give a histogram the exact smallest and largest values recorded. A decoded histogram only
 * knows them to their buckets' edges, while results documents keep the exact ones (`min`,
 * `max`): a merge of decoded histograms then reads the same figures as the run. Values outside
 * the histogram's lowest and highest buckets are ignored (they cannot be its range).
 * @param {Histogram} h
 * @param {number|null} minUs
 * @param {number|null} maxUs
 */
export function restoreRange (h, minUs, maxUs) {
  if (h.totalCount === 0 || !ownLayout(h)) return
  if (Number.isInteger(maxUs) && maxUs <= h.maxValue && maxUs >= h.lowestEquivalentValue(h.maxValue)) h.updatedMaxValue(maxUs)
  if (Number.isInteger(minUs) && minUs >= h.minNonZeroValue && minUs <= h.highestEquivalentValue(h.minNonZeroValue)) h.updateMinNonZeroValue(minUs)
}
