// One benchmark run: terminals, the shared scheduler and pool, the measured window, the tick.
// Emits events; never prints (presenters subscribe).

import { EventEmitter } from 'node:events'
import { performance } from 'node:perf_hooks'
import { Scheduler } from './scheduler.js'
import { ConnectionPool } from './pool.js'
import { Terminal, countStates } from './terminal.js'
import { TerminalContext } from './terminal-context.js'
import { Canceller } from './canceller.js'
import { Recorder } from '../metrics/recorder.js'
import { sampleThreadSched, threadSchedShares } from '../metrics/thread-schedstat.js'
import { deriveSeeds } from '../random/seeding.js'
import { terminalStreams, arrivalStream } from './part-seeds.js'
import { formatServerError, ClientAbortError } from '../errors.js'

/**
 * @typedef {object} RunOptions
 * @property {() => Promise<any>} openConnection opens one database connection
 * @property {number} clients terminals (unless the workload fixes `terminals`)
 * @property {import('../plan/partition.js').TerminalRange} [terminalRange] run only these of the
 *   run's terminals (a shard's or a worker thread's part), keeping their numbers and seeds
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
 * @property {number} [part] a part's number in a run cut into parts (shards, worker threads):
 *   its terminals draw their type choice and waits from their own generators, and its --rate
 *   arrivals from its own (lib/engine/part-seeds.js)
 * @property {(run: any) => Promise<number|undefined|void>} [startGate] awaited once the pool is
 *   open, just before the terminals start: the shards' barrier, or the worker threads' common
 *   start; may give the start time on this run's clock (microseconds)
 * @property {import('pino').Logger} [log]
 * @property {() => number} [nowUs]
 */

/**
 * The workload's default pool for `count` of the run's terminals (a part's share of the whole).
 * @param {object} workload
 * @param {RunOptions} opts
 * @param {number} count
 * @returns {number}
 */
export function defaultConnections (workload, opts, count) {
  const all = workload.terminals ?? opts.clients
  const paced = Boolean(opts.thinkTime) || workload.transactions.some((t) => t.thinkUs || t.keyingUs)
  const whole = workload.defaultConnections ?? (paced ? Math.min(all, 32) : all)
  if (count === all) return whole
  return Math.max(1, Math.round(whole * count / all))
}

const defaultNowUs = () => performance.now() * 1000
// ms each connection's polite close may take once transactions had to be cancelled
const STALLED_CLOSE_MS = 250

export class Run extends EventEmitter {
  /**
   * @param {object} workload see docs/architecture.md, "Workload"; not changed by the run
   * @param {RunOptions} opts
   */
  constructor (workload, opts) {
    super()
    this.workload = workload
    this.opts = opts
    this.nowUs = opts.nowUs ?? defaultNowUs
    this.log = opts.log
    const allTerminals = workload.terminals ?? opts.clients
    this.terminalRange = opts.terminalRange ?? { first: 0, count: allTerminals, total: allTerminals }
    if (this.terminalRange.total !== allTerminals) throw new RangeError(`terminal range of ${this.terminalRange.total}, the run has ${allTerminals}`)
    this.terminalCount = this.terminalRange.count
    // --think-time applies to every type without its own: the run's copy of the types, so the
    // caller's workload stays as it was (a second run of it gets no think time it was not given)
    const types = opts.thinkTime ? workload.transactions.map((t) => t.thinkUs ? t : { ...t, thinkUs: opts.thinkTime }) : workload.transactions
    const paced = types.some((t) => t.thinkUs || t.keyingUs)
    this.paced = paced
    this.connectPerTransaction = Boolean(opts.connectPerTransaction)
    this.poolSize = this.connectPerTransaction
      ? this.terminalCount
      : Math.min(this.terminalCount, opts.connections ?? defaultConnections(workload, opts, this.terminalCount))
    this.seeds = opts.seeds && opts.seeds.clientPrngs.length === allTerminals ? opts.seeds : deriveSeeds(opts.seed, allTerminals)
    const part = opts.part
    const random = part === undefined ? this.seeds : { choose: this.seeds.choose, throttle: arrivalStream(opts.seed, part) }
    const latencyLimitUs = (opts.latencyLimitMs ?? 0) * 1000
    this.recorder = new Recorder(types.map((t) => t.name), { latencyLimitUs })
    this.scheduler = new Scheduler({ nowUs: this.nowUs })
    this.pool = this._createPool(workload.statements ?? [])
    this.serverLostS = opts.serverLostS ?? 10
    this.lostServer = null
    this.intervalS = opts.intervalS ?? 1
    this.context = new TerminalContext({
      nowUs: this.nowUs,
      scheduler: this.scheduler,
      pool: this.pool,
      recorder: this.recorder,
      workload,
      types,
      random,
      terminalStreams: part === undefined ? undefined : (id) => terminalStreams(opts.seed, id),
      settings: {
        paced,
        transactionsPerClient: opts.transactionsPerClient ?? 0,
        rateIntervalUs: opts.rate > 0 ? 1e6 / opts.rate : 0,
        latencyLimitUs,
        maxTries: opts.maxTries ?? 1,
        verboseErrors: Boolean(opts.verboseErrors)
      },
      events: this._terminalEvents(),
      log: this.log
    })
    this.canceller = new Canceller(this, { graceS: opts.graceS, transactionTimeoutS: opts.transactionTimeoutS })
    /** aborted by the user (Ctrl-C twice): nothing more is waited for */
    this.hurry = false
    this.interrupted = false
    this.abortedClients = 0
    this.firstAbort = null
    this.otherErrors = 0
    // terminals still running, and how execute() learns the end (set when it starts them)
    this._live = 0
    this._allFinished = null
    this._finishAborted = null
  }

