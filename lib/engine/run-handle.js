// The run handle: the one interface of a running benchmark that the command line, runBenchmark,
// the presenters (progress, messages, a live view, a metrics endpoint), the shards and the sweep
// use. `Run` (one event loop) and `ThreadedRun` (worker threads) both implement it, with the same
// status, commands, events and payloads. `RunLifecycle` keeps the status for either of them, so
// the transitions are written once; nothing outside a run writes its state.

/**
 * Where a run is. Transitions only go forward: starting -> running -> stopping -> aborting ->
 * finished, any of the middle ones skipped (a run stopped before its start goes from starting to
 * stopping; a -t run that completes goes from running to finished).
 * @typedef {'starting'|'running'|'stopping'|'aborting'|'finished'} RunState
 *   starting: connections opening, or waiting at the start gate (shards, worker threads);
 *   running: terminals started; stopping: no transaction starts, those in flight get the grace;
 *   aborting: nothing more is recorded or retried; finished: execute() settled
 */

/**
 * Why a run stops or aborts (the `reason` of stop() and abort(), and of the status).
 * @typedef {'duration'|'completed'|'interrupted'|'exit-on-abort'|'connection-lost'|'internal-error'|'start-failed'|'stopped'|'aborted'|string} RunReason
 *   duration: the measured duration is over; completed: every terminal ran its transactions
 *   (pgbench -t) or ended; interrupted: Ctrl-C or SIGTERM; exit-on-abort: a client aborted or a
 *   transaction failed with --exit-on-abort; connection-lost: no connection could be opened again
 *   for serverLostS; internal-error: a bug or a worker thread that died; start-failed: the start
 *   gate (shards' barrier) failed; stopped / aborted: a library caller's default
 */

/**
 * The read-only status of a run (`run.status`, a frozen snapshot; the 'status' event's payload).
 * @typedef {object} RunStatus
 * @property {RunState} state
 * @property {RunReason|null} reason why it stops, aborts or finished: the abort's reason when it
 *   was aborted, else the stop's, 'completed' when it ended by itself; null while starting/running
 * @property {RunReason|null} stopReason the first stop's reason
 * @property {RunReason|null} abortReason the abort's reason (null: not aborted)
 * @property {boolean} interrupted the user interrupted it (Ctrl-C, SIGTERM), also when it was
 *   already stopping on its own; the results say so and the exit status is 130/143
 * @property {boolean} hurried Ctrl-C twice: transactions in flight are cancelled, sockets
 *   destroyed, and nothing read from the server after the run is waited for
 * @property {number|undefined} startUs when the terminals started, on the run's monotonic clock
 *   (performance.now() microseconds); undefined before (a shard waiting at its barrier)
 * @property {{ grace: number, abort: number, timeout: number }} cancelled transactions cancelled
 *   so far: after the grace, by an abort, by --transaction-timeout
 */

/**
 * Connections of the run's pool (with worker threads: summed over the threads).
 * @typedef {object} ConnectionUse
 * @property {number} size the pool size (connections the run may hold)
 * @property {number} active lent to a transaction at the reading
 * @property {number} waiting terminals waiting for a connection at the reading
 */

/**
 * Terminals by state at the reading (with worker threads: summed, as each thread last reported).
 * @typedef {object} TerminalUse
 * @property {number} total the run's terminals (this part's, for a shard)
 * @property {number} keying
 * @property {number} thinking think time, or the first wait of a paced terminal
 * @property {number} running in a transaction
 * @property {number} waiting for a connection
 * @property {number} finished
 * @property {number} paused outside the active terminals of --clients-stages
 */

/**
 * One transaction type's counts in an interval: the recorder's (lib/metrics/recorder.js).
 * @typedef {import('../metrics/type-stats.js').IntervalTypeCounts} IntervalTypeCounts
 */

/**
 * The 'interval' event: one interval of the measured window closed. The same for Run and
 * ThreadedRun (whose main thread merges its workers' interval k once each has closed it, so the
 * histograms are exact, not averaged). A dashboard or a metrics endpoint needs nothing else:
 * per-type encoded histograms (decode with lib/metrics/histogram.js decodeHistogram, merge by
 * adding), counts, failures, retries, schedule lag, and the connections and terminals in use.
 * @typedef {object} IntervalEvent
 * @property {number} index 0-based number of the interval in the measured window
 * @property {number} elapsedS end of the interval, seconds since the measured window opened
 * @property {number} lengthS the interval's length (intervalS; the last may be shorter)
 * @property {boolean} final the ragged last interval, closed when the run ended (the summary
 *   follows; a progress line skips it)
 * @property {import('../metrics/recorder.js').IntervalEntry} interval the entry as the results
 *   document keeps it: `count` and encoded `histograms` per type (latency, microseconds), `tps`,
 *   `failed`, `skipped`, `latencyMs`, `lagMs` / `lagHistogram` (schedule lag), `queueMs` /
 *   `queueHistogram` (wait for a connection)
 * @property {Record<string, IntervalTypeCounts>} types per transaction type, by name
 * @property {ConnectionUse} connections at the interval's close
 * @property {TerminalUse} terminals at the interval's close
 * @property {number|null} stage the 0-based stage the interval belongs to (--stages,
 *   --clients-stages; the results' `stages[]`), null in a run without stages
 */

