// A part of a run seen as a run of its own, for thresholds: the intervals that fall within a
// window (a stage, a capacity step), their histograms added per type, figures read again from
// the sums. Exact: histograms are added, never percentiles averaged.

import { mergeHistograms, encodeHistogram, latencySummaryMs } from '../../metrics/histogram.js'
import { intervalSeconds, intervalLength } from '../statistics/interval-series.js'

// an interval belongs to a window when most of it lies inside (boundaries fall on the grid or
// within the ragged last interval)
const INSIDE = 0.5

/**
 * The intervals of `doc` whose time lies within [fromS, toS) of the measured window.
 * @param {{ intervals?: any[], run?: any }} doc
 * @param {number} fromS
 * @param {number} toS
 */
export function intervalsWithin (doc, fromS, toS) {
  const sec = intervalSeconds(doc)
  return (doc.intervals ?? []).filter((iv, i) => {
    const end = typeof iv.t === 'number' ? iv.t : (i + 1) * sec
    const len = intervalLength(iv, sec)
    const start = end - len
    const inside = Math.min(end, toS) - Math.max(start, fromS)
    return inside >= INSIDE * len - 1e-9
  })
}

/**
 * A results-like document of some intervals of a run: what thresholds read (summary,
 * transactions with their histograms, intervals), with times re-based to the window's start.
 * Per-type failed and skipped counts are not kept per interval: they are left out.
 * @param {any} doc the run's document (run, intervals)
 * @param {any[]} intervals the window's intervals, in order
 * @param {{ fromS: number, toS?: number, extra?: Record<string, any> }} window
 * @returns {any}
 */
export function windowDocument (doc, intervals, { fromS, toS, extra = {} }) {
  const sec = intervalSeconds(doc)
  const lengthS = intervals.reduce((s, iv) => s + intervalLength(iv, sec), 0)
  const durationS = toS === undefined ? lengthS : Math.max(lengthS, 0)
  const types = doc.run?.transactionTypes ?? [...new Set(intervals.flatMap(iv => Object.keys(iv.histograms ?? iv.count ?? {})))]
  const transactions = {}
  let total = 0
  for (const type of types) {
    const h = mergeHistograms(intervals.map(iv => iv.histograms?.[type]))
    const count = intervals.reduce((s, iv) => s + (iv.count?.[type] ?? 0), 0)
    total += count
    transactions[type] = { count, tps: rate(count, durationS), latencyMs: latencySummaryMs(h), histogram: encodeHistogram(h) }
  }
  const all = mergeHistograms(Object.values(transactions).map(t => t.histogram))
  const lag = mergeHistograms(intervals.map(iv => iv.lagHistogram))
  const failed = intervals.reduce((s, iv) => s + (iv.failed ?? 0), 0)
  const skipped = intervals.reduce((s, iv) => s + (iv.skipped ?? 0), 0)
  return {
    run: { ...doc.run, durationS, options: { ...doc.run?.options, intervalS: sec } },
    summary: {
      transactions: total,
      failed,
      skipped,
      tps: rate(total, durationS),
      latencyMs: latencySummaryMs(all),
      lagMs: intervals.some(iv => iv.lagHistogram) ? latencySummaryMs(lag) : null,
      ...extra
    },
    transactions,
    intervals: intervals.map(iv => ({ ...iv, t: Math.round((iv.t - fromS) * 1000) / 1000 }))
  }
}

const rate = (n, s) => s > 0 ? Math.round(n / s * 100) / 100 : null

/**
 * Stage `n` (from 1) of a staged run as a run of its own: its summary and per-type histograms
 * (results-format.md, "stages[]"), and the intervals within its bounds for windowed thresholds.
 * @param {any} doc
 * @param {number} n
 * @returns {any}
 */
export function stageDocument (doc, n) {
  const s = doc.stages[n - 1]
  const toS = s.startS + s.lengthS
  const intervals = intervalsWithin(doc, s.startS, toS)
  return {
    run: { ...doc.run, durationS: s.lengthS },
    summary: s.summary,
    transactions: s.transactions,
    intervals: intervals.map(iv => ({ ...iv, t: Math.round((iv.t - s.startS) * 1000) / 1000 }))
  }
}

/**
 * Scenario `name` of a scenario run as a run of its own: its summary, per-type figures, intervals
 * and stages (results-format.md, "scenarios").
 * @param {any} doc
 * @param {string} name
 * @returns {any}
 */
export function scenarioDocument (doc, name) {
  const s = doc.scenarios[name]
  return {
    run: { ...doc.run, workload: s.workload, durationS: Math.round((s.endS - s.startS) * 1000) / 1000 },
    summary: s.summary,
    transactions: s.transactions,
    intervals: s.intervals ?? [],
    stages: s.stages
  }
}
