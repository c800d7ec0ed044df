// Shapes a results document into the named datasets the chart specs read: throughput, latency
// and server series per interval, markers, spectra, distributions, TPC-C figures and thresholds.

import { spectrumRows, distributionRows, mergedPercentiles } from './histogram-data.js'
import { checkpointSpans } from '../output/server-summary.js'
import { round3 } from '../format/round.js'
import { mergeHistograms } from '../metrics/histogram.js'

const isNum = (v) => typeof v === 'number' && Number.isFinite(v)
/** TPC-C response-time limits for the 90th percentile (clause 5.2.5.3), ms. */
const TPCC_LIMITS_MS = { 'new-order': 5000, payment: 5000, 'order-status': 5000, delivery: 5000, 'stock-level': 20000 }

/**
 * Length of one interval in seconds: the resolved option when recorded, else the median step of t.
 * @param {any} doc
 * @returns {number}
 */
export function intervalSeconds (doc) {
  const opt = doc.run?.options?.intervalS
  if (isNum(opt) && opt > 0) return opt
  const ts = (doc.intervals ?? []).map((i) => i.t).filter(isNum)
  const steps = []
  for (let i = 1; i < ts.length; i++) if (ts[i] > ts[i - 1]) steps.push(ts[i] - ts[i - 1])
  if (steps.length === 0) return 1
  steps.sort((a, b) => a - b)
  return steps[Math.floor(steps.length / 2)]
}

/** An interval's own length (the last one of a run may be short), else the run's step. */
export function lengthOf (iv, dt) {
  return isNum(iv.lengthS) && iv.lengthS > 0 ? iv.lengthS : dt
}

/** Intervals shorter than this share of the step (the run's ragged tail) are left out of time charts. */
const MIN_INTERVAL_SHARE = 0.5

/**
 * The intervals drawn over time: a last interval of a few milliseconds would turn a handful of
 * transactions into a wild rate, so intervals much shorter than the step are left out.
 * @param {any} doc
 * @returns {any[]}
 */
export function timeIntervals (doc) {
  const dt = intervalSeconds(doc)
  return (doc.intervals ?? []).filter((iv) => iv && isNum(iv.t) && lengthOf(iv, dt) >= dt * MIN_INTERVAL_SHARE)
}

/** Transaction type names in the run's order. */
export function transactionTypes (doc) {
  const listed = Array.isArray(doc.run?.transactionTypes) ? doc.run.transactionTypes : []
  const names = [...listed]
  for (const name of Object.keys(doc.transactions ?? {})) if (!names.includes(name)) names.push(name)
  return names
}

/** CH-benCHmark's q1 ... q22 as one line over time: 22 lines would repeat colours (the tables keep each query). */
export const ANALYTIC_LINE = 'analytic queries'
const QUERY_TYPE = /^q\d+$/

/** @returns {{ t: number, type: string, tps: number }[]} */
export function throughputRows (doc) {
  const dt = intervalSeconds(doc)
  const rows = []
  const analytic = Boolean(doc.chbench)
  for (const iv of timeIntervals(doc)) {
    if (iv.count === null || typeof iv.count !== 'object') continue
    const len = lengthOf(iv, dt)
    let queries = null
    for (const [type, n] of Object.entries(iv.count)) {
      if (!isNum(n)) continue
      if (analytic && QUERY_TYPE.test(type)) queries = (queries ?? 0) + n
      else rows.push({ t: iv.t, type, tps: round3(n / len) })
    }
    if (queries !== null) rows.push({ t: iv.t, type: ANALYTIC_LINE, tps: round3(queries / len) })
  }
  return rows
}

/**
 * CH-benCHmark: when each analytic stream finished a complete set of its queries.
 * @returns {{ t: number, stream: number, label: string }[]}
 */
export function streamSetRows (doc) {
  const rows = []
  for (const s of doc.chbench?.sets ?? []) {
    (s.endsS ?? []).forEach((t, i) => { if (isNum(t)) rows.push({ t, stream: s.stream + 1, label: `stream ${s.stream + 1}: set ${i + 1} complete` }) })
  }
  return rows
}

/**
 * p50/p90/p99/max per interval, all types merged from the interval histograms; falls back to
 * the interval's own latencyMs figures when it carries no histograms.
 * @returns {{ t: number, stat: string, ms: number }[]}
 */
export function latencyRows (doc) {
  const rows = []
  // CH-benCHmark: the transactions' latency, which seconds-long queries would hide
  const analytic = Boolean(doc.chbench)
  for (const iv of timeIntervals(doc)) {
    const encoded = Object.entries(iv.histograms ?? {}).filter(([type, h]) => typeof h === 'string' && !(analytic && QUERY_TYPE.test(type))).map(([, h]) => h)
    // an interval where only queries ended has no transaction latency (its figures are the queries')
    if (analytic && encoded.length === 0) continue
    const figures = encoded.length > 0 ? mergedPercentiles(encoded) : iv.latencyMs
    if (!figures) continue
    for (const stat of ['p50', 'p90', 'p99', 'max']) {
      const ms = figures[stat]
      if (isNum(ms) && ms > 0) rows.push({ t: iv.t, stat, ms })
    }
  }
  return rows
}