/**
 * The 'stage' event: made by the recorder's stages (lib/metrics/stage-windows.js).
 * @typedef {import('../metrics/stage-windows.js').StageEvent} StageEvent
 */

/**
 * The 'warmup-tick' event: an interval of the warm-up or ramp-up passed (nothing is measured).
 * @typedef {object} WarmupEvent
 * @property {number} elapsedS since the start
 * @property {number} warmupS the warm-up's length
 * @property {ConnectionUse} connections
 * @property {TerminalUse} terminals
 */

/**
 * The 'start' event: the terminals start (after the pool opened and any start gate).
 * @typedef {object} StartEvent
 * @property {number} terminals
 * @property {number} connections the pool size
 * @property {number} initialConnectionMs how long opening the pool took (the slowest thread's)
 */

/**
 * The 'terminal-aborted' event: a terminal stopped on an error (pgbench's aborted client: a
 * script error, a connection that could not be opened with -C).
 * @typedef {{ terminalId: number, error: Error }} TerminalAbortedEvent
 */

/**
 * The 'server-lost' event: no connection could be opened for serverLostS (or while stopping):
 * the run aborts with reason 'connection-lost'. Emitted once, just before 'aborting'.
 * @typedef {{ error: Error, failingForMs: number, serverLostS: number }} ServerLostEvent
 */

/**
 * The 'stopping' event: no transaction starts any more; those in flight get graceS.
 * @typedef {{ reason: RunReason, interrupted: boolean, graceS: number }} StoppingEvent
 */

/**
 * The 'aborting' event: the run aborts (nothing more is recorded or retried). With Ctrl-C twice
 * after another abort, a 'status' event with `hurried` follows, not a second 'aborting'.
 * @typedef {{ reason: RunReason, interrupted: boolean, hurried: boolean }} AbortingEvent
 */

/**
 * The 'finished' event: execute() is about to settle. `outcome` is what it resolves to (the
 * measured figures that buildResults turns into a results document), or null with `error` when
 * the run could not start (execute() rejects with it).
 * @typedef {{ status: RunStatus, outcome: object|null, error?: Error }} FinishedEvent
 */

/**
 * The run handle. Events (all rare: per interval or per change, never per transaction):
 * - 'status' (RunStatus): every change of state, interrupted or hurried
 * - 'start' (StartEvent), 'measuring' (the measured window opens), 'warmup-tick' (WarmupEvent)
 * - 'interval' (IntervalEvent); 'tick' carries the same payload, for callers written before
 * - 'stage' (StageEvent): a stage of --stages or --clients-stages begins
 * - 'terminal-aborted', 'server-lost', 'stopping', 'aborting', 'finished' (see their payloads)
 * - diagnostics for the messages and the log: 'notice' (server NOTICE), 'transaction-error'
 *   ({ terminalId, message, code }: the first failures), 'retryable-error' (with verboseErrors:
 *   { terminalId, error, tries, maxTries, willRetry }), 'prepare-error' ({ error, statement }),
 *   'connection-error' ({ error, failingForMs }: re-opening fails, retried up to serverLostS),
 *   'reconnected' ({ failedForMs }: a connection re-opened after re-opening had failed for this long),
 *   'cancelled' ({ reason: 'grace'|'abort', count, graceS }), 'internal-error' (Error)
 * @typedef {import('node:events').EventEmitter & {
 *   readonly status: RunStatus,
 *   readonly settings: import('../plan/engine-settings.js').EngineSettings,
 *   readonly terminalCount: number,
 *   readonly poolSize: number,
 *   execute(): Promise<object>,
 *   stop(reason?: RunReason): void,
 *   abort(reason?: RunReason): void,
 *   terminalStates(): Omit<TerminalUse, 'total'>,
 *   progressText(sinceStartS: number): string|null,
 *   nextStage?(ratePerS: number, opts?: { dropWaiting?: boolean }): StageEvent
 * }} RunHandle
 *   execute(): open the pool, run to the end, resolve the outcome (rejects when it cannot start);
 *   stop(reason): no transaction starts any more, those in flight finish within the grace
 *   (Ctrl-C once); a no-op once stopping. abort(reason): stop at once, what was measured is
 *   still reported; abort('interrupted') (Ctrl-C twice) also cancels what is in flight and
 *   marks the run interrupted. terminalStates(): a pass over the terminals (progress lines).
 *   progressText(s): the workload's own progress figure (TPC-C's tpmC), or null.
 *   nextStage(r): an adaptive stage of a --stages run (one thread only: `Run`; `pgload
 *   capacity`): called from an 'interval' listener, the open stage ends at that interval's edge
 *   and a new one begins there at r arrivals per second, to the profile's end; a 'stage' event
 *   follows and the results' stages[] gets the stage. dropWaiting: the arrivals still waiting
 *   for a terminal are dropped (counted in the new stage).
 */

