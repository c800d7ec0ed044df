// A failover as the client saw it, from the run's own events and interval series: when the first
// error came, when a connection could be opened again, the throughput before, and when it was back
// to most of that. Pure: the output (failover-output.js) gathers the inputs.

import { round3 } from '../format/round.js'

/** Share of the throughput before the failover that counts as recovered. */
export const RECOVERED_SHARE = 0.95
// s: the run's events reach the output a moment after they happen (from worker threads later
// still): an interval that closed this shortly before the first error was told of may hold it
const EVENT_LAG_S = 0.25

/**
 * @typedef {object} FailoverTimeline
 * @property {number} firstErrorS the first failure or refused reconnect, seconds into the measured window
 * @property {number|null} reconnectedS the first connection re-opened after it (null: none)
 * @property {number|null} reconnectMs how long re-opening had failed before that
 * @property {number|null} tpsBefore mean throughput of the whole intervals before the first error
 * @property {number|null} recoveredS end of the first interval after the first error back to 95 % of tpsBefore
 * @property {number|null} recoveryMs from the first error to recoveredS
 * @property {number|null} noCommitsS time in intervals without a commit from the first error on (interval resolution)
 * @property {{ before: number, during: number, after: number }} failed failed transactions before the
 *   first error's interval, from it to the recovery, and after (by interval)
 */

/**
 * @param {{ firstErrorS: number|null, reconnects: { atS: number, failedForMs: number }[],
 *   intervals: { t: number, lengthS: number, tps: number, failed: number }[] }} seen
 * @returns {FailoverTimeline|null} null when nothing failed
 */
export function failoverTimeline ({ firstErrorS, reconnects, intervals }) {
  if (firstErrorS === null || firstErrorS === undefined) return null
  const back = reconnects.find((r) => r.atS >= firstErrorS) ?? null
  const before = intervals.filter((i) => i.t <= firstErrorS - EVENT_LAG_S)
  const tpsBefore = before.length ? before.reduce((n, i) => n + i.tps * i.lengthS, 0) / before.reduce((n, i) => n + i.lengthS, 0) : null
  const after = intervals.filter((i) => i.t - i.lengthS >= firstErrorS)
  const recovered = tpsBefore === null ? null : after.find((i) => i.tps >= RECOVERED_SHARE * tpsBefore) ?? null
  const recoveredS = recovered ? recovered.t : null
  const failed = { before: 0, during: 0, after: 0 }
  for (const i of intervals) {
    const phase = i.t <= firstErrorS - EVENT_LAG_S ? 'before' : recoveredS === null || i.t <= recoveredS ? 'during' : 'after'
    failed[phase] += i.failed
  }
  const noCommitsS = intervals.filter((i) => i.t > firstErrorS && i.tps === 0).reduce((n, i) => n + i.lengthS, 0)
  return {
    firstErrorS: round3(firstErrorS),
    reconnectedS: back ? round3(back.atS) : null,
    reconnectMs: back ? Math.round(back.failedForMs) : null,
    tpsBefore: tpsBefore === null ? null : round3(tpsBefore),
    recoveredS,
    recoveryMs: recoveredS === null ? null : Math.round((recoveredS - firstErrorS) * 1000),
    noCommitsS: round3(noCommitsS),
    failed
  }
}
