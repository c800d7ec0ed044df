// Whole-run totals of partitions of one run: per-type and summary counters added, histograms
// merged, and the figures derived from them with the code the Recorder and buildResults use.

import { createHistogram, addInto, decodeHistogram, encodeHistogram, latencySummaryMs, restoreRange } from '../metrics/histogram.js'
import { ratePerS, latencyFiguresMs } from '../metrics/figures.js'
import { combineObjects, unionKeys, isNum } from './merge-fields.js'
import { seriesFigures } from './build.js'
import { round3 } from '../format/round.js'

/**
 * Merge encoded histograms and give the result the exact range of the partitions' figures
 * (decoding widens min and max to their buckets' edges).
 * @param {(string|undefined)[]} encoded
 * @param {any[]} [figures] the partitions' `{ min, max }` in ms for the same values
 */
export function mergeEncoded (encoded, figures = []) {
  const h = createHistogram()
  for (const e of encoded) if (typeof e === 'string') addInto(h, decodeHistogram(e))
  const us = (k) => {
    const v = figures.map((f) => f?.[k]).filter(isNum)
    return v.length ? Math.round((k === 'min' ? Math.min(...v) : Math.max(...v)) * 1000) : null
  }
  restoreRange(h, us('min'), us('max'))
  return h
}

/**
 * Latency figures of merged partitions: percentiles, min and max from the merged histogram; the
 * mean and standard deviation from each partition's (count, mean, stddev), which give back the
 * sums the Recorder keeps (exact up to the microsecond rounding of the written figures).
 * @param {import('../metrics/histogram.js').Histogram} h
 * @param {[number, any][]} parts (count, latencyMs) of each partition
 */
function latencyOfParts (h, parts) {
  let n = 0; let sumUs = 0; let sumSqUs = 0
  for (const [count, ms] of parts) {
    if (!(count > 0) || !isNum(ms?.mean)) continue
    const meanUs = ms.mean * 1000
    const sdUs = isNum(ms.stddev) ? ms.stddev * 1000 : 0
    n += count
    sumUs += count * meanUs
    sumSqUs += count * (sdUs * sdUs + meanUs * meanUs)
  }
  return latencyFiguresMs(h, sumUs, sumSqUs, n)
}

/**
 * A mean of partitions' means, weighted by `weight` (keying and think times by transactions).
 * @param {any[]} entries
 * @param {(e: any) => number|null|undefined} value
 * @param {(e: any) => number} weight
 */
function weightedMean (entries, value, weight) {
  let w = 0; let sum = 0
  for (const e of entries) {
    const v = value(e)
    const wt = weight(e)
    if (isNum(v) && wt > 0) { sum += v * wt; w += wt }
  }
  return w > 0 ? round3(sum / w) : null
}

const attempts = (e) => (e?.count ?? 0) + (e?.failed ?? 0)

/**
 * `transactions` of the merged run: for each type, counters added, the histogram merged and
 * tps and latency derived again. Types in the order of `typeOrder`, then any others.
 * @param {any[]} docs partitions, coordinator first
 * @param {number} durationS the merged measured window
 * @param {string[]} typeOrder
 */
export function mergeTransactions (docs, durationS, typeOrder) {
  const names = [...new Set([...typeOrder, ...unionKeys(docs.map((d) => d.transactions))])]
  const out = {}
  for (const name of names) {
    const entries = docs.map((d) => d.transactions[name]).filter((e) => e !== null && typeof e === 'object')
    if (entries.length === 0) continue
    const hist = mergeEncoded(entries.map((e) => e.histogram), entries.map((e) => e.latencyMs))
    const count = entries.reduce((a, e) => a + (e.count ?? 0), 0)
    out[name] = combineObjects(entries, {
      tps: () => ratePerS(count, durationS),
      latencyMs: () => latencyOfParts(hist, entries.map((e) => [e.count, e.latencyMs])),
      keyingMs: () => ({ mean: weightedMean(entries, (e) => e.keyingMs?.mean, attempts) }),
      thinkMs: () => ({ mean: weightedMean(entries, (e) => e.thinkMs?.mean, attempts) }),
      histogram: () => encodeHistogram(hist)
    })
  }
  return out
}

/**
 * Whole-run schedule lag or queue wait: exact from the encoded histograms; documents written
 * without them (older files) leave only the minimum and maximum known.
 * @param {any[]} summaries
 * @param {'lagHistogram'|'queueHistogram'} histField
 * @param {'lagMs'|'queueMs'} figField
 */
function mergeWholeWaits (summaries, histField, figField) {
  const exact = summaries.every((s) => typeof s[histField] === 'string' || !isNum(s[figField]?.max))
  if (exact) {
    const h = mergeEncoded(summaries.map((s) => s[histField]), summaries.map((s) => s[figField]))
    return { figures: latencySummaryMs(h), encoded: encodeHistogram(h) }
  }
  const figures = latencySummaryMs(createHistogram())
  const mins = summaries.map((s) => s[figField]?.min).filter(isNum)
  const maxes = summaries.map((s) => s[figField]?.max).filter(isNum)
  figures.min = mins.length ? Math.min(...mins) : null
  figures.max = maxes.length ? Math.max(...maxes) : null
  return { figures, encoded: undefined }
}

/**
 * `summary` of the merged run: counters added (failures by SQLSTATE key by key), tps, latency,
 * lag and queue figures derived from the merged histograms, the time to steady state from the
 * merged series, the initial connection time as the longest (partitions connect in parallel).
 * @param {any[]} docs partitions, coordinator first
 * @param {{ durationS: number, intervals: any[], stepS: number }} merged
 */
export function mergeSummary (docs, { durationS, intervals, stepS }) {
  const summaries = docs.map((d) => d.summary)
  const all = mergeEncoded(docs.flatMap((d) => Object.values(d.transactions).map((t) => t?.histogram)), summaries.map((s) => s.latencyMs))
  const n = summaries.reduce((a, s) => a + s.transactions, 0)
  const lag = mergeWholeWaits(summaries, 'lagHistogram', 'lagMs')
  const queue = mergeWholeWaits(summaries, 'queueHistogram', 'queueMs')
  const longest = (k) => { const v = summaries.map((s) => s[k]).filter(isNum); return v.length ? Math.max(...v) : null }
  return combineObjects(summaries, {
    tps: () => ratePerS(n, durationS),
    latencyMs: () => latencyOfParts(all, summaries.map((s) => [s.transactions, s.latencyMs])),
    lagMs: () => lag.figures,
    queueMs: () => queue.figures,
    lagHistogram: () => lag.encoded,
    queueHistogram: () => queue.encoded,
    initialConnectionMs: () => longest('initialConnectionMs'),
    averageConnectionMs: () => weightedMean(summaries, (s) => s.averageConnectionMs, (s) => s.transactions),
    steadyState: () => seriesFigures(intervals, stepS).steadyState
  })
}
