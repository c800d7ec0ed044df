// A terminal: one simulated client, a small state machine driven by the run's scheduler.
// It borrows a pooled connection only while a transaction runs.

import { PH_IDLE, PH_FIRST, PH_ARRIVAL, PH_KEYING, PH_THINK, PH_QUEUED, PH_RUNNING, PH_DONE, PH_PAUSED, PH_PARKED } from './terminal-phases.js'
import { NO_STAGE } from '../metrics/stage-windows.js'
import { OK, ROLLED_BACK, CANCELLED, transactionFailed, cancelRunning } from './terminal-errors.js'
import { recordEnded } from './transaction-record.js'
import { STATEMENT } from './activity-slots.js'

export class Terminal {
  /**
   * @param {import('./terminal-context.js').TerminalContext} context what the terminal sees of its run
   * @param {number} id
   * @param {import('../random/prng.js').Prng} random
   */
  constructor (context, id, random) {
    // The terminal is its own transaction context (docs/architecture.md, "ctx"): one object
    // per terminal instead of two keeps 100,000 of them small.
    this.context = context
    this.terminalId = id
    this.random = random
    // where this terminal draws its type choice and its waits: the run-wide generators (one
    // event loop: pgbench's order; chooseRandom null), or its own (worker threads: the same
    // whatever their number)
    const own = context.terminalStreams?.(id)
    this.chooseRandom = own ? own.choose : null
    this.waitRandom = own ? own.wait : context.waitRandom
    this.state = null
    this.conn = null
    this.log = context.log
    this.transactions = 0
    this.phase = PH_IDLE
    // the transaction in progress
    this.typeIndex = 0
    this.intendedUs = 0
    this._scheduledUs = 0
    // --stages, --clients-stages: the stage the transaction arrived in (-1: before the measured
    // window), which its outcome counts in; NO_STAGE in a run without stages
    this.stageIndex = NO_STAGE
    this._readyUs = -1
    this._lagUs = 0
    this._keyingUs = 0
    this._queueStartUs = 0
    this._queueUs = 0
    this.savedRandomState = [0, 0, 0, 0]
    this.retries = 0
    this.failCode = null
    this.completedBeforeAbort = false
    this._beganUs = 0 // when the transaction got its connection (--transaction-timeout)
    this.cancelled = false // cancelled and recorded; the try's own end is still to come
    // the connection's activity slot while a transaction runs (lib/engine/activity-slots.js), else -1
    this._activityBase = -1
    this._sleepResolve = null
    // callbacks for the workload, made on first use
    this._onTransactionEnd = null
    this._onRunValue = null
    this._onRunError = null
    this.state = context.createState(id, random)
  }

  get id () { return this.terminalId }

  /**
   * The workload says which of its statements of the running type starts now (an index it
   * chooses: a script's command number), for the wait sampler. Plain stores, no allocation.
   * @param {number} index
   */
  statement (index) {
    const base = this._activityBase
    if (base >= 0) this.context.activity.ints[base + STATEMENT] = index
  }

  /** When the transaction in flight got its connection (monotonic us), or -1 when none runs. */
  get inFlightSinceUs () { return this.phase === PH_RUNNING && !this.cancelled ? this._beganUs : -1 }

  /** @returns {number} monotonic microseconds */
  nowUs () { return this.context.nowUs() }

  /**
   * Sleep inside a transaction (pgbench's \sleep); counts in the latency.
   * @param {number} us
   * @returns {Promise<void>}
   */
  sleepUs (us) {
    const c = this.context
    if (c.stopping) return Promise.resolve() // the scheduler is stopped: cut it short
    return new Promise((resolve) => {
      this._sleepResolve = resolve
      c.scheduler.add(c.nowUs() + us, this)
    })
  }

