// One benchmark run on this thread's event loop: terminals, the shared scheduler and pool, the
// measured window, the tick. It implements the run handle (lib/engine/run-handle.js): emits
// events, never prints; presenters subscribe.

import { EventEmitter } from 'node:events'
import { performance } from 'node:perf_hooks'
import { Scheduler } from './scheduler.js'
import { ConnectionPool } from './pool.js'
import { PoolGroup } from './pool-group.js'
import { Staleness } from './staleness.js'
import { Terminal } from './terminal.js'
import { countStates } from './terminal-phases.js'
import { TerminalContext } from './terminal-context.js'
import { Canceller } from './canceller.js'
import { RunLifecycle } from './run-handle.js'
import { runOutcome } from './run-outcome.js'
import { RunClock } from './run-clock.js'
import { STALLED_CLOSE_MS } from './after-run.js'
import { Recorder } from '../metrics/recorder.js'
import { StageWindows, stageEvent } from '../metrics/stage-windows.js'
import { deriveSeeds } from '../random/seeding.js'
import { terminalStreams, arrivalStream } from './part-seeds.js'
import { formatServerError, ClientAbortError } from '../errors.js'

/**
 * What a run needs besides its settings: the world it runs in.
 * @typedef {object} RunRuntime
 * @property {() => Promise<any>} openConnection opens one database connection
 * @property {(() => Promise<any>)[]} [routeOpeners] open one connection to each other target
 *   (--route; settings.typeTargets index i + 1)
 * @property {bigint} seed
 * @property {ReturnType<typeof deriveSeeds>} [seeds] derived already for the run's terminals
 * @property {number} [part] a part's number in a run cut into parts (shards, worker threads):
 *   its terminals draw their type choice and waits from their own generators, and its --rate
 *   arrivals from its own (lib/engine/part-seeds.js)
 * @property {(run: import('./run-handle.js').RunHandle) => Promise<number|undefined|void>} [startGate]
 *   awaited once the pool is open, just before the terminals start: the shards' barrier, or the
 *   worker threads' common start; may give the start time on this run's clock (microseconds)
 * @property {import('pino').Logger} [log]
 * @property {() => number} [nowUs] the monotonic clock, microseconds
 * @property {import('./activity-slots.js').ActivitySlots} [activity] where each connection
 *   publishes what it runs, for a reader such as the wait sampler (lib/engine/activity-slots.js)
 */

const defaultNowUs = () => performance.now() * 1000
// ms each connection's polite close may take once transactions had to be cancelled

/** @implements {import('./run-handle.js').RunHandle} */
export class Run extends EventEmitter {
  #life
  #workload

