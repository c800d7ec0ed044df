// The measured value a threshold talks about, read from a results document: whole-run values
// from summaries and cumulative histograms, windowed ones by merging interval histograms.

import { mergeHistograms } from '../../metrics/histogram.js'
import { ValueGrid, SparseAccumulator, intervalSeries, intervalSeconds, intervalCount, measuredIntervals, intervalLength } from '../statistics/interval-series.js'
import { quantileSorted } from '../statistics/distribution-free.js'

const TPCC_TPMC_PER_WAREHOUSE = 12.86 // the spec's maximum tpmC per warehouse (efficiency = 100 %)
const SUMMARY_PERCENTILES = { 50: 'p50', 90: 'p90', 95: 'p95', 99: 'p99', 99.9: 'p999' }

/**
 * @typedef {{ value: number, window?: { startS: number, endS: number }, note?: string }} Measured
 * @typedef {{ noData: string }} NoData
 */

const noData = (why) => ({ noData: why })

function typeCheck (results, txn) {
  if (txn === null) return null
  const types = Object.keys(results.transactions ?? {})
  return types.includes(txn) ? null : noData(`no transaction type '${txn}' (types: ${types.join(', ') || 'none'})`)
}

function fromHistogram (h, t) {
  if (h.totalCount === 0) return null
  switch (t.agg) {
    case 'avg': return h.mean / 1000
    case 'min': return h.minNonZeroValue / 1000
    case 'max': return h.maxValue / 1000
    case 'med': return h.getValueAtPercentile(50) / 1000
    case 'p': return h.getValueAtPercentile(t.percentile) / 1000
  }
  return null
}

function fromSummary (lat, t) {
  if (!lat) return null
  const key = { avg: 'mean', min: 'min', max: 'max', med: 'p50' }[t.agg] ?? SUMMARY_PERCENTILES[t.percentile]
  const v = key ? lat[key] : undefined
  return typeof v === 'number' ? v : null
}

function fromValues (values, t) {
  if (values.length === 0) return null
  const s = [...values].sort((a, b) => a - b)
  switch (t.agg) {
    case 'rate': case 'avg': return values.reduce((a, b) => a + b, 0) / values.length
    case 'min': return s[0]
    case 'max': return s[s.length - 1]
    case 'med': return quantileSorted(s, 0.5)
    case 'p': return quantileSorted(s, t.percentile / 100)
  }
  return null
}

/**
 * The whole-run value of a threshold's metric.
 * @param {object} results
 * @param {import('./parser.js').Threshold} t
 * @returns {Measured | NoData}
 */
export function wholeRunValue (results, t) {
  const missing = typeCheck(results, t.txn)
  if (missing) return missing
  const tx = t.txn === null ? null : results.transactions[t.txn]
  const s = results.summary
  const got = (v, why) => typeof v === 'number' && Number.isFinite(v) ? { value: v } : noData(why)
  switch (t.metric) {
    case 'latency': {
      if (t.agg === 'count') return got(tx ? tx.count : s.transactions, 'no transaction count')
      const encoded = tx ? [tx.histogram] : Object.values(results.transactions ?? {}).map(x => x.histogram)
      if (encoded.length && encoded.every(Boolean)) {
        return got(fromHistogram(mergeHistograms(encoded), t), 'no transactions completed')
      }
      return got(fromSummary(tx ? tx.latencyMs : s.latencyMs, t), 'no latency figures')
    }
    case 'tps':
      if (t.agg === 'rate' || t.agg === 'avg') return got(tx ? tx.tps : s.tps, 'no tps')
      return got(fromValues(perIntervalRates(results, t.txn), t), 'no per-interval data')
    case 'failed':
    case 'skipped': {
      const n = (tx ?? s)[t.metric]
      if (t.agg === 'count') return got(n, `no ${t.metric} count`)
      const done = tx ? tx.count : s.transactions
      return got(typeof n === 'number' && done + n > 0 ? n / (done + n) : null, 'no transactions')
    }
    case 'lag':
      return got(fromSummary(s.lagMs, t), 'no schedule lag figures')
    case 'tpmC':
      return got(results.tpcc?.tpmC, 'not a TPC-C run (no tpcc.tpmC)')
    case 'efficiency': {
      if (typeof results.tpcc?.efficiency === 'number') return { value: results.tpcc.efficiency } // percent
      const tpmC = results.tpcc?.tpmC
      const w = results.tpcc?.warehouses ?? results.run?.scale
      if (typeof tpmC === 'number' && w > 0) return { value: 100 * tpmC / (TPCC_TPMC_PER_WAREHOUSE * w) }
      return noData('not a TPC-C run (no tpcc.tpmC and warehouses)')
    }
  }
  return noData(`unknown metric ${t.metric}`)
}

