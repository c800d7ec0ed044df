// Per-interval latency histograms of one run as sparse count vectors on a shared value grid, so
// that windows and bootstrap resamples merge by adding counts (never by averaging percentiles).

import { decodeHistogram, createHistogram } from '../../metrics/histogram.js'
import { readEncodedCounts } from '../../metrics/encoded-histogram.js'

/**
 * A grid of histogram bucket values (microseconds, highest equivalent value) shared by series.
 * With `relativeWidth` > 0, values within that relative width share one slot, reported as the
 * highest value seen in it (the bootstrap uses 0.5 %: far below the noise band, and it keeps a
 * resample's merged histogram small).
 */
export class ValueGrid {
  /** @param {number} [relativeWidth] 0 = exact bucket values */
  constructor (relativeWidth = 0) {
    this.logWidth = relativeWidth > 0 ? Math.log1p(relativeWidth) : 0
    /** @type {Map<number, number>} value (or bin) -> slot */
    this.slots = new Map()
    /** @type {number[]} slot -> value */
    this.values = []
    this._sorted = null
  }

  slot (value) {
    const key = this.logWidth ? Math.floor(Math.log(value) / this.logWidth) : value
    let s = this.slots.get(key)
    if (s === undefined) {
      s = this.values.length
      this.slots.set(key, s)
      this.values.push(value)
      this._sorted = null
    } else if (value > this.values[s]) {
      this.values[s] = value
    }
    return s
  }

  /** Slots in ascending value order (for cumulative walks). */
  order () {
    this._sorted ??= Int32Array.from(this.values.keys()).sort((a, b) => this.values[a] - this.values[b])
    return this._sorted
  }
}

let template = null
let valueOfIndex = null

/**
 * The non-zero buckets of an encoded histogram as (value, count) pairs, read straight from the
 * encoding (lib/metrics/encoded-histogram.js): a decoded histogram would allocate and scan its
 * whole counts array (about 23,000 entries; 1.2 ms per interval histogram, most of a long
 * compare). An encoding that reader refuses is decoded by hdr-histogram-js instead.
 * @param {string} encoded
 * @returns {{ values: Float64Array, counts: Float64Array, total: number }} values: highest equivalent, in us
 */
export function decodeSparse (encoded) {
  template ??= createHistogram()
  valueOfIndex ??= new Float64Array(template.countsArrayLength).fill(-1)
  const values = []
  const counts = []
  const read = readEncodedCounts(encoded, (index, count) => {
    let value = valueOfIndex[index]
    if (value < 0) value = valueOfIndex[index] = template.highestEquivalentValue(template.valueFromIndex(index))
    values.push(value)
    counts.push(count)
  })
  if (read.problem !== null) return sparseViaHistogram(encoded)
  return { values: Float64Array.from(values), counts: Float64Array.from(counts), total: read.totalCount }
}

function sparseViaHistogram (encoded) {
  const h = decodeHistogram(encoded)
  const values = []
  const counts = []
  for (let i = 0; i < h.countsArrayLength; i++) {
    const c = h.getCountAtIndex(i)
    if (c !== 0) { values.push(h.highestEquivalentValue(h.valueFromIndex(i))); counts.push(c) }
  }
  return { values: Float64Array.from(values), counts: Float64Array.from(counts), total: counts.reduce((a, b) => a + b, 0) }
}

/**
 * Decode one encoded histogram into sparse slots/counts on a grid.
 * @param {string} encoded
 * @param {ValueGrid} grid
 * @param {Map<string, ReturnType<typeof decodeSparse>>} [cache] decoded histograms by encoding
 * @returns {{ slots: Int32Array, counts: Float64Array, total: number }}
 */
export function sparseFromEncoded (encoded, grid, cache) {
  let d = cache?.get(encoded)
  if (!d) {
    d = decodeSparse(encoded)
    cache?.set(encoded, d)
  }
  const slots = new Int32Array(d.values.length)
  for (let i = 0; i < d.values.length; i++) slots[i] = grid.slot(d.values[i])
  if (!grid.logWidth) return { slots, counts: d.counts, total: d.total }
  // Coarse grids map neighbouring buckets to one slot: add them up.
  const acc = new Map()
  for (let i = 0; i < slots.length; i++) acc.set(slots[i], (acc.get(slots[i]) ?? 0) + d.counts[i])
  const merged = Int32Array.from(acc.keys())
  return { slots: merged, counts: Float64Array.from(merged, k => acc.get(k)), total: d.total }
}

const EMPTY = { slots: new Int32Array(0), counts: new Float64Array(0), total: 0 }

