// One benchmark run: terminals, the shared scheduler and pool, the measured window, the tick.
// Emits events; never prints (presenters subscribe).

import { EventEmitter } from 'node:events'
import { performance } from 'node:perf_hooks'
import { Scheduler } from './scheduler.js'
import { ConnectionPool } from './pool.js'
import { Terminal, countStates } from './terminal.js'
import { Canceller } from './canceller.js'
import { Recorder } from '../metrics/recorder.js'
import { sampleThreadSched, threadSchedShares } from '../metrics/thread-schedstat.js'
import { deriveSeeds } from '../random/seeding.js'
import { chooseWeighted } from '../random/weighted-choice.js'
import { formatServerError, ClientAbortError } from '../errors.js'

/**
 * @typedef {object} RunOptions
 * @property {() => Promise<any>} openConnection opens one database connection
 * @property {number} clients terminals (unless the workload fixes `terminals`)
 * @property {number} [connections] pool size; default: workload.defaultConnections, else clients
 * @property {number} [durationS] measured duration (after warm-up); 0 with transactionsPerClient
 * @property {number} [transactionsPerClient] pgbench -t
 * @property {number} [rate] transactions per second for the whole run (open model), 0 = closed
 * @property {number} [latencyLimitMs] pgbench -L
 * @property {import('../options/distribution.js').Distribution} [thinkTime] added to every type without its own
 * @property {number} [warmupS]
 * @property {number} [intervalS] length of one interval of the time series
 * @property {number} [maxTries] 0 = unlimited
 * @property {boolean} [exitOnAbort]
 * @property {boolean} [connectPerTransaction] pgbench -C: a new connection for every transaction
 * @property {number} [serverLostS] end the run when no connection could be re-opened for this long (default 10)
 * @property {boolean} [verboseErrors] emit 'retryable-error' for every serialization failure or deadlock
 * @property {number} [graceS] once the run stops, transactions in flight get this long, then are cancelled (default 10)
 * @property {number} [transactionTimeoutS] cancel any transaction running longer than this (0 or absent: never)
 * @property {bigint} seed
 * @property {ReturnType<typeof deriveSeeds>} [seeds] derived already for `clients` terminals
 * @property {import('pino').Logger} [log]
 * @property {() => number} [nowUs]
 */

const defaultNowUs = () => performance.now() * 1000
// ms each connection's polite close may take once transactions had to be cancelled
const STALLED_CLOSE_MS = 250

export class Run extends EventEmitter {
  /**
   * @param {object} workload see docs/architecture.md, "Workload"
   * @param {RunOptions} opts
   */
  constructor (workload, opts) {
    super()
    this.workload = workload
    this.opts = opts
    this.nowUs = opts.nowUs ?? defaultNowUs
    this.log = opts.log
    this.terminalCount = workload.terminals ?? opts.clients
    const paced = Boolean(opts.thinkTime) || workload.transactions.some((t) => t.thinkUs || t.keyingUs)
    this.poolSize = Math.min(this.terminalCount, opts.connections ?? workload.defaultConnections ?? (paced ? Math.min(this.terminalCount, 32) : this.terminalCount))
    this.paced = paced
    if (opts.thinkTime) {
      workload.transactions = workload.transactions.map((t) => t.thinkUs ? t : { ...t, thinkUs: opts.thinkTime })
    }
    this.seeds = opts.seeds && opts.seeds.clientPrngs.length === this.terminalCount ? opts.seeds : deriveSeeds(opts.seed, this.terminalCount)
    this.waitRandom = this.seeds.throttle
    this.recorder = new Recorder(workload.transactions.map((t) => t.name), { latencyLimitUs: (opts.latencyLimitMs ?? 0) * 1000 })
    this.scheduler = new Scheduler({ nowUs: this.nowUs })
    this.connectPerTransaction = Boolean(opts.connectPerTransaction)
    if (this.connectPerTransaction) this.poolSize = this.terminalCount
    this.pool = new ConnectionPool({ open: opts.openConnection, size: this.poolSize, statements: workload.statements ?? [], connectPerTransaction: this.connectPerTransaction })
    // -C: a client whose connection cannot be opened aborts, as in pgbench
    this.pool.onConnectFailure = (err, terminal) => {
      terminal.aborted = true
      this.clientAborted(terminal, new ClientAbortError(`client ${terminal.terminalId} aborted while establishing connection: ${err.message}`, { cause: err }))
    }
    this.pool.onOpenError = (err, ms) => this._connectFailed(err, ms)
    this.pool.onNotice = (notice) => this.emit('notice', notice)
    this._preparesReported = new Set()
    this.pool.onPrepareError = (err, stmt) => {
      if (this._preparesReported.has(stmt.id)) return
      this._preparesReported.add(stmt.id)
      this.emit('prepare-error', { error: err, statement: stmt })
    }
    this.serverLostS = opts.serverLostS ?? 10
    this.lostServer = null
    this.transactionsPerClient = opts.transactionsPerClient ?? 0
    this.latencyLimitUs = (opts.latencyLimitMs ?? 0) * 1000
    this.rateIntervalUs = opts.rate > 0 ? 1e6 / opts.rate : 0
    this.maxTries = opts.maxTries ?? 1
    this.verboseErrors = Boolean(opts.verboseErrors)
    this.intervalS = opts.intervalS ?? 1
    this.canceller = new Canceller(this, { graceS: opts.graceS, transactionTimeoutS: opts.transactionTimeoutS })
    /** aborted by the user (Ctrl-C twice): nothing more is waited for */
    this.hurry = false
    this.stopping = false
    this.aborting = false
    this.expired = false
    this.interrupted = false
    this.abortedClients = 0
    this.firstAbort = null
    this.otherErrors = 0
    this._weights = workload.transactions.map((t) => t.weight ?? 1)
    this._totalWeight = this._weights.reduce((s, w) => s + w, 0)
    this._info = { type: '', status: '', latencyUs: 0, lagUs: 0, tries: 1, sqlstate: null, scheduledEpochUs: 0, endEpochUs: 0 }
    // the monotonic clock's zero on the wall clock, read once (the getter costs a call per read)
    this._originEpochUs = performance.timeOrigin * 1000
    this._throttleTriggerUs = 0
  }

