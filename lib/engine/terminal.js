// A terminal: one simulated client, a small state machine driven by the run's scheduler.
// It borrows a pooled connection only while a transaction runs.

import { ClientAbortError, classifySqlState } from '../errors.js'

const OK = 0
const ROLLED_BACK = 1
const FAILED = 2

export class Terminal {
  /**
   * @param {import('./run.js').Run} run
   * @param {number} id
   * @param {import('../random/prng.js').Prng} random
   */
  constructor (run, id, random) {
    this.run = run
    this.id = id
    this.transactions = 0
    this.aborted = false
    this._wakeResolve = null
    this._connResolve = null
    this._saved = [0, 0, 0, 0]
    this._retries = 0
    this._failCode = null
    this._completedBeforeAbort = false
    const workload = run.workload
    this.ctx = {
      terminalId: id,
      random,
      state: workload.createTerminalState ? workload.createTerminalState(id, random) : null,
      conn: null,
      nowUs: run.nowUs,
      sleepUs: (us) => this.sleepUntil(run.nowUs() + us),
      log: run.log
    }
  }

  /** Scheduler callback. */
  wake () {
    const resolve = this._wakeResolve
    this._wakeResolve = null
    if (resolve) resolve()
  }

  /** Pool callback: a connection was handed over. */
  onConnection (conn) {
    const resolve = this._connResolve
    this._connResolve = null
    resolve(conn)
  }

  /** @param {number} atUs */
  sleepUntil (atUs) {
    if (this.run.stopping && !this.run.draining) return Promise.resolve()
    return new Promise((resolve) => {
      this._wakeResolve = resolve
      this.run.scheduler.add(atUs, this)
    })
  }

  _acquire () {
    const conn = this.run.pool.tryAcquire()
    if (conn !== null) return conn
    return new Promise((resolve) => {
      this._connResolve = resolve
      this.run.pool.wait(this)
    })
  }