  /**
   * Begin: paced terminals first wait a think-time-like delay so they do not march in lockstep.
   * Never throws: a bug stops the run (internalError) and finishes the terminal.
   */
  start () {
    try {
      const c = this.context
      if (c.rampStepUs > 0) {
        // --ramp: an even start over the ramp by terminal number, then the usual cycle
        this._readyUs = c.startUs + this.terminalId * c.rampStepUs
        return this._sleep(PH_FIRST, this._readyUs)
      }
      if (!c.paced) return this._next()
      // relative to this terminal's own start: creating 100,000 of them takes a while
      this._readyUs = c.nowUs() + c.firstWaitUs(this)
      this._sleep(PH_FIRST, this._readyUs)
    } catch (err) {
      this.crash(err)
    }
  }

  /** Scheduler callback (also called for every terminal when the run stops). */
  wake () {
    try {
      switch (this.phase) {
        case PH_RUNNING: {
          const resolve = this._sleepResolve
          this._sleepResolve = null
          if (resolve) resolve()
          return
        }
        case PH_FIRST:
        case PH_THINK:
        case PH_PAUSED:
        case PH_PARKED: return this._next()
        case PH_ARRIVAL: return this._arrived()
        case PH_KEYING: return this._keyed()
        default: // queued for a connection, or done: nothing to wake
      }
    } catch (err) {
      this.crash(err)
    }
  }

  _sleep (phase, atUs) {
    this.phase = phase
    this.context.scheduler.add(atUs, this)
  }

  /**
   * Choose the next transaction and pace it (rate, keying time) or go straight for a connection.
   * @param {number} [nowUs] the current time when the caller has just read the clock (the end of
   *   the previous transaction), as pgbench reuses one reading: a clock call less per transaction
   */
  _next (nowUs) {
    const c = this.context
    const limit = c.transactionsPerClient
    if (c.stopping || (limit > 0 && this.transactions >= limit)) return this.finishTerminal()
    if (c.activeClients !== null && this._paused(nowUs ?? c.nowUs())) return
    if (c.parked !== null && c.arrivals.mustWait(nowUs ?? c.nowUs())) {
      // one free terminal holds the next arrival; the others wait for it to come, so that a
      // rate changed meanwhile (pgload capacity) applies to every later arrival
      this.phase = PH_PARKED
      c.parked.push(this)
      return
    }
    this.typeIndex = c.chooseType(this)
    const tt = c.types[this.typeIndex]
    this._keyingUs = 0
    if (c.openModel) {
      // Open model: the intended start is the scheduled arrival (coordinated omission corrected).
      this._scheduledUs = c.nextArrivalUs()
      if (c.arrivals !== null) this.stageIndex = c.arrivals.lastStage
      if (this._scheduledUs >= c.deadlineUs) return this.finishTerminal()
      if (c.nowUs() < this._scheduledUs) return this._sleep(PH_ARRIVAL, this._scheduledUs)
      return this._arrived()
    }
    const now = nowUs ?? c.nowUs()
    if (tt.keyingUs) {
      this._keyingUs = tt.keyingUs.sampleUs(this.waitRandom)
      this.intendedUs = now + this._keyingUs
      return this._sleep(PH_KEYING, this.intendedUs)
    }
    if (this._readyUs >= 0) {
      // Closed model after think time: the intended start is when the terminal became ready.
      this.intendedUs = this._readyUs
      this._lagUs = now - this._readyUs
    } else {
      this.intendedUs = now
      this._lagUs = 0
    }
    this._readyUs = -1
    this._acquire(now)
  }

  /**
   * --clients-stages: outside the active terminals now, wait until inside again (its intended
   * start is then that time) or finish when it never will be before the end.
   * @param {number} nowUs
   * @returns {boolean} paused (or finished)
   */
  _paused (nowUs) {
    const at = this.context.activeClients.runnableAtUs(this.terminalId, nowUs)
    if (at <= nowUs) return false
    if (at === Infinity) { this.finishTerminal(); return true }
    this._readyUs = at
    this._sleep(PH_PAUSED, at)
    return true
  }