  /** pgbench's chooseScript: one draw in [0, total) from the shared choose generator. */
  chooseType () {
    if (this._weights.length === 1) return 0
    return chooseWeighted(this._weights, this._totalWeight, this.seeds.choose)
  }

  /** The next Poisson arrival of the run-wide schedule (pgbench -R). The schedule never slips. */
  nextArrivalUs () {
    const delay = Math.floor(-Math.log(1 - this.waitRandom.double()) * this.rateIntervalUs + 0.5)
    this._throttleTriggerUs += delay
    return this._throttleTriggerUs
  }

  /** Whether a transaction may be tried again (pgbench --max-tries rules). */
  canRetry (triesSoFar, intendedUs) {
    if (this.aborting) return false
    if (this.maxTries > 0 && triesSoFar >= this.maxTries) return false
    if (this.latencyLimitUs > 0 && this.nowUs() - intendedUs > this.latencyLimitUs) return false
    if (this.expired) return false
    return true
  }

  /** --verbose-errors: a serialization failure or deadlock, and whether it is tried again. */
  retryableError (terminal, err, tries, willRetry) {
    this.emit('retryable-error', { terminalId: terminal.id, error: err, tries, maxTries: this.maxTries, willRetry })
  }

  clientAborted (terminal, err) {
    this.abortedClients++
    if (!this.firstAbort) this.firstAbort = err
    this.emit('client-abort', { terminalId: terminal.id, error: err })
    if (this.opts.exitOnAbort) this.abort('exit-on-abort')
  }

  otherError (terminal, err) {
    this.otherErrors++
    if (this.otherErrors <= 10 || this.log?.isLevelEnabled?.('debug')) {
      this.emit('transaction-error', { terminalId: terminal.id, message: formatServerError(err), code: err?.code })
    }
    if (this.opts.exitOnAbort) {
      this.abortedClients++
      if (!this.firstAbort) this.firstAbort = err
      this.abort('exit-on-abort')
    }
  }

  reportTransaction (ctx, type, status, latencyUs, lagUs, tries, sqlstate, intendedUs, endUs) {
    const info = this._info
    info.type = type
    info.status = status
    info.latencyUs = latencyUs
    info.lagUs = lagUs
    info.tries = tries
    info.sqlstate = sqlstate
    info.scheduledEpochUs = this._originEpochUs + intendedUs
    info.endEpochUs = this._originEpochUs + endUs
    this.workload.onTransactionEnd(ctx, info)
  }

  /** Stop starting transactions; those in flight finish and are measured (Ctrl-C once). */
  stop (reason = 'stopped') {
    if (this.stopping) return
    this.stopping = true
    this.stopReason = reason
    if (reason === 'interrupted') this.interrupted = true
    this._wakeAll()
    this.canceller.armGrace()
  }

