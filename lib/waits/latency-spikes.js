// Latency spikes that line up with a cause. An interval spikes when its p99 latency is at least
// SPIKE_FACTOR times the median of the run's intervals' p99 and at least SPIKE_FLOOR_MS above it,
// or its max is, against the median of their max (a few transactions that waited long among many
// that did not leave the p99 as it was). It is reported only when, while its slow transactions ran
// (the interval, and before it as far back as the spiking figure), a checkpoint ran, an autovacuum
// or autoanalyze of a workload table began, or Lock waits held at least LOCK_SHARE of an
// interval's sampled sessions and PILE_UP_FACTOR times their median interval's share (a lock
// pile-up: a transaction that waited on a lock for two intervals ends in the third; a workload
// that always waits on locks, such as tpcb-like's branches at a small scale, has none). A calm
// run, or a spike without a cause, says nothing.

/** An interval's p99 at least this many times the median interval's is a spike. */
export const SPIKE_FACTOR = 3
/** ...and at least this many ms above it: sub-millisecond jitter is no spike. */
export const SPIKE_FLOOR_MS = 1
/** Lock waits of at least this share of an interval's sampled sessions are a lock pile-up. */
export const LOCK_SHARE = 0.3
/** ...and at least this many times the median interval's Lock share: more than the run's usual. */
export const PILE_UP_FACTOR = 2
/** Fewer intervals with a latency than this have no median worth comparing with. */
const MIN_INTERVALS = 3

const isNum = (v) => typeof v === 'number' && Number.isFinite(v)