function perIntervalRates (results, txn) {
  const sec = intervalSeconds(results)
  return measuredIntervals(results).map(iv => intervalCount(iv, txn === null ? null : [txn]) / intervalLength(iv, sec)).filter(Number.isFinite)
}

/**
 * The value of every window of `t.windowS` seconds (sliding by one interval), merging the
 * interval histograms by adding. Windows without data are left out.
 * @param {object} results
 * @param {import('./parser.js').Threshold} t
 * @returns {{ windows: { value: number, startS: number, endS: number }[], note?: string } | NoData}
 */
export function windowValues (results, t) {
  const missing = typeCheck(results, t.txn)
  if (missing) return missing
  const iv = measuredIntervals(results)
  if (iv.length === 0) return noData('no per-interval data')
  const sec = intervalSeconds(results)
  const lengths = iv.map(x => intervalLength(x, sec))
  let k = Math.max(1, Math.round(t.windowS / sec))
  let note
  if (k > iv.length) {
    note = `the run has ${Math.round(lengths.reduce((a, b) => a + b, 0) * 1000) / 1000} s of intervals, shorter than the ${t.windowS} s window: the whole run is one window`
    k = iv.length
  }
  const types = t.txn === null ? null : [t.txn]
  const counts = iv.map(x => intervalCount(x, types))
  const startOf = (i) => Math.round(((iv[i].t ?? (i + 1) * sec) - lengths[i]) * 1000) / 1000
  const endOf = (i) => Math.round((iv[i].t ?? (i + 1) * sec) * 1000) / 1000
  const windows = []
  const push = (i, value) => {
    if (value !== null && Number.isFinite(value)) windows.push({ value, startS: startOf(i), endS: endOf(i + k - 1) })
  }
  if (t.metric === 'latency' && t.agg !== 'count') {
    const grid = new ValueGrid()
    const series = intervalSeries(results, types, grid)
    if (series.every(x => x.total === 0)) return noData('no interval histograms')
    const acc = new SparseAccumulator(grid)
    const pcts = [t.agg === 'med' ? 50 : t.agg === 'p' ? t.percentile : 50]
    for (let i = 0; i + k <= iv.length; i++) {
      acc.reset()
      for (let j = i; j < i + k; j++) acc.add(series[j])
      const r = acc.read(pcts)
      if (!r) continue
      const us = t.agg === 'avg' ? r.mean : t.agg === 'min' ? r.min : t.agg === 'max' ? r.max : r.percentiles[0]
      push(i, us / 1000)
    }
  } else {
    for (let i = 0; i + k <= iv.length; i++) {
      let n = 0
      let bad = 0
      let seconds = 0
      for (let j = i; j < i + k; j++) {
        n += counts[j]
        seconds += lengths[j]
        if (t.metric === 'failed' || t.metric === 'skipped') bad += iv[j][t.metric] ?? NaN
      }
      let v
      if (t.metric === 'latency') v = n
      else if (t.metric === 'tps') v = t.agg === 'rate' || t.agg === 'avg' ? n / seconds : fromValues(counts.slice(i, i + k).map((c, j) => c / lengths[i + j]), t)
      else v = t.agg === 'count' ? bad : (n + bad > 0 ? bad / (n + bad) : null)
      push(i, v)
    }
  }
  if (windows.length === 0) return noData('no window with data')
  return note ? { windows, note } : { windows }
}