  /**
   * @param {object} workload see docs/architecture.md, "Workload"; not changed by the run
   * @param {import('../plan/engine-settings.js').EngineSettings} settings from engineSettings()
   * @param {RunRuntime} runtime
   */
  constructor (workload, settings, runtime) {
    super()
    this.#workload = workload
    this.settings = settings
    this.runtime = runtime
    this.nowUs = runtime.nowUs ?? defaultNowUs
    this.log = runtime.log
    this.terminalRange = settings.range
    this.terminalCount = settings.range.count
    this.poolSize = settings.connections
    // --think-time applies to every type without its own: the run's copy of the types, so the
    // caller's workload stays as it was (a second run of it gets no think time it was not given)
    const thinkUs = settings.thinkTime
    const types = thinkUs ? workload.transactions.map((t) => t.thinkUs ? t : { ...t, thinkUs }) : workload.transactions
    this.seeds = runtime.seeds && runtime.seeds.clientPrngs.length === settings.terminals ? runtime.seeds : deriveSeeds(runtime.seed, settings.terminals)
    const part = runtime.part
    const random = part === undefined ? this.seeds : { choose: this.seeds.choose, throttle: arrivalStream(runtime.seed, part) }
    // the run's own copy of the stages: nextStage() adds to it (settings stay as planned)
    const profile = settings.profile ? { ...settings.profile, stages: settings.profile.stages.slice() } : null
    /** @type {import('../plan/profile.js').StageProfile|null} */
    this.profile = profile
    this.recorder = new Recorder(types.map((t) => t.name), { latencyLimitUs: settings.latencyLimitUs, countsDrops: profile?.kind === 'rate' })
    if (profile) this.recorder.stageWindows = new StageWindows(profile.kind, profile.stages, types.map((t) => t.name))
    this.scheduler = new Scheduler({ nowUs: this.nowUs })
    // --route: a pool per target, each type taking its connections from its target's
    const pools = [this.runtime.openConnection, ...(runtime.routeOpeners ?? [])].map((open, i) => this._createPool(open, workload.statements ?? [], i === 0))
    this.pool = pools.length > 1 ? new PoolGroup(pools) : pools[0]
    this.context = new TerminalContext({
      nowUs: this.nowUs,
      scheduler: this.scheduler,
      pool: this.pool,
      typePools: types.map((t, i) => pools[settings.typeTargets?.[i] ?? 0]),
      recorder: this.recorder,
      workload,
      types,
      random,
      terminalStreams: part === undefined ? undefined : (id) => terminalStreams(runtime.seed, id),
      settings,
      events: this._terminalEvents(),
      log: this.log,
      activity: runtime.activity ?? null
    })
    if (settings.staleness) this.context.staleness = new Staleness({ typeTargets: settings.typeTargets, terminals: settings.terminals, nowUs: this.nowUs })
    this.canceller = new Canceller(this, settings)
    this.#life = new RunLifecycle(this, () => this.canceller.cancelled)
    this.abortedClients = 0
    this.firstAbort = null
    this.otherErrors = 0
    // terminals still running, and how execute() learns the end (set when it starts them)
    this._live = 0
    // the measured window's clock: ticks, intervals, the measuring start (run-clock.js)
    this.clock = new RunClock(this)
    this._allFinished = null
    this._finishAborted = null
  }