/** @type {readonly RunState[]} in the order a run goes through them */
export const RUN_STATES = Object.freeze(['starting', 'running', 'stopping', 'aborting', 'finished'])

const RANK = Object.fromEntries(RUN_STATES.map((s, i) => [s, i]))

/**
 * The status of one run and its transitions, with their events: held privately by `Run` and by
 * `ThreadedRun`, so that both move through the same states and say so in the same words.
 */
export class RunLifecycle {
  #emitter
  #cancelled
  #state = /** @type {RunState} */ ('starting')
  #stopReason = null
  #abortReason = null
  #interrupted = false
  #hurried = false
  #startUs = undefined
  #snapshot = null

  /**
   * @param {import('node:events').EventEmitter} emitter the run, which emits the events
   * @param {() => { grace: number, abort: number, timeout: number }} cancelled the counts so far
   */
  constructor (emitter, cancelled) {
    this.#emitter = emitter
    this.#cancelled = cancelled
  }

  /** @returns {RunState} */
  get state () { return this.#state }
  get hurried () { return this.#hurried }
  get interrupted () { return this.#interrupted }
  /** @returns {number|undefined} */
  get startUs () { return this.#startUs }

  /** @returns {Readonly<RunStatus>} a frozen snapshot, made again only after a change */
  status () {
    const cancelled = this.#cancelled()
    const s = this.#snapshot
    if (s && s.cancelled.grace === cancelled.grace && s.cancelled.abort === cancelled.abort && s.cancelled.timeout === cancelled.timeout) return s
    const reason = this.#abortReason ?? this.#stopReason ?? (this.#state === 'finished' ? 'completed' : null)
    this.#snapshot = Object.freeze({
      state: this.#state,
      reason,
      stopReason: this.#stopReason,
      abortReason: this.#abortReason,
      interrupted: this.#interrupted,
      hurried: this.#hurried,
      startUs: this.#startUs,
      cancelled: Object.freeze({ grace: cancelled.grace, abort: cancelled.abort, timeout: cancelled.timeout })
    })
    return this.#snapshot
  }

  /** The terminals started. @param {number} startUs on the run's clock */
  running (startUs) {
    this.#startUs = startUs
    this.#moveTo('running')
  }

  /**
   * The run stops (a no-op once stopping): 'stopping', then 'status'.
   * @param {RunReason} reason @param {number} graceS
   * @returns {boolean} whether this call stopped it
   */
  stop (reason, graceS) {
    if (RANK[this.#state] >= RANK.stopping) return false
    this.#stopReason = reason
    if (reason === 'interrupted') this.#interrupted = true
    this.#state = 'stopping'
    this.#snapshot = null
    this.#emitter.emit('stopping', { reason, interrupted: this.#interrupted, graceS })
    this.#emitter.emit('status', this.status())
    return true
  }

  /**
   * The run aborts (a no-op once aborting): 'aborting', then 'status'. The stop's reason stays
   * the first one; abort('interrupted') marks the run interrupted whatever it was doing.
   * @param {RunReason} reason
   * @returns {boolean} whether this call aborted it
   */
  abort (reason) {
    const marked = reason === 'interrupted' && !this.#interrupted
    if (marked) { this.#interrupted = true; this.#snapshot = null }
    if (RANK[this.#state] >= RANK.aborting) {
      if (marked) this.#emitter.emit('status', this.status())
      return false
    }
    this.#stopReason ??= reason
    this.#abortReason = reason
    this.#state = 'aborting'
    this.#snapshot = null
    this.#emitter.emit('aborting', { reason, interrupted: this.#interrupted, hurried: this.#hurried })
    this.#emitter.emit('status', this.status())
    return true
  }

  /**
   * Ctrl-C twice: nothing more is waited for. Emits 'status' the first time.
   * @returns {boolean} whether this call hurried it
   */
  hurry () {
    if (this.#hurried) return false
    this.#hurried = true
    this.#interrupted = true
    this.#snapshot = null
    this.#emitter.emit('status', this.status())
    return true
  }

  /**
   * execute() is settling: 'status', then 'finished'.
   * @param {object|null} outcome @param {Error} [error] why it could not start
   */
  finish (outcome, error) {
    this.#moveTo('finished')
    this.#emitter.emit('finished', error ? { status: this.status(), outcome, error } : { status: this.status(), outcome })
  }

  /**
   * Run a run's body to its end and settle: 'finished' with its outcome, or with the error it
   * threw (which is thrown on).
   * @param {() => Promise<object>} body
   * @returns {Promise<object>} the outcome
   */
  async settle (body) {
    let outcome
    try {
      outcome = await body()
    } catch (err) {
      this.finish(null, err)
      throw err
    }
    this.finish(outcome)
    return outcome
  }

  #moveTo (state) {
    if (RANK[state] <= RANK[this.#state]) return
    this.#state = state
    this.#snapshot = null
    this.#emitter.emit('status', this.status())
  }
}