  /**
   * Stop at once (Ctrl-C twice, --exit-on-abort): what was measured is still reported. Ctrl-C
   * twice also cancels the transactions in flight (counted as unfinished) and destroys sockets.
   */
  abort (reason = 'aborted') {
    if (reason === 'interrupted' && !this.hurry) {
      this.hurry = true
      this.emit('abort', { reason })
      if (this.terminals) this.canceller.cancelAll('abort')
    }
    if (this.aborting) return
    this.stop(reason)
    this.aborting = true
    this.abortReason = reason
    this._wakeAll()
    if (this._finishAborted) this._finishAborted()
  }

  /**
   * A terminal's transaction is cancelled: cancel what its connection runs and destroy it.
   * @param {any} conn
   * @param {boolean} now destroy the socket at once (aborting)
   */
  cancelConnection (conn, now) {
    this.canceller.cancelConnection(conn, now || this.hurry)
  }

  _wakeAll () {
    this.scheduler.stop()
    for (const t of this.terminals ?? []) t.wake()
    this.pool.failWaiters()
  }

  /** A terminal is done (its limit, the end of the run, or an abort). */
  terminalFinished () {
    if (--this._live === 0) this._allFinished()
  }

  /** Connections cannot be re-opened: give up after `serverLostS`, or at once when stopping. */
  _connectFailed (err, failingForMs) {
    this.emit('connection-error', { error: err, failingForMs })
    if (this.stopping || failingForMs >= this.serverLostS * 1000) {
      this.lostServer = err
      this.abort('connection-lost')
    }
  }

  /**
   * Open the pool, run the terminals to the end, and return the measured figures.
   * @returns {Promise<object>}
   */
  async execute () {
    const opts = this.opts
    this.initialConnectionMs = await this.pool.fill()
    if (this.stopping) { await this.pool.close(); return this._finish() }
    this.terminals = new Array(this.terminalCount)
    for (let i = 0; i < this.terminalCount; i++) this.terminals[i] = new Terminal(this, i, this.seeds.clientPrngs[i])

    this.startUs = this.nowUs()
    this.startTime = new Date()
    this.measureStartUs = this.startUs + (opts.warmupS ?? 0) * 1e6
    this.deadlineUs = opts.durationS > 0 ? this.measureStartUs + opts.durationS * 1e6 : Infinity
    this._throttleTriggerUs = this.startUs
    this.emit('start', { terminals: this.terminalCount, connections: this.poolSize, initialConnectionMs: this.initialConnectionMs })

    this._startTick()
    this.canceller.startTimeouts()
    this._live = this.terminalCount
    const done = new Promise((resolve) => { this._allFinished = resolve })
    const aborted = new Promise((resolve) => { this._finishAborted = resolve })
    // Start in slices, letting the event loop serve early wake-ups in between: starting
    // 100,000 terminals in one go would make the first ones late.
    for (let i = 0; i < this.terminals.length && !this.aborting; i++) {
      try {
        this.terminals[i].start()
      } catch (err) {
        this.terminals[i]._crash(err)
      }
      if ((i & 1023) === 1023) await new Promise(setImmediate)
    }
    for (let i = 0; i < this.terminals.length; i++) if (this.terminals[i].phase === 0) this.terminals[i]._finish()
    await Promise.race([done, aborted])
    this.endUs = this.nowUs()
    this._stopTick()
    if (this.hurry) this.canceller.cancelAll('abort') // any still running (Ctrl-C twice during the start)
    // after Ctrl-C twice no socket is waited for; after cancels the server may not be answering
    const closeMs = this.hurry ? 0 : this.canceller.cancelled.grace > 0 ? STALLED_CLOSE_MS : undefined
    await Promise.all([this.canceller.close(!this.hurry), this.pool.close({ timeoutMs: closeMs })])
    return this._finish()
  }

  _startTick () {
    const intervalUs = this.intervalS * 1e6
    this._cpuStart = null
    this._eluStart = null
    this._schedStart = null
    let nextUs = this.measureStartUs + intervalUs
    let warm = this.measureStartUs <= this.startUs
    if (warm) this._beginMeasuring()
    // During a warm-up: a 'warmup-tick' each interval (progress lines), no interval closed.
    let nextWarmUs = this.startUs + intervalUs
    const tick = () => {
      const now = this.nowUs()
      if (!warm && now >= nextWarmUs && now < this.measureStartUs) {
        while (nextWarmUs + intervalUs <= now) nextWarmUs += intervalUs
        this.emit('warmup-tick', { elapsedS: (nextWarmUs - this.startUs) / 1e6, warmupS: this.opts.warmupS, activeConnections: this.pool.active, waiting: this.pool.waiting })
        nextWarmUs += intervalUs
      }
      if (!warm && now >= this.measureStartUs) { warm = true; this._beginMeasuring() }
      if (this.deadlineUs !== Infinity && now >= this.deadlineUs && !this.expired) {
        this.expired = true
        this.stop('duration')
      }
      while (now >= nextUs && warm) { // eslint-disable-line no-unmodified-loop-condition
        const entry = this.recorder.closeInterval((nextUs - this.measureStartUs) / 1e6, this.intervalS)
        this.emit('tick', { elapsedS: (nextUs - this.measureStartUs) / 1e6, interval: entry, activeConnections: this.pool.active, waiting: this.pool.waiting })
        nextUs += intervalUs
      }
      this._tickTimer = setTimeout(tick, delayMs(warm ? Math.min(nextUs, this.deadlineUs) : Math.min(nextWarmUs, this.measureStartUs)))
    }
    const delayMs = (targetUs) => Math.max(1, Math.ceil((targetUs - this.nowUs()) / 1000))
    this._tickTimer = setTimeout(tick, delayMs(warm ? Math.min(nextUs, this.deadlineUs) : Math.min(nextWarmUs, this.measureStartUs)))
  }

