// Single-run comparison: a seeded circular block bootstrap over the per-interval histograms of
// one run per side. Each resample merges whole intervals by adding counts, then reads the stats.

import { ValueGrid, SparseAccumulator, intervalSeries, intervalSeconds, intervalCount, measuredIntervals, intervalLength } from './interval-series.js'
import { quantileSorted, seededRandom } from './stats.js'

const PERCENTILES = { p50: 50, p90: 90, p95: 95, p99: 99, p999: 99.9 }

/**
 * Default block length in intervals: the square root of the run length (conservative:
 * longer blocks keep more of the autocorrelation, e.g. checkpoints, inside a block).
 * @param {number} intervals
 * @returns {number}
 */
export function defaultBlockLength (intervals) {
  return Math.max(1, Math.round(Math.sqrt(intervals)))
}

function resampleIndices (T, L, random, out) {
  let k = 0
  while (k < T) {
    const start = Math.floor(random() * T)
    for (let j = 0; j < L && k < T; j++) out[k++] = (start + j) % T
  }
  return out
}

/**
 * Bootstrap distributions of the compared metrics for one run per side.
 * @param {object} a results document (baseline)
 * @param {object} b results document (candidate)
 * @param {{ id: string, kind: 'latency'|'rate', txn: string|null, stat?: string, scale?: [number, number] }[]} metrics
 *   latency: stat p50/p95/p99/max of the merged histograms of `txn` (null = all types), in ms;
 *   rate: transactions of `txn` (null = all) per second, times `scale` per side (e.g. tpmC)
 * @param {{ iterations?: number, seed?: number, blockLength?: number }} [opts]
 * @returns {{ iterations: number, seed: number, blockLength: [number, number], intervals: [number, number],
 *   samples: Map<string, { a: Float64Array, b: Float64Array }> }}
 */
export function bootstrapRuns (a, b, metrics, { iterations = 1000, seed = 1, blockLength } = {}) {
  const ivA = measuredIntervals(a)
  const ivB = measuredIntervals(b)
  const TA = ivA.length
  const TB = ivB.length
  const LA = blockLength ?? defaultBlockLength(TA)
  const LB = blockLength ?? defaultBlockLength(TB)
  const lenA = Float64Array.from(ivA, iv => intervalLength(iv, intervalSeconds(a)))
  const lenB = Float64Array.from(ivB, iv => intervalLength(iv, intervalSeconds(b)))
  const random = seededRandom(seed)

  // One grid and series per transaction group, shared by both sides.
  const groups = new Map()
  for (const m of metrics) {
    const key = m.txn ?? '\u0000all'
    if (groups.has(key)) continue
    const types = m.txn === null ? null : [m.txn]
    const g = { types, needsHist: false, grid: new ValueGrid() }
    groups.set(key, g)
  }
  for (const m of metrics) if (m.kind === 'latency') groups.get(m.txn ?? '\u0000all').needsHist = true
  for (const g of groups.values()) {
    if (g.needsHist) {
      g.seriesA = intervalSeries(a, g.types, g.grid)
      g.seriesB = intervalSeries(b, g.types, g.grid)
      g.acc = new SparseAccumulator(g.grid)
    }
    g.countA = Float64Array.from(ivA, iv => intervalCount(iv, g.types))
    g.countB = Float64Array.from(ivB, iv => intervalCount(iv, g.types))
  }

  const samples = new Map(metrics.map(m => [m.id, { a: new Float64Array(iterations), b: new Float64Array(iterations) }]))
  const idxA = new Int32Array(TA)
  const idxB = new Int32Array(TB)
  const pcts = Object.values(PERCENTILES)
  for (let it = 0; it < iterations; it++) {
    resampleIndices(TA, LA, random, idxA)
    resampleIndices(TB, LB, random, idxB)
    for (const [side, idx, len] of [['a', idxA, lenA], ['b', idxB, lenB]]) {
      let sec = 0
      for (const i of idx) sec += len[i]
      for (const [key, g] of groups) {
        let read = null
        if (g.needsHist) {
          const series = side === 'a' ? g.seriesA : g.seriesB
          g.acc.reset()
          for (const i of idx) g.acc.add(series[i])
          read = g.acc.read(pcts)
        }
        let count = 0
        const counts = side === 'a' ? g.countA : g.countB
        for (const i of idx) count += counts[i]
        for (const m of metrics) {
          if ((m.txn ?? '\u0000all') !== key) continue
          let v
          if (m.kind === 'rate') v = count / sec * (m.scale?.[side === 'a' ? 0 : 1] ?? 1)
          else if (!read) v = NaN
          else if (m.stat === 'max') v = read.max / 1000
          else if (m.stat === 'mean') v = read.mean / 1000
          else v = read.percentiles[pcts.indexOf(PERCENTILES[m.stat])] / 1000
          samples.get(m.id)[side][it] = v
        }
      }
    }
  }
  return { iterations, seed, blockLength: [LA, LB], intervals: [TA, TB], samples }
}

/**
 * Percentile interval and two-sided p-value of the relative change from bootstrap samples.
 * @param {Float64Array} sa
 * @param {Float64Array} sb
 * @param {number} [confidence]
 * @returns {{ a: [number, number], b: [number, number], change: [number, number], p: number } | null}
 */
export function bootstrapInterval (sa, sb, confidence = 0.95) {
  const ratios = []
  const as = []
  const bs = []
  for (let i = 0; i < sa.length; i++) {
    if (!Number.isFinite(sa[i]) || !Number.isFinite(sb[i])) continue
    as.push(sa[i])
    bs.push(sb[i])
    if (sa[i] > 0) ratios.push(sb[i] / sa[i] - 1)
  }
  if (ratios.length < 10) return null
  const lo = (1 - confidence) / 2
  const hi = 1 - lo
  as.sort((x, y) => x - y)
  bs.sort((x, y) => x - y)
  ratios.sort((x, y) => x - y)
  let below = 0
  let above = 0
  for (const r of ratios) { if (r <= 0) below++; if (r >= 0) above++ }
  const p = Math.min(1, 2 * Math.min(below, above) / ratios.length)
  return {
    a: [quantileSorted(as, lo), quantileSorted(as, hi)],
    b: [quantileSorted(bs, lo), quantileSorted(bs, hi)],
    change: [quantileSorted(ratios, lo), quantileSorted(ratios, hi)],
    p
  }
}
