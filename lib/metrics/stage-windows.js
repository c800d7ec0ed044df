// The stages of a run as windows of its measured window (--stages, --clients-stages): each stage
// holds the transactions that arrived in it, whenever they ended, so that its arrivals and their
// outcomes reconcile exactly, and every transaction of the run is in one stage: the stages add
// up to the run exactly.
// docs/results-format.md, "stages[]", is the contract; the typedefs below are its shape.

import { StageTally } from './stage-tally.js'
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
 * @property {'arrival'} countedBy each transaction counts in the stage it arrived in
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

/**
 * The 'stage' event: a stage of the load profile begins (stage 0 as the measured window opens,
 * each next one as the interval at its start closes), on the run's measured clock; with worker
 * threads, once the merged interval at its start closes. The stage's figures are in the results
 * document's `stages[index]` when the run ends.
 * @typedef {object} StageEvent
 * @property {number} index 0-based
 * @property {number} count the stages of the profile
 * @property {'rate'|'clients'} kind
 * @property {number} startS @property {number} endS planned bounds, seconds on the measured clock
 * @property {StageTarget} target whole-run target
 * @property {boolean} ramp
 */

/**
 * The engine's profile of a plan (whole-run values; each part takes its share where it runs),
 * made by lib/plan/profile.js's stageProfile.
 * @typedef {object} StageProfile
 * @property {'rate'|'clients'} kind
 * @property {StageBounds[]} stages in order, back to back from 0
 * @property {number} before the target before the first stage (the warm-up's): --rate for rate
 *   stages, the first stage's starting number for clients stages
 * @property {number} maxQueue arrivals that may wait for a terminal, the whole run's (rate stages; 0 for clients)
 */

/** The no-stage mark of a transaction in a run without stages. */
export const NO_STAGE = -2

/**
 * The stages of one recorder. Each transaction counts in the stage it arrived in (its intended
 * start: the scheduled arrival of a rate stage), as its latency is measured from it, so that in
 * each stage every arrival has its outcome; the stage open (begun, not yet closed) only says
 * where the clock is, for the stage bounds the run moves (nextStage).
 */
export class StageWindows {
  /**
   * @param {'rate'|'clients'} kind
   * @param {StageBounds[]} stages the run's own list (nextStage changes it)
   * @param {string[]} typeNames
   */
  constructor (kind, stages, typeNames) {
    this.kind = kind
    this.stages = stages
    this.typeNames = typeNames
    /** @type {StageEntry[]} every stage reached, once the run has ended */
    this.entries = []
    /** @type {StageTally[]} by stage index, made as stages are reached */
    this.tallies = []
    /** @type {number[]} the measured length of each stage closed, seconds */
    this.lengthsS = []
    this._open = -1
    this._hint = 0
  }

  /** The stage open now, or -1 (before the measured window, or every stage closed). */
  get current () { return this._open }

  /**
   * The stage a transaction that arrived `relUs` after the measured window opened belongs to:
   * -1 before it (the warm-up), the last stage after the last bound (the grace).
   * @param {number} relUs
   * @returns {number}
   */
  stageAt (relUs) {
    if (relUs < 0) return -1
    const s = this.stages
    let i = this._hint < s.length ? this._hint : s.length - 1
    while (i > 0 && relUs < s[i].startUs) i--
    while (i < s.length - 1 && relUs >= s[i].endUs) i++
    this._hint = i
    return i
  }

  /**
   * The tally of stage `i` (made on its first outcome or arrival).
   * @param {number} i
   * @returns {StageTally}
   */
  tally (i) {
    while (this.tallies.length <= i) this.tallies.push(new StageTally(this.typeNames.length))
    return this.tallies[i]
  }

  /** Open the next stage. */
  begin () {
    this._open = this.lengthsS.length
    this.tally(this._open)
  }

  /**
   * Close the open stage; `final`: the run ended, and every stage reached gets its entry.
   * @param {number} measuredS the run's measured window so far (its end for the last stage)
   * @param {boolean} final
   * @returns {StageEntry|null} the entry of every stage, once final
   */
  close (measuredS, final) {
    const index = this._open
    this._open = -1
    if (index < 0) return null
    const b = this.stages[index]
    const startS = b.startUs / 1e6
    const endS = b.endUs / 1e6
    this.lengthsS.push(round3(Math.max(0, (final ? measuredS : Math.min(endS, measuredS)) - startS)))
    if (!final) return null
    for (let i = 0; i < this.lengthsS.length; i++) this.entries.push(this._entry(i))
    // outcomes of transactions that arrived in a stage never reached: none (the last stage holds the rest)
    return this.entries[this.entries.length - 1]
  }

  /** @param {number} index @returns {StageEntry} */
  _entry (index) {
    const b = this.stages[index]
    const startS = b.startUs / 1e6
    const endS = b.endUs / 1e6
    const lengthS = this.lengthsS[index]
    const body = this.tally(index).entryBody(this.typeNames, lengthS)
    return {
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
      countedBy: 'arrival',
      ...body
    }
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

/**
 * The run handle's 'stage' payload for stage `index` of a profile.
 * @param {StageProfile} profile
 * @param {number} index
 * @returns {StageEvent}
 */
export function stageEvent (profile, index) {
  const s = profile.stages[index]
  return { index, count: profile.stages.length, kind: profile.kind, startS: round3(s.startUs / 1e6), endS: round3(s.endUs / 1e6), target: { from: s.from, to: s.to }, ramp: s.ramp }
}

/**
 * The stage that interval `index` (0-based, of `intervalUs` each) belongs to: the last stage for
 * anything past the profile's end (the grace), null without a profile.
 * @param {StageProfile|null} profile
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
 * @param {StageProfile|null} profile
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
