// Time to steady state: when a run's throughput first reaches, and then keeps to, a band around
// its steady-state level. Ramp-ups after a restart (a cold cache warming) show up here.

/**
 * How steady state is judged (docs/results-format.md, "summary.steadyState").
 * The level comes from the second half of the run, which is assumed steady; a run that is still
 * changing there has a median that the band check then rejects at the end, giving "never".
 */
export const STEADY_STATE_DEFAULTS = {
  tailShare: 0.5, // the steady-state median is taken over this last share of the intervals
  band: 0.1, // throughput within +/- this fraction of that median counts as steady (10 %)
  graceS: 2, // seconds: out-of-band stretches up to this long (a checkpoint dip) are tolerated
  minIntervals: 4, // fewer (buckets of) intervals than this: too short to tell
  // Transactions per bucket of intervals at least: counting noise (1/sqrt(n) = 5 %) is then
  // half the band, so that chance alone rarely leaves it. Sparse runs use longer buckets.
  bucketTransactions: 400
}

const isNum = (v) => typeof v === 'number' && Number.isFinite(v)

/**
 * @typedef {{ startS: number, tps: number, n?: number, lengthS?: number }} ThroughputPoint one
 *   interval: its start (seconds since the measured window began), its throughput (transactions
 *   per second) and, for bucketing, its transactions and length
 * @typedef {{ timeS: number|null, medianTps: number|null, band: number, graceS: number,
 *   bucketS: number|null, medianFromS: number|null, reason: string|null }} SteadyState
 *   timeS: start of the first interval from which throughput stays in the band (null: never or
 *   not computable, see reason); medianTps: the steady-state level; bucketS: the length of the
 *   buckets of intervals judged; medianFromS: where the buckets of the median begin
 */