  /** The terminal's life: pace, borrow, run, record, think; until the run stops. */
  async loop () {
    const run = this.run
    const workload = run.workload
    const types = workload.transactions
    const rec = run.recorder
    const ctx = this.ctx
    const nowUs = run.nowUs
    const waitRandom = run.waitRandom
    const limit = run.transactionsPerClient
    const latencyLimitUs = run.latencyLimitUs
    // Stagger the first wake-up of think-time terminals so they do not march in lockstep.
    // A first wait drawn like a think time gives a steady arrival rate from the first second.
    let readyUs = -1
    if (run.paced) {
      const first = types[workload.choose ? 0 : run.chooseType()]
      readyUs = run.startUs + (first.thinkUs ? first.thinkUs.sampleUs(waitRandom) : 0) + waitRandom.double() * (first.keyingUs?.meanUs ?? 0)
      await this.sleepUntil(readyUs)
    }

    while (!run.stopping) {
      if (limit > 0 && this.transactions >= limit) break
      const type = workload.choose ? workload.choose(ctx) : run.chooseType()
      const tt = types[type]
      let intendedUs
      let lagUs = 0
      let keyingUs = 0
      if (run.rateIntervalUs > 0) {
        // Open model: the intended start is the scheduled arrival (coordinated omission corrected).
        let scheduled = run.nextArrivalUs()
        if (scheduled >= run.deadlineUs) break
        if (nowUs() < scheduled) await this.sleepUntil(scheduled)
        if (run.stopping) break
        let now = nowUs()
        while (now - scheduled > latencyLimitUs && latencyLimitUs > 0) { // eslint-disable-line no-unmodified-loop-condition
          // Already hopeless: skip the slot, as pgbench -L does.
          this.transactions++
          if (scheduled >= run.measureStartUs && !run.expired) rec.skipped(type)
          if (limit > 0 && this.transactions >= limit) break
          scheduled = run.nextArrivalUs()
          if (scheduled >= run.deadlineUs) break
          now = nowUs()
        }
        if ((limit > 0 && this.transactions >= limit) || scheduled >= run.deadlineUs) break
        if (now < scheduled) { await this.sleepUntil(scheduled); now = nowUs() }
        intendedUs = scheduled
        lagUs = now - scheduled
      } else if (tt.keyingUs) {
        keyingUs = tt.keyingUs.sampleUs(waitRandom)
        intendedUs = nowUs() + keyingUs
        await this.sleepUntil(intendedUs)
        if (run.stopping) break
        lagUs = nowUs() - intendedUs
      } else if (readyUs >= 0) {
        // Closed model after think time: the intended start is when the terminal became ready.
        intendedUs = readyUs
        lagUs = nowUs() - readyUs
      } else {
        intendedUs = nowUs()
      }
      readyUs = -1

      const queueStartUs = nowUs()
      let conn = this._acquire()
      if (conn instanceof Promise) conn = await conn
      const queueUs = nowUs() - queueStartUs
      if (conn === null) break // the run ended while this terminal waited for a connection
      if (run.aborting) { run.pool.release(conn); break }
      ctx.conn = conn

      const status = await this._runWithRetries(tt, type, conn, intendedUs)
      ctx.conn = null
      run.pool.release(conn)
      this.transactions++
      const endUs = nowUs()
      if (status === -1) {
        if (this._completedBeforeAbort && endUs >= run.measureStartUs) rec.ok(type, endUs - intendedUs, lagUs, queueUs, false)
        break // the terminal aborted
      }
      if (endUs >= run.measureStartUs && !run.aborting) {
        if (status === FAILED) {
          rec.failed(type, this._failCode)
        } else {
          rec.ok(type, endUs - intendedUs, lagUs, queueUs, status === ROLLED_BACK)
        }
        if (this._retries > 0) rec.retriedTimes(type, this._retries)
      }
      if (workload.onTransactionEnd) run.reportTransaction(ctx, tt.name, status === FAILED ? 'failed' : status === ROLLED_BACK ? 'rollback' : 'ok', endUs - intendedUs, lagUs, this._retries + 1, this._failCode, intendedUs, endUs)

      if (tt.thinkUs && !run.stopping) {
        const thinkUs = tt.thinkUs.sampleUs(waitRandom)
        if (endUs >= run.measureStartUs) rec.waits(type, keyingUs, thinkUs)
        readyUs = endUs + thinkUs
        await this.sleepUntil(readyUs)
      } else if (keyingUs > 0 && endUs >= run.measureStartUs) {
        rec.waits(type, keyingUs, 0)
      }
    }
  }

  /**
   * Run one transaction, retrying serialization failures and deadlocks with the same random state.
   * @returns {Promise<number>} OK, ROLLED_BACK, FAILED, or -1 when the terminal aborted
   */
  async _runWithRetries (tt, type, conn, intendedUs) {
    const run = this.run
    const ctx = this.ctx
    ctx.random.getState(this._saved)
    this._retries = 0
    this._failCode = null
    for (;;) {
      try {
        const r = await tt.run(ctx)
        return r === 'rollback' ? ROLLED_BACK : OK
      } catch (err) {
        if (run.aborting) return FAILED
        if (err instanceof ClientAbortError) {
          this.aborted = true
          // pgbench counts a script that ended inside a transaction block before aborting the client
          if (err.transactionCompleted) this._completedBeforeAbort = true
          run.clientAborted(this, err)
          await this._rollbackIfOpen(conn)
          return -1
        }
        const code = typeof err?.code === 'string' ? err.code : 'ERROR'
        const kind = classifySqlState(code)
        await this._rollbackIfOpen(conn)
        const retry = kind === 'retry' && run.canRetry(this._retries + 1, intendedUs)
        if (kind === 'retry' && run.verboseErrors) run.retryableError(this, err, this._retries + 1, retry)
        if (retry) {
          ctx.random.setState(this._saved)
          this._retries++
          continue
        }
        this._failCode = code
        if (kind === 'other') run.otherError(this, err)
        return FAILED
      }
    }
  }

  async _rollbackIfOpen (conn) {
    if (conn.broken || conn.closed || conn.transactionStatus === 'I') return
    try { await conn.simpleQuery('ROLLBACK') } catch { /* the connection is replaced on release */ }
  }
}
