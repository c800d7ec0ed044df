// One step of `pgload capacity`: what was offered and achieved while it was measured, whether
// it held (every --until threshold passed, and the achieved rate kept up with the offered one
// within the margin), and whether the driver itself was the limit.

import { evaluateThresholds } from '../compare/thresholds/evaluate.js'
import { DRIVER_SATURATED } from '../output/summary.js'
import { classifySqlState } from '../errors.js'

/**
 * @typedef {object} DriverShares the driver thread over the step's measured part
 * @property {number|null} onCpuShare
 * @property {number|null} cpuWaitShare
 * @property {number|null} eventLoopUtilization
 */

/**
 * @typedef {object} FailedKind
 * @property {string} code the SQLSTATE (or CONNECTION_LOST) most of a step's failures had
 * @property {number} count how many had it
 * @property {'connection'|'retry'|'other'} kind lost connections, serialization failures and
 *   deadlocks, or any other error
 */

/**
 * @typedef {object} StepRecord
 * @property {number} index 1-based
 * @property {number} stage the run's stage it was (0-based index into the results' stages[])
 * @property {'geometric'|'bisection'} phase
 * @property {number} offeredRate arrivals per second offered
 * @property {number} startS when the rate changed, s since the measured window opened
 * @property {number} fromS start of the measured part (after the settle)
 * @property {number} toS its end
 * @property {number} achievedRate transactions completed per second in the measured part
 * @property {number} transactions
 * @property {number} failed
 * @property {FailedKind|null} failedMost the commonest cause of the failures, null without any
 * @property {number} dropped arrivals dropped in the measured part (--max-queue were already waiting)
 * @property {number|null} scheduled the arrivals that came in the measured part (served, waiting or dropped)
 * @property {number} behind 1 - completed / scheduled (negative when ahead)
 * @property {Record<string, number|null>} latencyMs p50, p90, p99, max
 * @property {number|null} lagP99Ms
 * @property {object[]} thresholds the --until thresholds evaluated on this step
 * @property {boolean} held
 * @property {string[]} why the reasons it failed (empty when it held)
 * @property {DriverShares & { saturated: boolean }} driver
 */

/**
 * Judge one step from its measured part.
 * @param {object} view the step's measured part as a results-like document (windowDocument)
 * @param {{ index: number, stage?: number, phase: 'geometric'|'bisection', offeredRate: number, startS: number, fromS: number, toS: number,
 *   dropped: number, scheduled?: number|null, driver: DriverShares, errors?: Record<string, number> }} step scheduled: the arrivals
 *   that came in the measured part (else the offered rate's); errors: its failures by SQLSTATE
 * @param {{ until: import('../compare/thresholds/parser.js').Threshold[], behindMargin: number }} rules
 * @returns {StepRecord}
 */
export function judgeStep (view, step, { until, behindMargin }) {
  const s = view.summary
  const lengthS = step.toS - step.fromS
  const achievedRate = lengthS > 0 ? s.transactions / lengthS : 0
  // against the arrivals actually scheduled in the step: a short step's Poisson count strays
  // from the nominal rate by more than the margin
  const behind = step.scheduled > 0 ? 1 - s.transactions / step.scheduled : 1 - achievedRate / step.offeredRate
  const thresholds = evaluateThresholds(view, until)
  const why = thresholds.filter(t => !t.pass).map(t => `${t.expr}: ${t.reason}`)
  if (behind > behindMargin) why.push(`fell behind by ${percent(behind)} (more than ${percent(behindMargin)})`)
  const failedMost = commonestFailure(step.errors ?? s.errors)
  // failures come first: a step with lost connections failed for them, not for its latency
  if (why.length > 0 && s.failed > 0) why.unshift(failedWords(s.failed, failedMost))
  const saturated = driverSaturated(step.driver)
  return {
    index: step.index,
    stage: step.stage ?? step.index - 1,
    phase: step.phase,
    offeredRate: step.offeredRate,
    startS: micro(step.startS),
    fromS: micro(step.fromS),
    toS: micro(step.toS),
    achievedRate: Math.round(achievedRate * 100) / 100,
    transactions: s.transactions,
    failed: s.failed,
    failedMost,
    dropped: step.dropped,
    scheduled: step.scheduled === null || step.scheduled === undefined ? null : Math.round(step.scheduled),
    behind: Math.round(behind * 10000) / 10000,
    latencyMs: { p50: s.latencyMs.p50, p90: s.latencyMs.p90, p99: s.latencyMs.p99, max: s.latencyMs.max },
    lagP99Ms: s.lagMs?.p99 ?? null,
    thresholds,
    held: why.length === 0,
    why,
    driver: { ...step.driver, saturated }
  }
}

/**
 * The summary's rule for a saturated driver, over one step: its thread runnable (on a CPU or
 * waiting for one) nearly all the time, or its event loop nearly always busy.
 * @param {DriverShares} d
 */
export function driverSaturated (d) {
  if (!d) return false
  const runnable = typeof d.onCpuShare === 'number' && typeof d.cpuWaitShare === 'number' ? d.onCpuShare + d.cpuWaitShare : null
  return (d.eventLoopUtilization ?? 0) > DRIVER_SATURATED || (runnable !== null && runnable >= DRIVER_SATURATED)
}

/**
 * The SQLSTATE most failures of a step had.
 * @param {Record<string, number>|undefined} errors by SQLSTATE
 * @returns {FailedKind|null}
 */
export function commonestFailure (errors) {
  let most = null
  for (const [code, count] of Object.entries(errors ?? {})) {
    if (count > 0 && (most === null || count > most.count)) most = { code, count, kind: classifySqlState(code) }
  }
  return most
}

const KIND_WORDS = { connection: 'lost connections', retry: 'serialization failures and deadlocks', other: 'errors' }

/**
 * `12 transactions failed (mostly lost connections: 57P01)`.
 * @param {number} failed
 * @param {FailedKind|null} most
 */
export function failedWords (failed, most) {
  const n = `${failed.toLocaleString('en-US')} transaction${failed === 1 ? '' : 's'} failed`
  if (!most) return n
  return `${n} (${most.count === failed ? '' : 'mostly '}${KIND_WORDS[most.kind]}: ${most.code})`
}

// seconds in whole microseconds: sums of interval and step lengths carry float noise
const micro = (s) => Math.round(s * 1e6) / 1e6

/** @param {number} share */
export function percent (share) {
  const p = share * 100
  return `${Math.abs(p) < 10 ? p.toFixed(1) : Math.round(p)} %`
}