/**
 * Checkpoint spans and autovacuum (and other) instants from serverStats.events. A start without
 * an end lasts to the end of the run.
 * @returns {{ t: number, t2: number, kind: string, label: string }[]}
 */
export function markerRows (doc) {
  const ss = doc.serverStats ?? {}
  const events = Array.isArray(ss.events) ? ss.events : []
  const valid = events.filter((e) => e && isNum(e.t) && typeof e.kind === 'string').sort((a, b) => a.t - b.t)
  const lastT = Math.max(doc.run?.durationS ?? 0, ...(doc.intervals ?? []).map((i) => i.t).filter(isNum))
  const rows = checkpointSpans(valid).map((c) => ({
    t: round3(c.start),
    t2: c.end === null ? Math.max(round3(c.start), lastT) : round3(c.end),
    kind: 'checkpoint',
    label: checkpointLabel(c.cause, c.inProgressAtStart)
  }))
  for (const e of valid) {
    if (e.kind === 'checkpoint-start' || e.kind === 'checkpoint-end') continue
    rows.push({ t: round3(e.t), t2: round3(e.t), kind: e.kind, label: e.table ? `${e.kind} ${e.table}` : e.kind })
  }
  // in the order the events happened: a span where it ended
  return rows.sort((a, b) => (a.kind === 'checkpoint' ? a.t2 : a.t) - (b.kind === 'checkpoint' ? b.t2 : b.t))
}

const checkpointLabel = (cause, atStart) => (typeof cause === 'string' && cause ? `checkpoint (${cause})` : 'checkpoint') +
  (atStart ? ', in progress when the run started' : '')

/**
 * The marker datasets the specs read: all markers (labels), checkpoint spans, and instants.
 * Separate datasets let empty layers be dropped before vega sees them.
 * @returns {{ markers: object[], checkpoints: object[], instants: object[] }}
 */
export function markerSets (doc) {
  const markers = markerRows(doc)
  return {
    markers,
    checkpoints: markers.filter((m) => m.kind === 'checkpoint'),
    instants: markers.filter((m) => m.kind !== 'checkpoint')
  }
}

/**
 * Server activity per sample in long form, from the series entries the stats sampler writes
 * (lib/server/stats/sampler.js): rates per second (`<name>PerS`, null when unknown) and gauges.
 * @returns {{ t: number, panel: string, series: string, value: number }[]}
 */
export function serverRows (doc) {
  const series = doc.serverStats?.series
  if (!Array.isArray(series)) return []
  const rows = []
  const disk = doc.serverStats.host?.disk?.name ?? null
  for (const s of series) {
    const t = s?.t
    if (!isNum(t)) continue
    if (isNum(s.walBytesPerS)) rows.push({ t, panel: 'wal', series: 'WAL', value: round3(s.walBytesPerS / 1e6) })
    if (isNum(s.blksReadPerS)) rows.push({ t, panel: 'blocks', series: 'blocks read', value: round3(s.blksReadPerS) })
    if (isNum(s.blksHitPerS)) rows.push({ t, panel: 'blocks', series: 'blocks hit', value: round3(s.blksHitPerS) })
    if (s.ioPerS && typeof s.ioPerS === 'object') {
      for (const [backendType, ops] of Object.entries(s.ioPerS)) {
        for (const op of ['reads', 'writes']) if (isNum(ops?.[op])) rows.push({ t, panel: 'io', series: `${backendType} ${op}`, backendType, op, value: ops[op] })
      }
    }
    hostRows(rows, t, s.host, disk)
    if (s.backends && typeof s.backends === 'object') {
      for (const [state, n] of Object.entries(s.backends)) if (isNum(n)) rows.push({ t, panel: 'backends', series: state, value: n })
    }
    if (isNum(s.lockWaits)) rows.push({ t, panel: 'locks', series: 'lock waits', value: s.lockWaits })
  }
  return rows
}

// The server host's CPU time stacked in this order, from the bottom.
const HOST_CPU = ['user', 'system', 'iowait', 'steal']

// A sample's host figures (lib/server/stats/host-stats.js): CPU shares, and the disk's I/Os with
// their bytes and queue for the tooltip (and the disk's name when the run's end gave it).
function hostRows (rows, t, host, disk) {
  const cpu = host?.cpu
  if (cpu) HOST_CPU.forEach((k, order) => { if (isNum(cpu[k])) rows.push({ t, panel: 'hostCpu', series: k, order, value: cpu[k] }) })
  const d = host?.disk
  if (!d) return
  for (const [op, perS, bytes] of [['reads', d.readsPerS, d.readBytesPerS], ['writes', d.writesPerS, d.writeBytesPerS]]) {
    if (isNum(perS)) rows.push({ t, panel: 'hostDisk', series: op, value: perS, mbPerS: isNum(bytes) ? round3(bytes / 1e6) : null, queue: d.queue ?? null, disk })
  }
}