  /** --rate: the scheduled arrival has come; skip slots already later than --latency-limit. */
  _arrived () {
    const c = this.context
    if (c.stopping) {
      c.arrivals?.abandon(this._scheduledUs, this.stageIndex)
      return this.finishTerminal()
    }
    const limit = c.transactionsPerClient
    let scheduled = this._scheduledUs
    let now = c.nowUs()
    while (c.latencyLimitUs > 0 && now - scheduled > c.latencyLimitUs) {
      // Already hopeless: skip the slot, as pgbench -L does.
      this.transactions++
      // a staged arrival's skip counts in its stage, as its arrival did
      if (this.stageIndex === NO_STAGE ? scheduled >= c.measureStartUs && !c.expired : this.stageIndex >= 0) c.recorder.skipped(this.typeIndex, this.stageIndex)
      if (limit > 0 && this.transactions >= limit) return this.finishTerminal()
      scheduled = c.nextArrivalUs()
      if (c.arrivals !== null) this.stageIndex = c.arrivals.lastStage
      if (scheduled >= c.deadlineUs) return this.finishTerminal()
      now = c.nowUs()
    }
    this._scheduledUs = scheduled
    if (now < scheduled) return this._sleep(PH_ARRIVAL, scheduled)
    // --stages: the next arrival is for a parked terminal to hold (or to take, when it has come)
    if (c.parked !== null && c.parked.length > 0) c.scheduler.add(now, c.parked.pop())
    this.intendedUs = scheduled
    this._lagUs = now - scheduled
    this._readyUs = -1
    this._acquire(now)
  }

  /** TPC-C: the keying time is over; the transaction's intended start was its end. */
  _keyed () {
    const c = this.context
    if (c.stopping) return this.finishTerminal()
    const now = c.nowUs()
    this._lagUs = now - this.intendedUs
    this._readyUs = -1
    this._acquire(now)
  }

  /** @param {number} nowUs */
  _acquire (nowUs) {
    const c = this.context
    // --clients-stages: a transaction arrives at its intended start
    if (c.activeClients !== null) this.stageIndex = c.recorder.stageAt(this.intendedUs - c.measureStartUs)
    const pool = c.typePools[this.typeIndex]
    const conn = pool.tryAcquire()
    if (conn !== null) {
      this._queueUs = 0 // no wait: no clock reading needed
      return this._begin(conn, nowUs)
    }
    this.phase = PH_QUEUED
    this._queueStartUs = nowUs
    pool.wait(this)
  }

  /**
   * Pool callback: a connection for this terminal, or null when the run ended first.
   * @param {any} conn
   */
  onConnection (conn) {
    const c = this.context
    if (conn === null) return this.finishTerminal()
    const now = c.nowUs()
    this._queueUs = now - this._queueStartUs
    this._begin(conn, now)
  }

  _begin (conn, nowUs) {
    const c = this.context
    if (c.stopping || c.aborting) {
      // Not started before the end: no new transaction begins after the run stops.
      c.typePools[this.typeIndex].release(conn)
      return this.finishTerminal()
    }
    this.conn = conn
    this.phase = PH_RUNNING
    this._beganUs = nowUs
    const activity = c.activity
    if (activity !== null && conn.activityBase >= 0) activity.begin(this._activityBase = conn.activityBase, this.typeIndex)
    // --staleness: a routed read first checks what this client wrote (lib/engine/staleness.js)
    if (c.staleness !== null && c.staleness.reads[this.typeIndex]) return c.staleness.check(this, conn)
    this._transaction(c.types[this.typeIndex], conn)
  }

  /** Run the chosen transaction on its connection (after a staleness check). @param {any} conn */
  runOn (conn) {
    this._transaction(this.context.types[this.typeIndex], conn)
  }

  /** Run it, retrying serialization failures and deadlocks with the same random state. */
  _transaction (tt, conn) {
    this.random.getState(this.savedRandomState)
    this.retries = 0
    this.failCode = null
    this.tryTransaction(tt)
  }

