// What a terminal's ended transaction leaves in the run's figures: its outcome in the recorder
// (when it counts: in the measured window, or in its stage), the slowest kept (--explain-slowest),
// and the workload's per-transaction report (pgbench's --log). Called once per transaction.

import { OK, ROLLED_BACK, FAILED, UNKNOWN, CANCELLED } from './terminal-errors.js'
import { NO_STAGE } from '../metrics/stage-windows.js'

/**
 * Record the transaction that just ended on terminal `t`.
 * @param {import('./terminal.js').Terminal} t
 * @param {number} status OK, ROLLED_BACK, FAILED, UNKNOWN, CANCELLED, or -1 when the terminal aborted
 * @param {number} latencyUs @param {number} endUs @param {number} lagUs @param {number} queueUs
 * @param {number} activityBase its connection's activity slot, -1: none @param {number} activitySeq
 * @returns {boolean} false when the terminal aborted (it ends; nothing more is recorded)
 */
// positional arguments: an object per transaction would be garbage on the hot path
export function recordEnded (t, status, latencyUs, endUs, lagUs, queueUs, activityBase, activitySeq) {
  const c = t.context
  const type = t.typeIndex
  const rec = c.recorder
  const stage = t.stageIndex
  // in a staged run a transaction counts when it arrived in the measured window, in its stage
  const counted = stage === NO_STAGE ? endUs >= c.measureStartUs : stage >= 0
  if (status === -1) {
    if (t.completedBeforeAbort && counted) rec.ok(type, latencyUs, lagUs, queueUs, false, stage)
    return false
  }
  if (counted && !c.aborting && status !== CANCELLED) {
    if (status === FAILED) rec.failed(type, t.failCode, stage)
    else if (status === UNKNOWN) rec.outcomeUnknown(type, stage)
    else {
      rec.ok(type, latencyUs, lagUs, queueUs, status === ROLLED_BACK, stage)
      if (c.slowest !== null && latencyUs > c.slowest.floorUs[type]) c.slowest.offer(type, latencyUs, t.state, activityBase, activitySeq, t.savedRandomState)
    }
    if (t.retries > 0) rec.retriedTimes(type, t.retries, stage)
  }
  if (c.hasTransactionEnd && status !== CANCELLED) {
    const outcome = status === OK ? 'ok' : status === ROLLED_BACK ? 'rollback' : 'failed'
    c.reportTransaction(t, c.types[type].name, outcome, latencyUs, lagUs, t.retries + 1, status === UNKNOWN ? 'CONNECTION_LOST' : t.failCode, t.intendedUs, endUs)
  }
  return true
}