  /** The run stopped: no transaction starts any more (those in flight may finish). */
  get stopping () { return this.context.stopping }
  /** The run is aborted: nothing more is recorded or retried. */
  get aborting () { return this.context.aborting }
  /** The duration is over. */
  get expired () { return this.context.expired }

  _createPool (statements) {
    const pool = new ConnectionPool({ open: this.opts.openConnection, size: this.poolSize, statements, connectPerTransaction: this.connectPerTransaction })
    // -C: a client whose connection cannot be opened aborts, as in pgbench
    pool.onConnectFailure = (err, terminal) => {
      this._clientAborted(terminal, new ClientAbortError(`client ${terminal.id} aborted while establishing connection: ${err.message}`, { cause: err }))
    }
    pool.onOpenError = (err, ms) => this._connectFailed(err, ms)
    pool.onNotice = (notice) => this.emit('notice', notice)
    const reported = new Set()
    pool.onPrepareError = (err, stmt) => {
      if (reported.has(stmt.id)) return
      reported.add(stmt.id)
      this.emit('prepare-error', { error: err, statement: stmt })
    }
    return pool
  }

  /** @returns {import('./terminal-context.js').TerminalEvents} made once per run */
  _terminalEvents () {
    return {
      finished: () => { if (--this._live === 0) this._allFinished() },
      clientAborted: (terminal, err) => this._clientAborted(terminal, err),
      otherError: (terminal, err) => this._otherError(terminal, err),
      retryableError: (terminal, err, tries, willRetry) => {
        this.emit('retryable-error', { terminalId: terminal.id, error: err, tries, maxTries: this.context.maxTries, willRetry })
      },
      internalError: (err) => {
        this.emit('internal-error', err)
        this.abort('internal-error')
      },
      cancelConnection: (conn, now) => this.canceller.cancelConnection(conn, now || this.hurry)
    }
  }

  _clientAborted (terminal, err) {
    this.abortedClients++
    if (!this.firstAbort) this.firstAbort = err
    this.emit('client-abort', { terminalId: terminal.id, error: err })
    if (this.opts.exitOnAbort) this.abort('exit-on-abort')
  }

  _otherError (terminal, err) {
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

  /** Stop starting transactions; those in flight finish and are measured (Ctrl-C once). */
  stop (reason = 'stopped') {
    if (this.context.stopping) return
    this.context.stopping = true
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
    if (this.context.aborting) return
    this.stop(reason)
    this.context.aborting = true
    this.abortReason = reason
    this.emit('aborting', { reason })
    this._wakeAll()
    if (this._finishAborted) this._finishAborted()
  }

  _wakeAll () {
    this.scheduler.stop()
    for (const t of this.terminals ?? []) t.wake()
    this.pool.failWaiters()
  }

  /** Connections cannot be re-opened: give up after `serverLostS`, or at once when stopping. */
  _connectFailed (err, failingForMs) {
    this.emit('connection-error', { error: err, failingForMs })
    if (this.context.stopping || failingForMs >= this.serverLostS * 1000) {
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
    let startUs
    if (!this.stopping && opts.startGate) {
      try { startUs = (await opts.startGate(this)) ?? undefined } catch (err) { await this.pool.close(); throw err }
    }
    if (this.stopping) { await this.pool.close(); return this._finish() }
    this.terminals = new Array(this.terminalCount)
    const first = this.terminalRange.first
    for (let i = 0; i < this.terminalCount; i++) this.terminals[i] = new Terminal(this.context, first + i, this.seeds.clientPrngs[first + i])

    this.startUs = startUs ?? this.nowUs()
    this.startTime = startUs === undefined ? new Date() : new Date(performance.timeOrigin + startUs / 1000)
    this.measureStartUs = this.startUs + (opts.warmupS ?? 0) * 1e6
    this.deadlineUs = opts.durationS > 0 ? this.measureStartUs + opts.durationS * 1e6 : Infinity
    this.context.begin(this.startUs, this.measureStartUs, this.deadlineUs)
    this.emit('start', { terminals: this.terminalCount, connections: this.poolSize, initialConnectionMs: this.initialConnectionMs })

    this._startTick()
    this.canceller.startTimeouts()
    this._live = this.terminalCount
    const done = new Promise((resolve) => { this._allFinished = resolve })
    const aborted = new Promise((resolve) => { this._finishAborted = resolve })
    // Start in slices, letting the event loop serve early wake-ups in between: starting
    // 100,000 terminals in one go would make the first ones late.
    let started = 0
    while (started < this.terminals.length && !this.context.aborting) {
      this.terminals[started++].start()
      if ((started & 1023) === 0) await new Promise(setImmediate)
    }
    // an abort during the start: the terminals not started are done without a transaction
    this._live -= this.terminals.length - started
    if (this._live === 0) this._allFinished()
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
        this.context.expired = true
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
