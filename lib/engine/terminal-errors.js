// A terminal's rarely-run paths, apart from its per-transaction cycle (terminal.js): a try that
// failed (retried, rolled back, failed or the client aborted) and a transaction cancelled while it
// ran. They work on the terminal through its named members (typeIndex, intendedUs, stageIndex,
// retries, savedRandomState, failCode, completedBeforeAbort, cancelled; endTransaction,
// tryTransaction, finishTerminal, crash).

import { ClientAbortError, classifySqlState } from '../errors.js'
import { PH_RUNNING } from './terminal-phases.js'
import { NO_STAGE } from '../metrics/stage-windows.js'

/** How a transaction ended, as the terminal records it. */
export const OK = 0
export const ROLLED_BACK = 1
export const FAILED = 2
export const UNKNOWN = 3 // the connection was lost after COMMIT was sent, before any reply
export const CANCELLED = 4 // recorded when it was cancelled (cancelRunning): nothing more to record

/**
 * A try failed: retried within --max-tries, else failed; the client aborted; or outcome unknown.
 * @param {import('./terminal.js').Terminal} t
 * @param {any} err
 */
export function transactionFailed (t, err) {
  const c = t.context
  if (c.aborting) return t.endTransaction(FAILED)
  // Neither committed nor failed: only the server knows (the connection is gone, no rollback).
  if (err?.outcomeUnknown === true) return t.endTransaction(UNKNOWN)
  if (err instanceof ClientAbortError) {
    // pgbench counts a script that ended inside a transaction block before aborting the client
    if (err.transactionCompleted) t.completedBeforeAbort = true
    c.events.clientAborted(t, err)
    return afterRollback(t, () => t.endTransaction(-1))
  }
  afterRollback(t, () => retryOrFail(t, err))
}

// After the rollback: within --max-tries (and the latency limit and duration) try again.
function retryOrFail (t, err) {
  const c = t.context
  if (c.aborting) return t.endTransaction(FAILED)
  const code = typeof err?.code === 'string' ? err.code : 'ERROR'
  const kind = classifySqlState(code)
  const retry = kind === 'retry' && c.canRetry(t.retries + 1, t.intendedUs)
  if (kind === 'retry' && c.verboseErrors) c.events.retryableError(t, err, t.retries + 1, retry)
  if (retry) {
    t.random.setState(t.savedRandomState)
    t.retries++
    return t.tryTransaction(c.types[t.typeIndex])
  }
  t.failCode = code
  if (kind === 'other') c.events.otherError(t, err)
  t.endTransaction(FAILED)
}

// Roll back a transaction an error left open, then go on (errors only: rare, so closures).
function afterRollback (t, next) {
  const conn = t.conn
  const then = () => {
    try {
      if (t.cancelled) t.cancelledEnded() // cancelled meanwhile: recorded already
      else next()
    } catch (bug) { t.crash(bug) }
  }
  if (conn.broken || conn.closed || conn.transactionStatus === 'I') return then()
  conn.simpleQuery('ROLLBACK').then(then, then) // a failed rollback: the pool replaces the connection
}

/**
 * Cancel the transaction running (grace over, second Ctrl-C, --transaction-timeout) and record
 * it now: outcome unknown if a commit is in flight, else unfinished (with the time it had
 * waited) or, for a timeout, failed. Its connection gets a cancel request and is destroyed.
 * After a timeout the terminal goes on once the try ends (the socket's loss ends it).
 * @param {import('./terminal.js').Terminal} t
 * @param {'grace'|'abort'|'timeout'} reason
 * @param {number} nowUs
 * @returns {boolean} whether a transaction was running (and is now cancelled)
 */
export function cancelRunning (t, reason, nowUs) {
  if (t.phase !== PH_RUNNING || t.cancelled) return false
  const c = t.context
  const conn = t.conn
  const type = t.typeIndex
  t.cancelled = true
  const stage = t.stageIndex
  if (stage === NO_STAGE ? nowUs >= c.measureStartUs : stage >= 0) {
    const rec = c.recorder
    if (conn?.commitInFlight === true) rec.outcomeUnknown(type, stage)
    else if (reason === 'timeout') rec.failed(type, 'TRANSACTION_TIMEOUT', stage)
    else rec.unfinished(type, nowUs - t.intendedUs, stage)
  }
  if (conn !== null) c.events.cancelConnection(conn, reason === 'abort')
  if (reason === 'timeout') return true
  t.conn = null
  t.finishTerminal()
  return true
}