function median (values) {
  const s = [...values].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

/**
 * Time to steady state of a throughput series.
 *
 * Intervals are first added up into buckets of at least `bucketTransactions` transactions on
 * average (one interval each at ordinary rates); "interval" below means such a bucket.
 * steady-state median M = median per-interval throughput of the last `tailShare` of the
 * intervals. Time to steady state = the start of the first interval i that is inside
 * [M (1 - band), M (1 + band)] and after which every stretch of consecutive intervals outside
 * the band lasts at most `graceS` seconds (at least one interval), to the end of the run. An i
 * past the start of the median's part means the run had not settled there: null, as for never.
 * @param {ThroughputPoint[]} points in time order, equal steps (the ragged last interval left out)
 * @param {Partial<typeof STEADY_STATE_DEFAULTS>} [options]
 * @returns {SteadyState}
 */
export function timeToSteadyState (points, options = {}) {
  const o = { ...STEADY_STATE_DEFAULTS }
  for (const [k, v] of Object.entries(options)) if (v !== undefined) o[k] = v
  const buckets = bucketed(points, o.bucketTransactions)
  const bucketS = buckets.length > 1 ? (buckets[buckets.length - 1].startS - buckets[0].startS) / (buckets.length - 1) : null
  const result = (timeS, medianTps, medianFromS, reason) => ({ timeS, medianTps, band: o.band, graceS: o.graceS, bucketS, medianFromS, reason })
  const n = buckets.length
  if (n < o.minIntervals) {
    const sparse = buckets.length < points.length ? ` of ${o.bucketTransactions} transactions` : ''
    return result(null, null, null, `fewer than ${o.minIntervals} intervals${sparse}`)
  }
  const from = Math.min(n - 1, Math.floor(n * (1 - o.tailShare)))
  const m = median(buckets.slice(from).map((p) => p.tps))
  const medianFromS = buckets[from].startS
  if (!(m > 0)) return result(null, m, medianFromS, 'no throughput in the steady-state part')
  const lo = m * (1 - o.band)
  const hi = m * (1 + o.band)
  const graceIntervals = Math.max(1, Math.floor(o.graceS / bucketS + 1e-9))
  // Walk back from the end: `start` is the earliest in-band interval reachable without
  // crossing an out-of-band stretch longer than the grace.
  let start = -1
  let outside = 0
  for (let i = n - 1; i >= 0; i--) {
    const tps = buckets[i].tps
    if (tps >= lo && tps <= hi) {
      start = i
      outside = 0
    } else if (++outside > graceIntervals) {
      break
    }
  }
  const band = `±${Math.round(o.band * 100)} % of the median`
  if (start < 0) return result(null, m, medianFromS, `never within ${band}`)
  // Settling inside the part the median came from contradicts the premise that it was steady.
  if (start > from) return result(null, m, medianFromS, `settled only at ${buckets[start].startS} s, after the median's part began at ${medianFromS} s: run longer`)
  return result(buckets[start].startS, m, medianFromS, null)
}

/**
 * Consecutive intervals added up into buckets of equal length holding at least `perBucket`
 * transactions on average (all the intervals when they carry no counts: as given).
 * @param {ThroughputPoint[]} points
 * @param {number} perBucket
 * @returns {ThroughputPoint[]}
 */
function bucketed (points, perBucket) {
  if (points.length === 0 || !points.every((p) => isNum(p.n) && isNum(p.lengthS))) return points
  const mean = points.reduce((sum, p) => sum + p.n, 0) / points.length
  const k = mean > 0 ? Math.ceil(perBucket / mean) : 1
  if (k <= 1) return points
  const out = []
  // Whole buckets only: a partial one at the end would be noisier than the rest.
  for (let i = 0; i + k <= points.length; i += k) {
    let n = 0
    let lengthS = 0
    for (let j = i; j < i + k; j++) { n += points[j].n; lengthS += points[j].lengthS }
    out.push({ startS: points[i].startS, tps: n / lengthS, n, lengthS })
  }
  return out
}

/**
 * The total throughput series of a results document's intervals: every interval at least half
 * a step long (the run's ragged last one is left out): its start, transactions per second,
 * transactions and length.
 * @param {any[]} intervals results `intervals[]` ({ t: end in s, lengthS, count: { type: n } })
 * @param {number} stepS the interval length of the run
 * @returns {ThroughputPoint[]}
 */
export function throughputSeries (intervals, stepS) {
  const points = []
  for (const iv of Array.isArray(intervals) ? intervals : []) {
    if (!iv || !isNum(iv.t) || iv.count === null || typeof iv.count !== 'object') continue
    const lengthS = isNum(iv.lengthS) && iv.lengthS > 0 ? iv.lengthS : stepS
    if (lengthS < stepS / 2) continue
    let n = 0
    for (const v of Object.values(iv.count)) if (isNum(v)) n += v
    points.push({ startS: Math.round((iv.t - lengthS) * 1000) / 1000, tps: n / lengthS, n, lengthS })
  }
  return points
}

/**
 * Time to steady state of a results document: the recorded `summary.steadyState` when there is
 * one, else computed from its intervals (files written before the field existed).
 * @param {any} doc
 * @returns {SteadyState}
 */
export function steadyStateOf (doc) {
  const recorded = doc?.summary?.steadyState
  if (recorded && typeof recorded === 'object' && 'timeS' in recorded) return recorded
  const stepS = doc?.run?.options?.intervalS
  return timeToSteadyState(throughputSeries(doc?.intervals, isNum(stepS) && stepS > 0 ? stepS : inferredStep(doc?.intervals)))
}

/** The median step of `t` when the interval length was not recorded. */
function inferredStep (intervals) {
  const ts = (Array.isArray(intervals) ? intervals : []).map((i) => i?.t).filter(isNum)
  const steps = []
  for (let i = 1; i < ts.length; i++) if (ts[i] > ts[i - 1]) steps.push(ts[i] - ts[i - 1])
  return steps.length ? median(steps) : 1
}
