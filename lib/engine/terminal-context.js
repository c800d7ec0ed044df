// What a terminal sees of its run: the clock, the scheduler, the pool, the recorder, the settings
// of the plan it needs, the run-wide random streams, and a few callbacks to report back. Built
// once per run; every terminal shares it. Terminals read nothing else of the run.

import { SlowestKeeper } from './slowest-keeper.js'
import { chooseWeighted } from '../random/weighted-choice.js'
import { StagedArrivals } from './staged-arrivals.js'
import { ActiveClients } from './active-clients.js'

/**
 * The callbacks through which terminals report to their run (each rare: never per transaction).
 * @typedef {object} TerminalEvents
 * @property {(terminal: any) => void} finished a terminal is done (its limit, the end, an abort)
 * @property {(terminal: any, err: Error) => void} clientAborted a terminal stopped on an error
 * @property {(terminal: any, err: any) => void} otherError a transaction failed, not retryably
 * @property {(terminal: any, err: any, tries: number, willRetry: boolean) => void} retryableError
 *   a serialization failure or deadlock (only with verboseErrors)
 * @property {(err: Error) => void} internalError a bug, not a database error: the run stops
 * @property {(conn: any, now: boolean) => void} cancelConnection cancel what a connection runs,
 *   then destroy it (`now`: at once)
 */

/**
 * What terminals read of the run's EngineSettings (lib/plan/engine-settings.js): pacing, limits
 * and retries, every one given.
 * @typedef {Pick<import('../plan/engine-settings.js').EngineSettings, 'paced'|'transactionsPerClient'|'rate'|'latencyLimitUs'|'maxTries'|'verboseErrors'|'profile'|'rampUs'|'terminals'|'range'>} TerminalSettings
 */

export class TerminalContext {
  /**
   * @param {object} p
   * @param {() => number} p.nowUs monotonic microseconds
   * @param {import('./scheduler.js').Scheduler} p.scheduler
   * @param {import('./pool.js').ConnectionPool} p.pool
   * @param {import('./pool.js').ConnectionPool[]} [p.typePools] per transaction type, the pool of
   *   its server (--route); absent: every type takes from `pool`
   * @param {import('../metrics/recorder.js').Recorder} p.recorder
   * @param {object} p.workload its hooks: choose, createTerminalState, onTransactionEnd
   * @param {object[]} p.types the transaction types as this run runs them (think time applied)
   * @param {{ choose: import('../random/prng.js').Prng, throttle: import('../random/prng.js').Prng }} p.random
   *   the run-wide generators: the choice of type, and every wait (arrivals, keying, think times)
   * @param {(id: number) => { choose: import('../random/prng.js').Prng, wait: import('../random/prng.js').Prng }} [p.terminalStreams]
   *   a terminal's own generators for its type choice and its keying and think times (the
   *   arrivals of --rate stay run-wide); absent: every terminal draws from `random`
   * @param {TerminalSettings} p.settings
   * @param {TerminalEvents} p.events
   * @param {import('pino').Logger} [p.log]
   * @param {import('./activity-slots.js').ActivitySlots|null} [p.activity] where terminals say
   *   what each connection runs (the wait sampler reads it); null: nobody reads it
   */
  constructor ({ nowUs, scheduler, pool, typePools, recorder, workload, types, random, terminalStreams, settings, events, log, activity = null }) {
    this.nowUs = nowUs
    this.scheduler = scheduler
    this.pool = pool
    this.typePools = typePools ?? types.map(() => pool)
    this.recorder = recorder
    this.types = types
    this.log = log
    this.activity = activity
    /** @type {import('./slowest-keeper.js').SlowestKeeper|null} the slowest transactions' parameters (--explain-slowest) */
    this.slowest = settings.slowest > 0 && workload.captureParameters ? new SlowestKeeper(types.length, settings.slowest, (type, state, randomState) => workload.captureParameters(type, state, randomState)) : null
    this.waitRandom = random.throttle
    this.chooseRandom = random.choose
    this.terminalStreams = terminalStreams ?? null
    this.paced = settings.paced
    this.transactionsPerClient = settings.transactionsPerClient
    // mean microseconds between two arrivals (--rate); 0: closed model or --stages
    this.rateIntervalUs = settings.rate > 0 ? 1e6 / settings.rate : 0
    const profile = settings.profile ?? null
    // open model: a terminal waits for an arrival (--rate, or the arrivals of --stages)
    this.openModel = this.rateIntervalUs > 0 || profile?.kind === 'rate'
    /** --stages: this part's arrivals and their bounded queue; null otherwise */
    this.arrivals = null
    /** --stages: free terminals waiting while another holds the next arrival; null otherwise */
    this.parked = null
    if (profile?.kind === 'rate') {
      this.parked = []
      const share = settings.range ? settings.range.count / settings.terminals : 1
      const arrivals = this.arrivals = new StagedArrivals(profile, share, random.throttle, recorder)
      this.nextArrivalUs = () => arrivals.take(this.nowUs())
    }
    /** --clients-stages: when each terminal may run; null otherwise */
    this.activeClients = profile?.kind === 'clients' ? new ActiveClients(profile) : null
    // --ramp: terminal i's first start, in microseconds after the run's start
    this.rampStepUs = settings.rampUs > 0 ? settings.rampUs / settings.terminals : 0
    this.startUs = 0
    this.latencyLimitUs = settings.latencyLimitUs
    this.maxTries = settings.maxTries
    this.verboseErrors = settings.verboseErrors
    this.events = events
    // The run's window and state, set by the run only: transactions that end before
    // measureStartUs are not recorded; no arrival is scheduled at or after deadlineUs.
    this.measureStartUs = 0
    this.deadlineUs = Infinity
    this.stopping = false
    this.aborting = false
    this.expired = false
    this._workload = workload
    this._weights = types.map((t) => t.weight ?? 1)
    this._totalWeight = this._weights.reduce((s, w) => s + w, 0)
    this._throttleTriggerUs = 0
    this._info = { type: '', status: '', latencyUs: 0, lagUs: 0, tries: 1, sqlstate: null, scheduledEpochUs: 0, endEpochUs: 0 }
    // the monotonic clock's zero on the wall clock, read once (the getter costs a call per read)
    this._originEpochUs = performance.timeOrigin * 1000
    this.hasTransactionEnd = typeof workload.onTransactionEnd === 'function'
    /** --staleness: the stamps and their checks (lib/engine/staleness.js); null otherwise */
    this.staleness = null
  }

