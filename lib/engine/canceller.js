// Bounds on transactions in flight: the grace after the run stops (k6's gracefulStop), the
// optional per-transaction timeout, and the cancel itself (a CancelRequest, then the socket
// destroyed). Without them a connection that stops answering would hold the run forever.

// ms the server gets to acknowledge a CancelRequest before the socket is destroyed anyway
const CANCEL_WAIT_MS = 1000
// ms a CancelRequest may take when the run is aborted: sockets are destroyed at once regardless
const ABORT_CANCEL_WAIT_MS = 500

export class Canceller {
  /**
   * @param {import('./run.js').Run} run its terminals, clock and events
   * @param {{ graceUs: number, transactionTimeoutUs: number }} settings the run's EngineSettings:
   *   graceUs: how long transactions in flight may take to finish once the run stops;
   *   transactionTimeoutUs: cancel any transaction running longer (0: never)
   */
  constructor (run, { graceUs, transactionTimeoutUs }) {
    this.run = run
    this.graceMs = graceUs / 1000
    this.timeoutUs = transactionTimeoutUs
    this.cancelWaitMs = CANCEL_WAIT_MS
    this.graceTimer = null
    this.sweepTimer = null
    this.closed = false
    /** how many transactions were cancelled, by reason */
    this.cancelled = { grace: 0, abort: 0, timeout: 0 }
    /** @type {Set<Promise<void>>} cancels under way */
    this.pending = new Set()
  }

  /** The run stopped: transactions in flight get the grace, then are cancelled. */
  armGrace () {
    if (this.graceTimer !== null || this.run.aborting || this.closed) return
    this.graceTimer = setTimeout(() => this.cancelAll('grace'), this.graceMs)
    this.graceTimer.unref() // what is in flight holds the process; the timer need not
  }

  /** With --transaction-timeout: look for transactions over it a few times per timeout. */
  startTimeouts () {
    if (this.timeoutUs <= 0) return
    // one sweep over the terminals instead of a timer per transaction; it costs nothing per
    // transaction, and a transaction is cancelled within a tenth of the timeout past it
    const everyMs = Math.min(1000, Math.max(10, this.timeoutUs / 10000))
    this.sweepTimer = setInterval(() => this._sweep(), everyMs)
    this.sweepTimer.unref()
  }

  _sweep () {
    const run = this.run
    const now = run.nowUs()
    const limitUs = this.timeoutUs
    for (const t of run.terminals ?? []) {
      const sinceUs = t.inFlightSinceUs
      if (sinceUs >= 0 && now - sinceUs > limitUs && t.cancelTransaction('timeout', now)) this.cancelled.timeout++
    }
  }

  /**
   * Cancel every transaction in flight (the grace is over, or the run is aborted).
   * @param {'grace'|'abort'} reason
   */
  cancelAll (reason) {
    const run = this.run
    const now = run.nowUs()
    let count = 0
    for (const t of run.terminals ?? []) if (t.cancelTransaction(reason, now)) count++
    this.cancelled[reason] += count
    if (count > 0) run.emit('cancelled', { reason, count, graceS: this.graceMs / 1000 })
  }

  /**
   * Cancel what a connection runs, then destroy its socket; when aborting, destroy it at once.
   * @param {any} conn
   * @param {boolean} now
   */
  cancelConnection (conn, now) {
    if (typeof conn.cancel !== 'function') { conn.close?.().catch(() => {}); return }
    const p = conn.cancel(now ? ABORT_CANCEL_WAIT_MS : this.cancelWaitMs).catch(() => {})
    if (now) conn.destroy?.()
    this.pending.add(p)
    p.then(() => this.pending.delete(p))
  }

  /**
   * Stop the timers; resolves once the cancels under way are done (each is bounded).
   * @param {boolean} [wait] false: do not wait for them (aborting)
   */
  async close (wait = true) {
    this.closed = true
    clearTimeout(this.graceTimer)
    clearInterval(this.sweepTimer)
    if (wait) await Promise.all(this.pending)
  }
}
