// The stages of a run as windows of its measured window (--stages, --clients-stages): each stage
// holds whole intervals, so its histograms are the sums of its intervals' and its counters the
// differences of the run's counters at its bounds; the stages add up to the run exactly.
// docs/results-format.md, "stages[]", is the contract; the typedefs below are its shape.

import { addInto, createHistogram, encodeHistogram, latencySummaryMs } from './histogram.js'
import { ratePerS, latencyFiguresMs } from './figures.js'
import { round3 } from '../format/round.js'

/**
 * A stage's target for the whole run (every thread and shard together).
 * @typedef {object} StageTarget
 * @property {number} from arrivals per second (rate) or active terminals (clients) at the start
 * @property {number} to the same at the end
 */

/**
 * One entry of the results document's `stages[]`.
 * @typedef {object} StageEntry
 * @property {number} index 0-based (people's stage N is index N - 1)
 * @property {'rate'|'clients'} kind --stages (open model) or --clients-stages (closed model)
 * @property {number} startS planned start, seconds on the measured clock
 * @property {number} endS planned end
 * @property {number} lengthS the stage's measured window (the last stage: up to the run's end)
 * @property {StageTarget} target
 * @property {boolean} ramp linear from target.from to target.to; false: a step to target.to
 * @property {number|null} offeredTps rate: the mean target over the measured window; clients: null
 * @property {number|null} achievedTps summary.transactions / lengthS
 * @property {number} dropped arrivals refused because the queue was full (--max-queue)
 * @property {StageSummary} summary
 * @property {Record<string, StageTypeEntry>} transactions
 */

/**
 * A stage's totals: the run's `summary` fields over the stage.
 * @typedef {object} StageSummary
 * @property {number} transactions @property {number} failed @property {number} skipped
 * @property {number} retried @property {number} retries @property {number} late
 * @property {number} rollbacks @property {number} unfinished @property {number} outcomeUnknown
 * @property {number} dropped
 * @property {number} arrivals rate: the arrivals that came in the stage (served, still waiting
 *   at the end, or dropped); 0 for clients stages
 * @property {number|null} tps
 * @property {object} latencyMs { mean, stddev, min, p50, p90, p95, p99, p999, max }
 * @property {object} lagMs the arrival's wait for a terminal (schedule lag), same figures
 * @property {object} queueMs the wait for a pooled connection, same figures
 * @property {Record<string, number>} errors by SQLSTATE
 * @property {string} lagHistogram encoded, microseconds
 * @property {string} queueHistogram encoded, microseconds
 */

/**
 * One transaction type over a stage: the run's `transactions.<type>` fields.
 * @typedef {object} StageTypeEntry
 * @property {number} count @property {number} failed @property {number} skipped
 * @property {number} rollbacks @property {number} retries @property {number} retried
 * @property {number} late @property {number} unfinished @property {number} outcomeUnknown
 * @property {number|null} tps
 * @property {object} latencyMs
 * @property {Record<string, number>} errors
 * @property {string} histogram encoded latency, microseconds
 */

/**
 * A stage as the engine runs it (lib/plan/stage-profile.js makes them from the plan).
 * @typedef {object} StageBounds
 * @property {number} startUs from the measured window's opening
 * @property {number} endUs
 * @property {number} from whole-run target at the start
 * @property {number} to whole-run target at the end
 * @property {boolean} ramp
 */

const COUNTERS = ['count', 'failed', 'skipped', 'rollbacks', 'retries', 'retried', 'late', 'unfinished', 'outcomeUnknown', 'sumUs', 'sumSqUs']

/** Counters of one type at a stage's start, to subtract at its end. */
function snapshot (t) {
  const s = {}
  for (const k of COUNTERS) s[k] = t[k]
  s.errors = new Map(t.errors)
  return s
}

/** The stages of one recorder: the open one accumulates each interval as it closes. */
export class StageWindows {
  /**
   * @param {'rate'|'clients'} kind
   * @param {StageBounds[]} stages
   */
  constructor (kind, stages) {
    this.kind = kind
    this.stages = stages
    /** @type {StageEntry[]} the stages closed */
    this.entries = []
    this._open = null
  }

  /** The stage open now, or -1 (before the measured window, or every stage closed). */
  get current () { return this._open === null ? -1 : this.entries.length }

  /**
   * Open the next stage: its counters start from the recorder's now.
   * @param {import('./recorder.js').Recorder} rec
   */
  begin (rec) {
    this._open = {
      types: rec.types.map((t) => ({ hist: createHistogram(), start: snapshot(t) })),
      lag: createHistogram(),
      queue: createHistogram(),
      droppedStart: rec.droppedCount,
      arrivalsStart: rec.arrivalsCount
    }
  }

  /**
   * An interval closed (Recorder.closeInterval, before it resets the interval's histograms).
   * @param {import('./recorder.js').Recorder} rec
   */
  addInterval (rec) {
    const o = this._open
    if (o === null) return
    for (let i = 0; i < rec.types.length; i++) {
      const h = rec.types[i].intervalHist
      if (h.totalCount > 0) addInto(o.types[i].hist, h)
    }
    if (rec.intervalLag.totalCount > 0) addInto(o.lag, rec.intervalLag)
    if (rec.intervalQueue.totalCount > 0) addInto(o.queue, rec.intervalQueue)
  }