/**
 * A run through PgBouncer (the results' `pooler`): its clients and server connections at each
 * reading, a row per series, and its pool size (none when unknown). The reading of the run's
 * ragged tail is left out, as its interval is from the other time charts: taken as the run
 * ended, it shows the clients leaving, not the load.
 * @returns {{ poolerClients: { t: number, series: string, value: number }[], poolerServers: { t: number, series: string, value: number }[], poolerSize: { size: number, label: string }[] }}
 */
export function poolerRows (doc) {
  const dt = intervalSeconds(doc)
  const series = (Array.isArray(doc.pooler?.series) ? doc.pooler.series : []).filter((e) => lengthOf(e ?? {}, dt) >= dt * MIN_INTERVAL_SHARE)
  const rows = (fields) => series.flatMap((e) => Object.entries(fields).filter(([, key]) => isNum(e?.[key]) && isNum(e.t)).map(([name, key]) => ({ t: e.t, series: name, value: e[key] })))
  const size = doc.pooler?.poolSize
  return {
    poolerClients: rows({ waiting: 'clientsWaiting', active: 'clientsActive' }),
    poolerServers: rows({ active: 'serversActive', idle: 'serversIdle', used: 'serversUsed' }),
    poolerSize: isNum(size) && size > 0 ? [{ size, label: `pool size ${size}` }] : []
  }
}

/**
 * Every type's whole-run histogram in the run's order; CH-benCHmark's queries merged into one
 * "analytic queries" histogram (each query's figures are in the tables).
 * @returns {[string, any][]}
 */
function typeHistograms (doc) {
  const out = []
  const queries = []
  for (const type of transactionTypes(doc)) {
    const h = doc.transactions[type]?.histogram
    if (typeof h !== 'string') continue
    if (doc.chbench && QUERY_TYPE.test(type)) queries.push(h)
    else out.push([type, h])
  }
  if (queries.length > 0) out.push([ANALYTIC_LINE, mergeHistograms(queries)])
  return out
}

/** Spectrum rows of every type with a merged histogram. */
export function spectrumByType (doc) {
  const rows = []
  for (const [type, h] of typeHistograms(doc)) for (const r of spectrumRows(h)) rows.push({ type, ...r })
  return rows
}

/** Distribution rows of every type with a merged histogram. */
export function distributionByType (doc) {
  const rows = []
  for (const [type, h] of typeHistograms(doc)) for (const r of distributionRows(h)) rows.push({ type, ...r })
  return rows
}

/**
 * Latency thresholds as horizontal lines: evaluated thresholds (lib/compare) with a limit in ms,
 * except those on schedule lag, which is another quantity.
 * @returns {{ ms: number, label: string }[]}
 */
export function thresholdRows (doc) {
  const rows = []
  for (const th of Array.isArray(doc.thresholds) ? doc.thresholds : []) {
    if (!th || typeof th !== 'object') continue
    const expr = String(th.expr ?? '')
    if (/^\s*lag\b/i.test(expr)) continue
    const ms = th.unit === 'ms' ? th.limit : null
    if (isNum(ms) && ms > 0) rows.push({ ms, label: expr || `${ms} ms` })
  }
  return rows
}

/** The New-Order type of a TPC-C run, by name. */
function newOrderType (doc) {
  return transactionTypes(doc).find((t) => /^new[-_ ]?order$/i.test(t))
}

/**
 * tpmC per interval from the New-Order counts.
 * @returns {{ t: number, tpmC: number }[]}
 */
export function tpmcRows (doc) {
  const no = newOrderType(doc)
  if (!no) return []
  const dt = intervalSeconds(doc)
  return timeIntervals(doc)
    .filter((iv) => isNum(iv.count?.[no]))
    .map((iv) => ({ t: iv.t, tpmC: round3(iv.count[no] * 60 / lengthOf(iv, dt)) }))
}

/**
 * 90th-percentile response time per TPC-C type against its limit.
 * @returns {{ type: string, p90Ms: number, limitMs: number, status: string }[]}
 */
export function responseTimeRows (doc) {
  const given = doc.tpcc?.responseTime ?? {}
  const rows = []
  for (const type of transactionTypes(doc)) {
    const g = given[type] ?? {}
    const p90Ms = g.p90Ms ?? doc.transactions[type]?.latencyMs?.p90
    const limitMs = g.limitMs ?? TPCC_LIMITS_MS[type]
    if (!isNum(p90Ms) || !isNum(limitMs)) continue
    if (g.pass === null) continue // the type did not run: no verdict to draw
    const pass = typeof g.pass === 'boolean' ? g.pass : p90Ms < limitMs
    rows.push({ type, p90Ms: Math.max(p90Ms, 0.001), limitMs, status: pass ? 'within limit' : 'over limit' })
  }
  return rows
}