  /**
   * Terminals by state (keying, thinking, in a transaction, waiting for a connection): a pass
   * over the terminals, for a progress line.
   */
  terminalStates () {
    return countStates(this.terminals ?? [])
  }

  _beginMeasuring () {
    this._cpuStart = process.cpuUsage()
    this._eluStart = performance.eventLoopUtilization()
    this._schedStart = sampleThreadSched()
    this.emit('measuring')
  }

  _stopTick () {
    clearTimeout(this._tickTimer)
    const now = this.endUs
    if (this.measureStartUs === undefined || now <= this.measureStartUs) return
    // The last partial interval, so every measured transaction is in the series.
    const closed = this.recorder.intervals.length * this.intervalS * 1e6
    const partialUs = (now - this.measureStartUs) - closed
    if (partialUs > 1000) {
      const entry = this.recorder.closeInterval((now - this.measureStartUs) / 1e6, partialUs / 1e6)
      this.emit('tick', { elapsedS: (now - this.measureStartUs) / 1e6, interval: entry, activeConnections: 0, waiting: 0, final: true })
    }
  }

  _finish () {
    const endUs = this.endUs ?? this.nowUs()
    const measuredUs = this.measureStartUs !== undefined ? Math.max(0, endUs - this.measureStartUs) : 0
    const durationS = measuredUs / 1e6
    const { summary, transactions } = this.recorder.summarize(durationS)
    summary.initialConnectionMs = Math.round((this.initialConnectionMs ?? 0) * 1000) / 1000
    if (this.connectPerTransaction) {
      // pgbench -C: connect time per transaction (included in each transaction's latency here)
      summary.averageConnectionMs = this.pool.connects > 0 ? Math.round(this.pool.connectUs / this.pool.connects) / 1000 : null
    }
    let client = { cpuUsPerTxn: null, eventLoopUtilization: null }
    if (this._cpuStart) {
      const cpu = process.cpuUsage(this._cpuStart)
      const elu = performance.eventLoopUtilization(this._eluStart)
      const sched = threadSchedShares(this._schedStart, sampleThreadSched())
      const txns = summary.transactions + summary.failed
      const perTxn = (us) => txns > 0 ? Math.round(us / txns * 100) / 100 : null
      client = {
        cpuUs: cpu.user + cpu.system,
        cpuUsPerTxn: perTxn(cpu.user + cpu.system),
        // the kernel's share is mostly the sockets' (send, receive, poll): the driver's own
        // work is the user share
        userUsPerTxn: perTxn(cpu.user),
        systemUsPerTxn: perTxn(cpu.system),
        eventLoopUtilization: Math.round(elu.utilization * 1000) / 1000,
        // the driver's thread (Linux): on a CPU, and runnable but waiting for one
        onCpuShare: sched && Math.round(sched.onCpuShare * 1000) / 1000,
        cpuWaitShare: sched && Math.round(sched.cpuWaitShare * 1000) / 1000,
        cpuWaitUsPerTxn: sched && perTxn(sched.cpuWaitUs)
      }
    }
    return {
      startTime: this.startTime?.toISOString() ?? new Date().toISOString(),
      endTime: new Date().toISOString(),
      durationS: Math.round(durationS * 1000) / 1000,
      terminals: this.terminalCount,
      connections: this.poolSize,
      paced: this.paced,
      aborted: this.abortedClients > 0 || (this.aborting && this.abortReason !== 'interrupted'),
      abortedClients: this.abortedClients,
      abortReason: this.abortReason ?? null,
      interrupted: this.interrupted,
      graceS: this.canceller.graceMs / 1000,
      cancelled: { ...this.canceller.cancelled },
      summary,
      transactions,
      intervals: this.recorder.intervals,
      client,
      backendPids: this.pool.closedPids
    }
  }
}
