// The interval series of partitions of one run, aligned on wall-clock time and added: the
// per-type histograms of intervals that fall on the same slot of one grid are merged exactly.

import { createHistogram, addInto, decodeHistogram, encodeHistogram, restoreRange } from '../metrics/histogram.js'
import { ratePerS, intervalLatencyMs, intervalTailMs } from '../metrics/figures.js'
import { combineObjects, combineValues, isNum } from './merge-fields.js'
import { round3 } from '../format/round.js'
import { shardMeasuredStartMs } from './merge-shards.js'

/**
 * When a partition's measured window began, in ms since the epoch: its start time plus its
 * warm-up; a shard's on the server's clock. A document without a start time counts as starting
 * with the others.
 * @param {any} doc
 * @returns {number|null}
 */
export function measuredStartMs (doc) {
  // shards started together on the server's clock: their own clocks may differ
  const onServer = shardMeasuredStartMs(doc)
  if (onServer !== null) return onServer
  const ms = Date.parse(doc.run?.startTime ?? '')
  return Number.isNaN(ms) ? null : ms + (doc.run.warmupS ?? 0) * 1000
}

/**
 * Each partition's shift on the common grid, in whole intervals: its measured start relative to
 * the earliest one, rounded to the nearest interval. Partitions of one run start within
 * milliseconds of each other; a shift of more than half an interval moves a series by one slot.
 * @param {any[]} docs
 * @param {number} stepS the common interval length
 * @returns {number[]}
 */
export function gridShifts (docs, stepS) {
  const starts = docs.map(measuredStartMs)
  const known = starts.filter(isNum)
  const origin = known.length ? Math.min(...known) : 0
  return starts.map((s) => s === null ? 0 : Math.round((s - origin) / 1000 / stepS))
}

/**
 * Merge the interval series of partitions. Each interval goes to the grid slot
 * `shift + round((t - lengthS) / stepS)`: its own index, moved by its partition's shift. Intervals
 * on one slot are added: counts and every other counter summed, histograms merged, and the
 * figures (tps, latency, lag and queue percentiles) derived from the sums as the Recorder
 * derives them. A slot lasts as long as its longest interval (only the last one is short).
 * @param {any[]} docs partitions, coordinator first
 * @param {number} stepS the common interval length in seconds
 * @returns {object[]} the merged `intervals[]`
 */
export function mergeIntervals (docs, stepS) {
  const shifts = gridShifts(docs, stepS)
  /** @type {Map<number, object[]>} */
  const slots = new Map()
  docs.forEach((doc, p) => {
    for (const iv of doc.intervals) {
      const lengthS = isNum(iv.lengthS) && iv.lengthS > 0 ? iv.lengthS : stepS
      const slot = shifts[p] + Math.max(0, Math.round((iv.t - lengthS) / stepS))
      if (!slots.has(slot)) slots.set(slot, [])
      slots.get(slot).push(iv)
    }
  })
  return [...slots.keys()].sort((a, b) => a - b).map((slot) => mergeSlot(slots.get(slot), slot, stepS))
}

/**
 * One merged interval from the partitions' intervals on one slot.
 * @param {any[]} list
 * @param {number} slot
 * @param {number} stepS
 */
function mergeSlot (list, slot, stepS) {
  const lengthS = round3(Math.max(...list.map((iv) => isNum(iv.lengthS) && iv.lengthS > 0 ? iv.lengthS : stepS)))
  const count = combineValues(list.map((iv) => iv.count)) ?? {}
  const byType = mergeTypeHistograms(list)
  const all = createHistogram()
  for (const h of byType.values()) addInto(all, h)
  restoreRange(all, null, exactMaxUs(list, 'latencyMs'))
  const total = Object.values(count).reduce((a, b) => a + b, 0)
  const lag = mergeWaits(list, 'lagHistogram', 'lagMs')
  const queue = mergeWaits(list, 'queueHistogram', 'queueMs')
  return combineObjects(list, {
    t: () => round3(slot * stepS + lengthS),
    lengthS: () => lengthS,
    count: () => count,
    tps: () => ratePerS(total, lengthS),
    // from the histograms when every interval carries them (all writers of this schema version
    // do for each type with transactions), else from the counts of those that do
    latencyMs: () => intervalLatencyMs(all),
    lagMs: () => lag.figures,
    queueMs: () => queue.figures,
    histograms: () => Object.fromEntries([...byType].map(([type, h]) => [type, encodeHistogram(h)])),
    lagHistogram: () => lag.encoded,
    queueHistogram: () => queue.encoded
  })
}

/** @param {any[]} list @returns {Map<string, import('../metrics/histogram.js').Histogram>} */
function mergeTypeHistograms (list) {
  const byType = new Map()
  for (const iv of list) {
    for (const [type, encoded] of Object.entries(iv.histograms ?? {})) {
      if (!byType.has(type)) byType.set(type, createHistogram())
      addInto(byType.get(type), decodeHistogram(encoded))
    }
  }
  return byType
}

/**
 * Schedule lag or queue wait of one slot: exact from the encoded histograms; intervals written
 * without them (older files) leave only the maximum known.
 * @param {any[]} list
 * @param {'lagHistogram'|'queueHistogram'} histField
 * @param {'lagMs'|'queueMs'} figField
 */
function mergeWaits (list, histField, figField) {
  const exact = list.every((iv) => typeof iv[histField] === 'string' || !isNum(iv[figField]?.max))
  if (!exact) {
    const maxes = list.map((iv) => iv[figField]?.max).filter(isNum)
    return { figures: { p99: null, max: maxes.length ? Math.max(...maxes) : null }, encoded: undefined }
  }
  const h = createHistogram()
  for (const iv of list) if (typeof iv[histField] === 'string') addInto(h, decodeHistogram(iv[histField]))
  restoreRange(h, null, exactMaxUs(list, figField))
  return { figures: intervalTailMs(h), encoded: h.totalCount > 0 ? encodeHistogram(h) : undefined }
}

/**
 * The largest value of a slot in microseconds, from the intervals' exact `max` figures: decoded
 * histograms know it only to its bucket's edge.
 * @param {any[]} list
 * @param {'latencyMs'|'lagMs'|'queueMs'} field
 */
function exactMaxUs (list, field) {
  const v = list.map((iv) => iv[field]?.max).filter(isNum)
  return v.length ? Math.round(Math.max(...v) * 1000) : null
}