  /**
   * Close the open stage. `final`: the run ended; what the open interval holds counts too.
   * @param {import('./recorder.js').Recorder} rec
   * @param {number} measuredS the run's measured window so far (its end for the last stage)
   * @param {boolean} final
   * @returns {StageEntry}
   */
  close (rec, measuredS, final) {
    const o = this._open
    this._open = null
    if (final) {
      // the interval still open (the run's last, when too short to close) belongs to the last stage
      rec.settleOpen()
      this._open = o
      this.addInterval(rec)
      this._open = null
    }
    const index = this.entries.length
    const b = this.stages[index]
    const startS = b.startUs / 1e6
    const endS = b.endUs / 1e6
    const lengthS = round3(Math.max(0, (final ? measuredS : Math.min(endS, measuredS)) - startS))
    const body = stageTotals(rec, o, lengthS)
    const entry = {
      index,
      kind: this.kind,
      startS: round3(startS),
      endS: round3(endS),
      lengthS,
      target: { from: b.from, to: b.to },
      ramp: b.ramp,
      offeredTps: this.kind === 'rate' ? round3(meanTarget(b, Math.min(endS, startS + lengthS) - startS)) : null,
      achievedTps: body.summary.tps,
      dropped: body.summary.dropped,
      ...body
    }
    this.entries.push(entry)
    return entry
  }
}

/**
 * A stage's mean target over its first `seconds`: the integral of a linear ramp, divided.
 * @param {StageBounds} b @param {number} seconds
 */
export function meanTarget (b, seconds) {
  const lengthS = (b.endUs - b.startUs) / 1e6
  if (!(seconds > 0) || !(lengthS > 0)) return b.from
  const reached = b.ramp ? b.from + (b.to - b.from) * Math.min(1, seconds / lengthS) : b.to
  return b.ramp ? (b.from + reached) / 2 : b.to
}

/** The stage's summary and transactions from its histograms and counter differences. */
function stageTotals (rec, o, lengthS) {
  const transactions = {}
  const errors = {}
  const all = createHistogram()
  const sum = { count: 0, failed: 0, skipped: 0, retried: 0, retries: 0, late: 0, rollbacks: 0, unfinished: 0, outcomeUnknown: 0, sumUs: 0, sumSqUs: 0 }
  rec.types.forEach((t, i) => {
    const { hist, start } = o.types[i]
    const d = {}
    for (const k of COUNTERS) d[k] = t[k] - start[k]
    const typeErrors = {}
    for (const [code, n] of t.errors) {
      const v = n - (start.errors.get(code) ?? 0)
      if (v > 0) { typeErrors[code] = v; errors[code] = (errors[code] ?? 0) + v }
    }
    transactions[t.name] = {
      count: d.count,
      failed: d.failed,
      skipped: d.skipped,
      rollbacks: d.rollbacks,
      retries: d.retries,
      retried: d.retried,
      late: d.late,
      unfinished: d.unfinished,
      outcomeUnknown: d.outcomeUnknown,
      tps: ratePerS(d.count, lengthS),
      latencyMs: latencyFiguresMs(hist, d.sumUs, d.sumSqUs, d.count),
      errors: typeErrors,
      histogram: encodeHistogram(hist)
    }
    if (hist.totalCount > 0) addInto(all, hist)
    for (const k of Object.keys(sum)) sum[k] += d[k]
  })
  const dropped = rec.droppedCount - o.droppedStart
  const arrivals = rec.arrivalsCount - o.arrivalsStart
  return {
    summary: {
      transactions: sum.count,
      failed: sum.failed,
      skipped: sum.skipped,
      retried: sum.retried,
      retries: sum.retries,
      late: sum.late,
      rollbacks: sum.rollbacks,
      unfinished: sum.unfinished,
      outcomeUnknown: sum.outcomeUnknown,
      dropped,
      arrivals,
      tps: ratePerS(sum.count, lengthS),
      latencyMs: latencyFiguresMs(all, sum.sumUs, sum.sumSqUs, sum.count),
      lagMs: latencySummaryMs(o.lag),
      queueMs: latencySummaryMs(o.queue),
      errors,
      lagHistogram: encodeHistogram(o.lag),
      queueHistogram: encodeHistogram(o.queue)
    },
    transactions
  }
}

/**
 * The run handle's 'stage' payload for stage `index` of a profile.
 * @param {import('../plan/profile.js').StageProfile} profile
 * @param {number} index
 * @returns {import('../engine/run-handle.js').StageEvent}
 */
export function stageEvent (profile, index) {
  const s = profile.stages[index]
  return { index, count: profile.stages.length, kind: profile.kind, startS: round3(s.startUs / 1e6), endS: round3(s.endUs / 1e6), target: { from: s.from, to: s.to }, ramp: s.ramp }
}

/**
 * The stage that interval `index` (0-based, of `intervalUs` each) belongs to: the last stage for
 * anything past the profile's end (the grace), null without a profile.
 * @param {import('../plan/profile.js').StageProfile|null} profile
 * @param {number} index @param {number} intervalUs
 * @returns {number|null}
 */
export function stageOfInterval (profile, index, intervalUs) {
  if (!profile) return null
  const startUs = index * intervalUs
  const stages = profile.stages
  for (let i = 0; i < stages.length - 1; i++) if (startUs < stages[i].endUs - intervalUs / 2) return i
  return stages.length - 1
}

/**
 * Whether interval `index` is the last one of a stage that another follows.
 * @param {import('../plan/profile.js').StageProfile|null} profile
 * @param {number} index @param {number} intervalUs
 * @returns {number} the stage that begins after it, or -1
 */
export function stageAfterInterval (profile, index, intervalUs) {
  if (!profile) return -1
  const endUs = (index + 1) * intervalUs
  const stages = profile.stages
  for (let i = 0; i < stages.length - 1; i++) if (Math.abs(stages[i].endUs - endUs) < intervalUs / 2) return i + 1
  return -1
}