  /**
   * The clock starts: the rate schedule begins now; the measured window and the deadline.
   * @param {number} startUs @param {number} measureStartUs @param {number} deadlineUs
   */
  begin (startUs, measureStartUs, deadlineUs) {
    this._throttleTriggerUs = startUs
    this.startUs = startUs
    this.arrivals?.begin(startUs, measureStartUs, deadlineUs)
    this.activeClients?.begin(measureStartUs, deadlineUs)
    this.measureStartUs = measureStartUs
    this.deadlineUs = deadlineUs
  }

  /**
   * The workload's state for a new terminal (its createTerminalState), or null.
   * @param {number} id @param {import('../random/prng.js').Prng} random
   */
  createState (id, random) {
    const w = this._workload
    return w.createTerminalState ? w.createTerminalState(id, random) : null
  }

  /**
   * The next transaction type: the workload's choice (TPC-C's deck), else by weight.
   * @param {import('./terminal.js').Terminal} terminal the workload's ctx
   * @returns {number} index into types
   */
  chooseType (terminal) {
    const w = this._workload
    return w.choose ? w.choose(terminal) : this.weightedType(terminal)
  }

  /**
   * A paced terminal's staggered first wait, so terminals do not march in lockstep: the
   * workload's own ramp-up (`firstWaitUs(random)`) if it has one, else a think time and part of
   * a keying time of a type (a workload's own choice is not spent on it).
   * @param {{ waitRandom: import('../random/prng.js').Prng, chooseRandom: import('../random/prng.js').Prng|null }} terminal
   * @returns {number} microseconds
   */
  firstWaitUs (terminal) {
    const w = this._workload
    const random = terminal.waitRandom
    if (w.firstWaitUs) return w.firstWaitUs(random)
    const first = this.types[w.choose ? 0 : this.weightedType(terminal)]
    return (first.thinkUs ? first.thinkUs.sampleUs(random) : 0) + random.double() * (first.keyingUs?.meanUs ?? 0)
  }

  /**
   * pgbench's chooseScript: one draw in [0, total) from the terminal's own choose generator, or
   * the run-wide one.
   * @param {{ chooseRandom: import('../random/prng.js').Prng|null }} terminal
   */
  weightedType (terminal) {
    if (this._weights.length === 1) return 0
    return chooseWeighted(this._weights, this._totalWeight, terminal.chooseRandom ?? this.chooseRandom)
  }

  /** The next Poisson arrival of the run-wide schedule (pgbench -R). The schedule never slips. */
  nextArrivalUs () {
    const delay = Math.floor(-Math.log(1 - this.waitRandom.double()) * this.rateIntervalUs + 0.5)
    this._throttleTriggerUs += delay
    return this._throttleTriggerUs
  }

  /**
   * Whether a transaction may be tried again (pgbench --max-tries rules).
   * @param {number} triesSoFar @param {number} intendedUs its intended start
   */
  canRetry (triesSoFar, intendedUs) {
    if (this.aborting) return false
    if (this.maxTries > 0 && triesSoFar >= this.maxTries) return false
    if (this.latencyLimitUs > 0 && this.nowUs() - intendedUs > this.latencyLimitUs) return false
    if (this.expired) return false
    return true
  }

  /** The workload's onTransactionEnd hook (pgbench's --log), with one reused info object. */
  reportTransaction (terminal, type, status, latencyUs, lagUs, tries, sqlstate, intendedUs, endUs) {
    const info = this._info
    info.type = type
    info.status = status
    info.latencyUs = latencyUs
    info.lagUs = lagUs
    info.tries = tries
    info.sqlstate = sqlstate
    info.scheduledEpochUs = this._originEpochUs + intendedUs
    info.endEpochUs = this._originEpochUs + endUs
    this._workload.onTransactionEnd(terminal, info)
  }
}