/** The middle value (the mean of the middle two of an even count). */
function median (values) {
  const s = [...values].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

/**
 * @typedef {object} LatencySpike
 * @property {number} fromS start of the interval, s into the measured window
 * @property {number} toS its end
 * @property {'p99'|'max'} stat
 * @property {number} ms the interval's p99, or its max when only the max spikes
 * @property {number} ratio ms over the median interval's (p99 or max)
 * @property {string[]} causes 'a checkpoint', 'a lock pile-up', 'an autovacuum of pgbench_accounts'
 * @property {{ event: string, share: number, fromS: number, toS: number }|null} top the most
 *   sampled wait event of the interval (of the lock pile-up's, when there is one) and its share of
 *   the sampled sessions
 */

/**
 * The spikes of a run that line up with a cause, largest first.
 * @param {object} run
 * @param {{ t: number, lengthS?: number, latencyMs?: { p99?: number|null, max?: number|null } }[]} run.intervals results.intervals
 * @param {import('../results/wait-classes.js').WaitInterval[]} [run.series] waits.series
 * @param {{ t: number, kind: string, table?: string }[]} [run.events] serverStats.events
 * @param {string[]|null} [run.tables] the workload's tables; null: any table counts
 * @returns {LatencySpike[]}
 */
export function latencySpikes ({ intervals, series = [], events = [], tables = null }) {
  const medians = { p99: medianOf(intervals, 'p99'), max: medianOf(intervals, 'max') }
  const usualLock = usualShare(intervals, series, 'Lock')
  const spikes = []
  let prevT = 0
  for (const iv of intervals) {
    const fromS = isNum(iv.lengthS) ? iv.t - iv.lengthS : prevT
    prevT = iv.t
    // the p99 first; the max catches the few transactions that waited among many that did not
    const stat = ['p99', 'max'].find((k) => spikes1(iv.latencyMs?.[k], medians[k]))
    if (stat === undefined) continue
    const ms = iv.latencyMs[stat]
    // the slowest of the interval's transactions began this long before it
    const sinceS = fromS - ms / 1000
    const ran = series.filter((e) => e.t > sinceS && e.t - (e.lengthS ?? 0) < iv.t)
    const own = series.find((e) => Math.abs(e.t - iv.t) < 1e-6) ?? null
    // the interval's own Lock share, unless an earlier one's was larger
    let pileUp = own
    for (const e of ran) if (pileUp === null || classShare(e, 'Lock') > classShare(pileUp, 'Lock')) pileUp = e
    const lock = pileUp === null ? 0 : classShare(pileUp, 'Lock')
    const locked = lock >= LOCK_SHARE && lock >= PILE_UP_FACTOR * usualLock
    const causes = causesIn(sinceS, iv.t, { events, tables, locked })
    if (causes.length === 0) continue
    spikes.push({ fromS, toS: iv.t, stat, ms, ratio: medians[stat] > 0 ? ms / medians[stat] : Infinity, causes, top: topEvent(locked ? pileUp : own) })
  }
  return spikes.sort((a, b) => b.ratio - a.ratio || a.fromS - b.fromS)
}

/** The median over the intervals of one latency figure, or null with too few intervals that have it. */
function medianOf (intervals, stat) {
  const values = intervals.map((iv) => iv.latencyMs?.[stat]).filter(isNum)
  return values.length < MIN_INTERVALS ? null : median(values)
}

/** A figure at least SPIKE_FACTOR times its median interval's and SPIKE_FLOOR_MS above it. */
function spikes1 (ms, mid) {
  return isNum(ms) && mid !== null && ms >= SPIKE_FACTOR * mid && ms - mid >= SPIKE_FLOOR_MS
}

/** What ran in [fromS, toS] that can explain a spike. */
function causesIn (fromS, toS, { events, tables, locked }) {
  const causes = []
  if (checkpointOverlaps(events, fromS, toS)) causes.push('a checkpoint')
  if (locked) causes.push('a lock pile-up')
  for (const e of events) {
    if ((e.kind !== 'autovacuum' && e.kind !== 'autoanalyze') || !(e.t >= fromS && e.t <= toS)) continue
    if (tables !== null && !tables.some((t) => e.table === t || e.table?.endsWith(`.${t}`))) continue
    const text = `an ${e.kind} of ${e.table}`
    if (!causes.includes(text)) causes.push(text)
  }
  return causes
}

/** A checkpoint span (start to end; a start without an end lasts on) overlapping the interval. */
function checkpointOverlaps (events, fromS, toS) {
  let start = null
  for (const e of [...events].sort((a, b) => a.t - b.t)) {
    if (e.kind === 'checkpoint-start') start ??= e.t
    else if (e.kind === 'checkpoint-end') {
      if ((start ?? e.t) <= toS && e.t >= fromS) return true
      start = null
    }
  }
  return start !== null && start <= toS
}

/** The median over the intervals of a class's share (an interval without samples has none of it). */
function usualShare (intervals, series, cls) {
  if (intervals.length === 0) return 0
  return median(intervals.map((iv) => {
    const e = series.find((x) => Math.abs(x.t - iv.t) < 1e-6)
    return e ? classShare(e, cls) : 0
  }))
}

/** A class's share of an interval's sampled sessions. */
function classShare (waits, cls) {
  const total = Object.values(waits.samples ?? {}).reduce((a, n) => a + n, 0)
  return total > 0 ? (waits.samples[cls] ?? 0) / total : 0
}

/** An interval's most sampled wait event with its share of the sampled sessions. */
function topEvent (waits) {
  if (!waits) return null
  const total = Object.values(waits.samples ?? {}).reduce((a, n) => a + n, 0)
  const [event, n] = Object.entries(waits.events ?? {}).sort((a, b) => b[1] - a[1])[0] ?? []
  if (!event || total === 0) return null
  return { event, share: n / total, fromS: waits.t - (waits.lengthS ?? 0), toS: waits.t }
}

/**
 * The spikes of a results document (its intervals, wait series, server events and tables).
 * @param {any} doc
 * @returns {LatencySpike[]}
 */
export function spikesOf (doc) {
  const tables = doc.serverStats?.tables && typeof doc.serverStats.tables === 'object' ? Object.keys(doc.serverStats.tables) : null
  return latencySpikes({
    intervals: Array.isArray(doc.intervals) ? doc.intervals : [],
    series: Array.isArray(doc.waits?.series) ? doc.waits.series : [],
    events: Array.isArray(doc.serverStats?.events) ? doc.serverStats.events.filter((e) => e && isNum(e.t) && typeof e.kind === 'string') : [],
    tables: tables?.length ? tables : null
  })
}

/**
 * The summary's line for the largest spike, or null on a calm run:
 * `latency spike at 12-13 s (p99 48 ms, 4.1x the median interval) with a checkpoint; Lock:transactionid 62 % of sampled sessions`.
 * @param {LatencySpike[]} spikes
 * @returns {string|null}
 */
export function spikeLine (spikes) {
  const s = spikes[0]
  if (!s) return null
  const ms = s.ms >= 10 ? Math.round(s.ms) : Math.round(s.ms * 10) / 10
  const ratio = isFinite(s.ratio) ? `${s.ratio.toFixed(1)}x the median interval` : 'the median interval has none'
  // the pile-up's interval when it came before the spike's
  const at = s.top && Math.abs(s.top.toS - s.toS) > 1e-6 ? ` at ${num(s.top.fromS)}-${num(s.top.toS)} s` : ''
  const top = s.top ? `; ${s.top.event} ${Math.round(s.top.share * 100)} % of sampled sessions${at}` : ''
  const more = spikes.length > 1 ? ` (${spikes.length - 1} more interval${spikes.length > 2 ? 's' : ''} alike)` : ''
  return `latency spike at ${num(s.fromS)}-${num(s.toS)} s (${s.stat} ${ms} ms, ${ratio}) with ${s.causes.join(' and ')}${top}${more}`
}

const num = (v) => String(Math.round(v * 1000) / 1000)