  /** @returns {Readonly<import('./run-handle.js').RunStatus>} */
  get status () { return this.#life.status() }
  /** The run stopped: no transaction starts any more (those in flight may finish). */
  get stopping () { return this.context.stopping }
  /** The run is aborted: nothing more is recorded or retried. */
  get aborting () { return this.context.aborting }
  /** The duration is over. */
  get expired () { return this.context.expired }
  /** Ctrl-C twice: nothing more is waited for. */
  get hurried () { return this.#life.hurried }

  /**
   * An adaptive stage (`pgload capacity`): the stage open now ends at the edge of the interval
   * just closed, and the next begins there with `ratePerS` arrivals per second (the whole run's)
   * from now on, to the profile's end. Drops, the bounded queue, the lag from the scheduled
   * arrival and the stage's window come from the --stages machinery. Only from an 'interval'
   * listener (so each stage holds whole intervals), in a --stages run on one thread.
   * @param {number} ratePerS >= 0
   * @param {{ dropWaiting?: boolean }} [opts] dropWaiting: the arrivals still waiting for a
   *   terminal are dropped, counted in the new stage (it starts without the backlog of the last)
   * @returns {import('./run-handle.js').StageEvent} the stage begun
   */
  nextStage (ratePerS, { dropWaiting = false } = {}) {
    const profile = this.profile
    const windows = this.recorder.stageWindows
    if (profile?.kind !== 'rate' || !this.context.arrivals) throw new RangeError('nextStage needs a run with --stages')
    if (!(ratePerS >= 0) || !Number.isFinite(ratePerS)) throw new RangeError(`nextStage needs a rate >= 0, got ${ratePerS}`)
    const e = this.clock.intervalEvent
    if (!e || e.final || this.stopping) throw new RangeError('nextStage is called from an \'interval\' listener of a running run')
    const edgeUs = (e.index + 1) * this.settings.intervalUs
    const stages = profile.stages
    const current = windows.current
    const open = stages[current]
    if (current !== stages.length - 1 || !(edgeUs > open.startUs) || !(edgeUs < open.endUs)) {
      throw new RangeError(`nextStage: stage ${current + 1} cannot end at ${edgeUs / 1e6} s`)
    }
    stages[current] = Object.freeze({ ...open, endUs: edgeUs })
    stages.push(Object.freeze({ startUs: edgeUs, endUs: open.endUs, from: ratePerS, to: ratePerS, ramp: false }))
    windows.close(edgeUs / 1e6, false)
    windows.begin()
    this.context.arrivals.changeRate(this.measureStartUs + edgeUs, ratePerS)
    if (dropWaiting) this.context.arrivals.dropWaiting()
    const stage = stageEvent(profile, current + 1)
    this.emit('stage', stage)
    return stage
  }

  /** @param {number} sinceStartS @returns {string|null} the workload's progress figure */
  progressText (sinceStartS) {
    const w = this.#workload
    return typeof w.progressText === 'function' ? w.progressText(sinceStartS) : null
  }

  // the wait sampler reads the run's own server: only its connections publish their activity
  _createPool (open, statements, own) {
    const s = this.settings
    const pool = new ConnectionPool({ open, size: this.poolSize, statements, connectPerTransaction: s.connectPerTransaction, activity: own ? this.runtime.activity : undefined })
    // -C: a client whose connection cannot be opened aborts, as in pgbench
    pool.onConnectFailure = (err, terminal) => {
      this._clientAborted(terminal, new ClientAbortError(`client ${terminal.id} aborted while establishing connection: ${err.message}`, { cause: err }))
    }
    pool.onOpenError = (err, ms) => this._connectFailed(err, ms)
    pool.onReopened = (failedForMs) => this.emit('reconnected', { failedForMs })
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
        this.emit('retryable-error', { terminalId: terminal.id, error: err, tries, maxTries: this.settings.maxTries, willRetry })
      },
      internalError: (err) => {
        this.emit('internal-error', err)
        this.abort('internal-error')
      },
      cancelConnection: (conn, now) => this.canceller.cancelConnection(conn, now || this.#life.hurried)
    }
  }

  _clientAborted (terminal, err) {
    this.abortedClients++
    if (!this.firstAbort) this.firstAbort = err
    this.emit('terminal-aborted', { terminalId: terminal.id, error: err })
    if (this.settings.exitOnAbort) this.abort('exit-on-abort')
  }

  _otherError (terminal, err) {
    this.otherErrors++
    if (this.otherErrors <= 10 || this.log?.isLevelEnabled?.('debug')) {
      this.emit('transaction-error', { terminalId: terminal.id, message: formatServerError(err), code: err?.code })
    }
    if (this.settings.exitOnAbort) {
      this.abortedClients++
      if (!this.firstAbort) this.firstAbort = err
      this.abort('exit-on-abort')
    }
  }

  /** Stop starting transactions; those in flight finish and are measured (Ctrl-C once). */
  stop (reason = 'stopped') {
    if (this.context.stopping) return
    this.context.stopping = true
    this._wakeAll()
    this.canceller.armGrace()
    this.#life.stop(reason, this.settings.graceUs / 1e6)
  }

  /**
   * Stop at once (Ctrl-C twice, --exit-on-abort): what was measured is still reported. Ctrl-C
   * twice also cancels the transactions in flight (counted as unfinished) and destroys sockets.
   */
  abort (reason = 'aborted') {
    if (reason === 'interrupted' && this.#life.hurry()) {
      if (this.terminals) this.canceller.cancelAll('abort')
    }
    if (this.context.aborting) { this.#life.abort(reason); return }
    this.stop(reason)
    this.context.aborting = true
    this._wakeAll()
    this.#life.abort(reason)
    if (this._finishAborted) this._finishAborted()
  }

  _wakeAll () {
    this.scheduler.stop()
    for (const t of this.terminals ?? []) t.wake()
    this.pool.failWaiters()
  }

  /** Connections cannot be re-opened: give up after serverLostUs, or at once when stopping. */
  _connectFailed (err, failingForMs) {
    this.emit('connection-error', { error: err, failingForMs })
    if (this.context.aborting) return
    if (this.context.stopping || failingForMs * 1000 >= this.settings.serverLostUs) {
      this.emit('server-lost', { error: err, failingForMs, serverLostS: this.settings.serverLostUs / 1e6 })
      this.abort('connection-lost')
    }
  }

  /**
   * Open the pool, run the terminals to the end, and return the measured figures.
   * @returns {Promise<object>}
   */
  execute () {
    return this.#life.settle(() => this._execute())
  }

  async _execute () {
    this.initialConnectionMs = await this.pool.fill()
    let startUs
    const gate = this.runtime.startGate
    if (!this.stopping && gate) {
      try { startUs = (await gate(this)) ?? undefined } catch (err) { await this.pool.close(); throw err }
    }
    if (this.stopping) { await this.pool.close(); return this._finish() }
    try {
      return await this._runTerminals(startUs)
    } catch (err) {
      // a bug past the pool's opening: its connections must not keep the process alive
      this.clock.cancel()
      this.context.stopping = this.context.aborting = true
      this._wakeAll()
      await Promise.all([this.canceller.close(false), this.pool.close({ timeoutMs: STALLED_CLOSE_MS })]).catch(() => {})
      throw err
    }
  }

  async _runTerminals (startUs) {
    this.terminals = new Array(this.terminalCount)
    const first = this.terminalRange.first
    for (let i = 0; i < this.terminalCount; i++) this.terminals[i] = new Terminal(this.context, first + i, this.seeds.clientPrngs[first + i])

    this.startUs = startUs ?? this.nowUs()
    this.startTime = startUs === undefined ? new Date() : new Date(performance.timeOrigin + startUs / 1000)
    this.measureStartUs = this.startUs + this.settings.warmupUs
    this.deadlineUs = this.settings.durationUs > 0 ? this.measureStartUs + this.settings.durationUs : Infinity
    this.context.begin(this.startUs, this.measureStartUs, this.deadlineUs)
    this.#life.running(this.startUs)
    this.emit('start', { terminals: this.terminalCount, connections: this.poolSize, initialConnectionMs: this.initialConnectionMs })

    this.clock.start()
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
    this.clock.stop()
    const hurried = this.#life.hurried
    if (hurried) this.canceller.cancelAll('abort') // any still running (Ctrl-C twice during the start)
    // after Ctrl-C twice no socket is waited for; after cancels the server may not be answering
    const closeMs = hurried ? 0 : this.canceller.cancelled.grace > 0 ? STALLED_CLOSE_MS : undefined
    await Promise.all([this.canceller.close(!hurried), this.pool.close({ timeoutMs: closeMs })])
    return this._finish()
  }

  /**
   * Terminals by state (keying, thinking, in a transaction, waiting for a connection): a pass
   * over the terminals, for a progress line.
   */
  terminalStates () {
    return countStates(this.terminals ?? [])
  }

  _finish () {
    const stages = this.recorder.stageWindows
    if (stages !== null && stages.current >= 0) {
      // the last stage reached holds the rest of the run (the grace; all of it when stopped early)
      stages.close(Math.max(0, (this.endUs ?? this.nowUs()) - this.measureStartUs) / 1e6, true)
    }
    const outcome = runOutcome({
      recorder: this.recorder,
      pool: this.pool,
      settings: this.settings,
      status: this.status,
      run: {
        startTime: this.startTime,
        measureStartUs: this.measureStartUs,
        endUs: this.endUs ?? this.nowUs(),
        initialConnectionMs: this.initialConnectionMs,
        terminals: this.terminalCount,
        abortedClients: this.abortedClients,
        cpuWindow: this.clock.cpuWindow
      },
      slowest: this.context.slowest
    })
    const staleness = this.context.staleness
    if (staleness !== null) outcome.staleness = staleness.section()
    return outcome
  }
}