/**
 * Sparse per-interval histograms of a run for some transaction types (all when `types` is null),
 * merged per interval (measuredIntervals). Intervals without histograms count as empty.
 * @param {object} results a results document
 * @param {string[]|null} types
 * @param {ValueGrid} grid
 * @param {Map<string, ReturnType<typeof decodeSparse>>} [cache] shared between calls on the same run
 * @returns {{ slots: Int32Array, counts: Float64Array, total: number }[]}
 */
export function intervalSeries (results, types, grid, cache = new Map()) {
  return measuredIntervals(results).map((iv) => {
    const hs = iv.histograms ?? {}
    const names = types ?? Object.keys(hs)
    const parts = names.map(n => hs[n]).filter(Boolean).map(e => sparseFromEncoded(e, grid, cache))
    if (parts.length === 0) return EMPTY
    if (parts.length === 1) return parts[0]
    const acc = new Map()
    for (const p of parts) for (let i = 0; i < p.slots.length; i++) acc.set(p.slots[i], (acc.get(p.slots[i]) ?? 0) + p.counts[i])
    const slots = Int32Array.from(acc.keys())
    return { slots, counts: Float64Array.from(slots, s => acc.get(s)), total: parts.reduce((t, p) => t + p.total, 0) }
  })
}

/**
 * A reusable accumulator: add sparse intervals, then read percentiles as HdrHistogram does.
 */
export class SparseAccumulator {
  /** @param {ValueGrid} grid */
  constructor (grid) {
    this.grid = grid
    this.counts = new Float64Array(grid.values.length)
    this.total = 0
  }

  reset () {
    if (this.counts.length !== this.grid.values.length) this.counts = new Float64Array(this.grid.values.length)
    else this.counts.fill(0)
    this.total = 0
  }

  add (sparse) {
    const c = this.counts
    for (let i = 0; i < sparse.slots.length; i++) c[sparse.slots[i]] += sparse.counts[i]
    this.total += sparse.total
  }

  /**
   * Values (microseconds) at several percentiles plus min, max and mean, in one walk.
   * Percentiles follow HdrHistogram: the first bucket whose cumulative count reaches
   * ceil(p/100 * total), reported as its highest equivalent value.
   * @param {number[]} percentiles ascending
   * @returns {{ percentiles: number[], min: number, max: number, mean: number } | null}
   */
  read (percentiles) {
    if (this.total === 0) return null
    const order = this.grid.order()
    const values = this.grid.values
    const targets = percentiles.map(p => Math.max(1, Math.ceil(p / 100 * this.total - 1e-9)))
    const out = new Array(percentiles.length)
    let t = 0
    let cum = 0
    let min = NaN
    let max = NaN
    let sum = 0
    for (let k = 0; k < order.length; k++) {
      const s = order[k]
      const c = this.counts[s]
      if (c === 0) continue
      const v = values[s]
      if (Number.isNaN(min)) min = v
      max = v
      sum += v * c
      cum += c
      while (t < targets.length && cum >= targets[t]) out[t++] = v
    }
    return { percentiles: out, min, max, mean: sum / this.total }
  }
}

/**
 * Nominal seconds per interval of a run: the recorded --interval, else the first interval's
 * length, else the step between consecutive `t` values (default 1 s).
 * @param {object} results
 * @returns {number}
 */
export function intervalSeconds (results) {
  const opt = results.run?.options?.intervalS
  if (typeof opt === 'number' && opt > 0) return opt
  const iv = results.intervals ?? []
  if (typeof iv[0]?.lengthS === 'number' && iv[0].lengthS > 0) return iv[0].lengthS
  if (iv.length >= 2 && Number.isFinite(iv[1].t - iv[0].t) && iv[1].t > iv[0].t) return iv[1].t - iv[0].t
  return 1
}

/**
 * The intervals that cover at least half their nominal length: a run's last, partial interval
 * (a few milliseconds at the end) would otherwise count as a whole second in windows and resamples.
 * @param {object} results
 * @returns {object[]}
 */
export function measuredIntervals (results) {
  const s = intervalSeconds(results)
  return (results.intervals ?? []).filter(iv => !(iv.lengthS < s / 2))
}

/**
 * Length in seconds of one interval (its lengthS, else the nominal length).
 * @param {object} interval
 * @param {number} nominalS
 * @returns {number}
 */
export function intervalLength (interval, nominalS) {
  return typeof interval.lengthS === 'number' && interval.lengthS > 0 ? interval.lengthS : nominalS
}

/**
 * Transactions counted in one interval (for the given types, or all).
 * @param {object} interval
 * @param {string[]|null} types
 * @returns {number}
 */
export function intervalCount (interval, types) {
  const c = interval.count ?? {}
  if (typeof c === 'number') return types ? NaN : c
  let n = 0
  for (const k of types ?? Object.keys(c)) n += c[k] ?? 0
  return n
}
