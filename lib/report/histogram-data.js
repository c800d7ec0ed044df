// Turns encoded latency histograms (microseconds) into chart rows: the percentile spectrum on an
// HdrHistogram-style 1/(1-p) axis, log-binned distributions and per-interval percentiles.

import { decodeHistogram, mergeHistograms } from '../metrics/histogram.js'
import { round3 } from '../format/round.js'

const MS = 1000
const round6 = (v) => Math.round(v * 1e6) / 1e6

/** Points per decade of 1/(1-p) on the spectrum; 20 gives a smooth line at ~100 points. */
const SPECTRUM_STEPS_PER_DECADE = 20
/** The spectrum stops at p = 99.9999 % (1/(1-p) = 1e6) or where the sample count runs out. */
const SPECTRUM_MAX_INV = 1e6
/** Bins per decade of latency in the distribution chart. */
const DISTRIBUTION_BINS_PER_DECADE = 10

/**
 * @param {string | import('hdr-histogram-js').Histogram} h
 * @returns {import('hdr-histogram-js').Histogram}
 */
const asHistogram = (h) => (typeof h === 'string' ? decodeHistogram(h) : h)

/**
 * Percentile spectrum rows from one histogram. 1/(1-p) is infinite at 100 %, so the maximum is
 * drawn where the sample count runs out (1/(1-p) = the count, or the axis' end): the line's
 * last step rises to it, and the axis reaches it.
 * @param {string | import('hdr-histogram-js').Histogram} encoded
 * @returns {{ p: number, inv: number, ms: number }[]} p in percent, inv = 1/(1-p); the last row
 *   is the maximum, with p 100
 */
export function spectrumRows (encoded) {
  const h = asHistogram(encoded)
  const n = h.totalCount
  if (n === 0) return []
  const maxInv = Math.min(SPECTRUM_MAX_INV, n)
  const rows = []
  for (let k = 0; ; k++) {
    const inv = 10 ** (k / SPECTRUM_STEPS_PER_DECADE)
    if (inv > maxInv * (1 + 1e-9)) break
    const p = 100 * (1 - 1 / inv)
    rows.push({ p: round6(p), inv: round3(inv), ms: round3(h.getValueAtPercentile(p) / MS) })
  }
  rows.push({ p: 100, inv: round3(Math.max(maxInv, rows.at(-1).inv)), ms: round3(h.maxValue / MS) })
  return rows
}

/**
 * Latency distribution: counts in log-spaced bins (10 per decade) of milliseconds.
 * @param {string | import('hdr-histogram-js').Histogram} encoded
 * @returns {{ lo: number, hi: number, count: number, pct: number }[]} pct of this histogram's total
 */
export function distributionRows (encoded) {
  const h = asHistogram(encoded)
  const total = h.totalCount
  if (total === 0) return []
  const bins = new Map()
  const it = h.recordedValuesIterator
  it.reset()
  while (it.hasNext()) {
    const v = it.next()
    const ms = v.valueIteratedTo / MS
    const k = Math.floor(Math.log10(ms) * DISTRIBUTION_BINS_PER_DECADE + 1e-9)
    bins.set(k, (bins.get(k) ?? 0) + v.countAtValueIteratedTo)
  }
  const keys = [...bins.keys()].sort((a, b) => a - b)
  const rows = []
  for (let k = keys[0]; k <= keys[keys.length - 1]; k++) {
    const count = bins.get(k) ?? 0
    rows.push({
      lo: round6(10 ** (k / DISTRIBUTION_BINS_PER_DECADE)),
      hi: round6(10 ** ((k + 1) / DISTRIBUTION_BINS_PER_DECADE)),
      count,
      pct: round3(100 * count / total)
    })
  }
  return rows
}

/**
 * p50/p90/p99/max in ms of several encoded histograms merged (one interval, all types).
 * @param {Iterable<string>} encodedList
 * @returns {{ p50: number, p90: number, p99: number, max: number, count: number } | null}
 */
export function mergedPercentiles (encodedList) {
  const h = mergeHistograms(encodedList)
  if (h.totalCount === 0) return null
  return {
    p50: round3(h.getValueAtPercentile(50) / MS),
    p90: round3(h.getValueAtPercentile(90) / MS),
    p99: round3(h.getValueAtPercentile(99) / MS),
    max: round3(h.maxValue / MS),
    count: h.totalCount
  }
}