  // One try: a workload with start() reports to the terminal's callback, run() through a promise.
  tryTransaction (tt) {
    try {
      if (tt.start !== undefined) {
        tt.start(this, this._onTransactionEnd ??= (err, outcome) => this._tryEnded(err, outcome))
      } else {
        tt.run(this).then(this._onRunValue ??= (outcome) => this._tryEnded(null, outcome), this._onRunError ??= (err) => this._tryEnded(err ?? new Error('transaction failed'), undefined))
      }
    } catch (err) {
      this._tryEnded(err, undefined)
    }
  }

  /** A try ended: record it, or retry, roll back, fail or abort (never throws: a bug is _crash). */
  _tryEnded (err, outcome) {
    try {
      if (this.cancelled) return this.cancelledEnded()
      if (err === null || err === undefined) {
        const st = this.context.staleness
        if (st !== null && outcome !== 'rollback' && st.writes[this.typeIndex]) return st.stamp(this)
        return this.endTransaction(outcome === 'rollback' ? ROLLED_BACK : OK)
      }
      transactionFailed(this, err)
    } catch (bug) {
      this.crash(bug)
    }
  }

  /** A transaction ended: give the connection back, record, think, go on. */
  endTransaction (status) {
    const c = this.context
    const conn = this.conn
    this.conn = null
    // the slot is left before the connection may go to a waiting terminal, which begins on it
    const activityBase = this._activityBase
    const activitySeq = activityBase >= 0 ? c.activity.end(activityBase) : 0
    this._activityBase = -1
    c.typePools[this.typeIndex].release(conn)
    this.transactions++
    const endUs = c.nowUs()
    const type = this.typeIndex
    const latencyUs = endUs - this.intendedUs
    if (activityBase >= 0 && (status === OK || status === ROLLED_BACK)) c.activity.latency(activityBase, activitySeq, latencyUs)
    // the terminal aborted
    if (!recordEnded(this, status, latencyUs, endUs, this._lagUs, this._queueUs, activityBase, activitySeq)) return this.finishTerminal()
    const tt = c.types[type]
    const rec = c.recorder
    if (tt.thinkUs && !c.stopping) {
      const thinkUs = tt.thinkUs.sampleUs(this.waitRandom)
      if (endUs >= c.measureStartUs) rec.waits(type, this._keyingUs, thinkUs)
      this._readyUs = endUs + thinkUs
      this._sleep(PH_THINK, this._readyUs)
    } else {
      if (this._keyingUs > 0 && endUs >= c.measureStartUs) rec.waits(type, this._keyingUs, 0)
      this._next(endUs)
    }
    // Other terminals' wake-ups that fell due while this one ran go now, not at the timer's next
    // 1 ms tick: the lag of paced terminals is then the event loop's, not the timer's resolution.
    c.scheduler.wakeDue(endUs)
  }

  /**
   * Cancel the transaction running (grace over, second Ctrl-C, --transaction-timeout) and record
   * it now (lib/engine/terminal-errors.js).
   * @param {'grace'|'abort'|'timeout'} reason
   * @param {number} nowUs
   * @returns {boolean} whether a transaction was running (and is now cancelled)
   */
  cancelTransaction (reason, nowUs) {
    return cancelRunning(this, reason, nowUs)
  }

  // The try of a cancelled transaction ended (its connection is gone): go on, recording nothing.
  cancelledEnded () {
    if (this.phase === PH_DONE) return
    this.cancelled = false
    this.endTransaction(CANCELLED)
  }

  finishTerminal () {
    if (this.phase === PH_DONE) return
    this.phase = PH_DONE
    this.context.events.finished(this)
  }

  /** A bug, not a database error: stop the run and keep what was measured. */
  crash (err) {
    this.context.events.internalError(err)
    this.finishTerminal()
  }
}
