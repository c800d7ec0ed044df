// A run on worker threads (-j N): each worker runs a contiguous part of the terminals in a plain
// Run on its own event loop and connections (lib/engine/thread-worker.js); this main-thread side
// starts them together, merges their intervals as they close, passes their events on, and merges
// their outcomes exactly. It implements the run handle (lib/engine/run-handle.js) as Run does,
// so presenters cannot tell the difference.

import { EventEmitter } from 'node:events'
import { Worker } from 'node:worker_threads'
import { performance } from 'node:perf_hooks'
import { splitRange, sharesOf, checkParts } from '../plan/partition.js'
import { partSettings, sendableSettings } from '../plan/engine-settings.js'
import { stageEvent, stageOfInterval, stageAfterInterval } from '../metrics/stage-windows.js'
import { RunLifecycle } from './run-handle.js'
import { IntervalMerge, sumTerminals } from './interval-merge.js'
import { mergeOutcomes, threadedClient, partFromIntervals } from './thread-outcome.js'
import { restoreError } from './thread-messages.js'
import { threadCpu, threadCpuSince } from './thread-cpu.js'
import { PgloadError } from '../errors.js'

const WORKER = new URL('./thread-worker.js', import.meta.url)
// How long a worker may take to send its results once the run ends for it, past the grace: the
// 30 s thread-worker.js allows the workload's own figures, and 10 s more; then it is stopped as
// failed, so that one blocked thread cannot keep the run (and its results) from ending.
const ANSWER_MS = 40_000
// A worker that reports nothing for this long while the run goes on has a blocked or starved
// event loop: at least this many intervals, and never less than STALL_MIN_MS.
const STALL_INTERVALS = 10
const STALL_MIN_MS = 30_000

/**
 * @typedef {object} PartSource how a worker rebuilds the workload: `module` exports
 *   `buildPart(data, { thread, log })` (lib/orchestration/thread-part.js for a plan); `data` is cloned
 * @property {string} module URL
 * @property {any} data
 */

/** @implements {import('./run-handle.js').RunHandle} */
export class ThreadedRun extends EventEmitter {
  #life
  #cancelled = { grace: 0, abort: 0, timeout: 0 }

  /**
   * @param {object} workload the main thread's copy (its terminals and types; it runs none)
   * @param {import('../plan/engine-settings.js').EngineSettings} settings as for a Run; the
   *   range, connections and rate are split over the threads
   * @param {import('./run.js').RunRuntime} runtime seed and part go to the workers; they open
   *   their own connections (the source's)
   * @param {{ jobs: number, source: PartSource, spawn?: (url: URL, opts: object) => any, answerMs?: number, stallMs?: number }} threads
   *   spawn: makes a worker (tests give workers of their own); answerMs: how long a worker may take
   *   to send its results once the run ends for it (past the grace); stallMs: how long a running
   *   worker may send nothing
   */
  constructor (workload, settings, runtime, { jobs, source, spawn = (url, opts) => new Worker(url, opts), answerMs = ANSWER_MS, stallMs }) {
    super()
    const range = settings.range
    const group = workload.terminalGroup ?? 1
    checkParts(range, jobs, { group, what: `--jobs ${jobs}`, unit: group > 1 ? workload.terminalGroupName ?? `groups of ${group} terminals` : 'terminals' })
    this.settings = settings
    this.runtime = runtime
    this.jobs = jobs
    this.source = source
    this.spawn = spawn
    this.typeNames = workload.transactions.map((t) => t.name)
    this.ranges = Array.from({ length: jobs }, (_, i) => splitRange(range, jobs, i, { group }))
    this.terminalCount = range.count
    this.connectionShares = sharesOf(settings.connections, this.ranges)
    this.poolSize = this.connectionShares.reduce((a, b) => a + b, 0)
    // the part's --rate in proportion to its terminals: independent Poisson streams add up
    this.rates = this.ranges.map((r) => settings.rate > 0 ? settings.rate * r.count / range.count : settings.rate)
    this.#life = new RunLifecycle(this, () => this.#cancelled)
    this._workers = []
    this._states = new Array(jobs).fill(null)
    this._measuring = false
    this._answerMs = answerMs
    this._stallMs = stallMs ?? Math.max(STALL_MIN_MS, STALL_INTERVALS * settings.intervalUs / 1000)
    this._failed = false
    this._deadline = null
    this._watchdog = null
    this.on('stopping', () => this._answerBy(settings.graceUs / 1000 + answerMs, 'stopped'))
    this.on('aborting', () => this._answerBy(answerMs, 'aborted'))
  }

  /** @returns {Readonly<import('./run-handle.js').RunStatus>} */
  get status () { return this.#life.status() }

  /** The workload's progress figure: none, the main thread's copy runs no transaction. */
  progressText () { return null }

  /** Stop starting transactions in every worker (Ctrl-C once, or a worker's own end). */
  stop (reason = 'stopped') {
    if (!this.#life.stop(reason, this.settings.graceUs / 1e6)) return
    this._send({ t: 'stop', reason })
  }

  /** Stop at once in every worker (Ctrl-C twice, --exit-on-abort, a lost server, a crash). */
  abort (reason = 'aborted') {
    if (reason === 'interrupted' && this.#life.hurry()) this._send({ t: 'abort', reason })
    if (this.#life.state === 'aborting' || this.#life.state === 'finished') { this.#life.abort(reason); return }
    this.stop(reason)
    this.#life.abort(reason)
    this._send({ t: 'abort', reason })
  }

  /** Terminals by state, as the workers last reported them (once per interval). */
  terminalStates () {
    const { total, ...states } = sumTerminals(this._states)
    return states
  }

  _send (m) {
    for (const w of this._workers) if (!w.gone) w.worker.postMessage(m)
  }

  /**
   * Start the workers, run them to the end, and return the merged outcome.
   * @returns {Promise<object>}
   */
  execute () {
    return this.#life.settle(async () => {
      try {
        return await this._execute()
      } finally {
        clearTimeout(this._deadline)
        clearInterval(this._watchdog)
      }
    })
  }

  /**
   * Worker i's range of the run's shared activity slots (one per connection or terminal it may
   * hold at once), or undefined when the run has none.
   * @param {number} i
   */
  _activityShare (i) {
    const activity = this.runtime.activity
    if (!activity) return undefined
    const size = (k) => Math.max(this.connectionShares[k], this.ranges[k].count)
    let first = 0
    for (let k = 0; k < i; k++) first += size(k)
    return activity.share(first, Math.max(0, Math.min(size(i), activity.capacity - first)))
  }

  async _execute () {
    this._merge = new IntervalMerge(this.jobs, this.settings.intervalUs / 1e6, (e) => this._interval(e))
    const ready = []
    const finished = []
    const { seed, part } = this.runtime
    for (let i = 0; i < this.jobs; i++) {
      const settings = sendableSettings(partSettings(this.settings, { range: this.ranges[i], connections: this.connectionShares[i], rate: this.rates[i] }))
      const worker = this.spawn(WORKER, { workerData: { source: this.source, part: (part ?? 0) + i, seed, settings, activity: this._activityShare(i) } })
      const w = { worker, index: i, gone: false, result: null, crash: null, heardMs: performance.now() }
      this._workers.push(w)
      ready.push(new Promise((resolve) => { w.ready = resolve }))
      finished.push(new Promise((resolve) => { w.exited = resolve }))
      worker.on('message', (m) => this._onMessage(w, m))
      worker.on('error', (err) => this._crashed(w, err))
      worker.on('exit', () => { w.gone = true; if (!w.result && !w.crash) this._crashed(w, new Error('exited')); w.ready(null); w.exited() })
    }
    const connected = await Promise.all(ready)
    const gate = this.runtime.startGate
    if (this.#life.state === 'starting' && gate) await this._passGate(gate, finished)
    if (this.#life.state === 'starting') {
      this.#life.running(performance.now() * 1000)
      this._watch()
      this._send({ t: 'go', epochUs: (performance.timeOrigin + performance.now()) * 1000 })
      const ms = connected.filter((c) => c !== null).map((c) => c.initialConnectionMs ?? 0)
      this.emit('start', { terminals: this.terminalCount, connections: this.poolSize, initialConnectionMs: ms.length ? Math.max(...ms) : 0 })
    }
    await Promise.all(finished)
    return this._finish()
  }

  /** Once the run ends: every worker that has not answered within `ms` is stopped as failed. */
  _answerBy (ms, what) {
    const at = performance.now() + ms
    if (this._deadline !== null && this._deadlineAt <= at) return
    clearTimeout(this._deadline)
    this._deadlineAt = at
    this._deadline = setTimeout(() => {
      const s = Math.round(ms / 100) / 10
      for (const w of this._workers) if (!w.gone && !w.result && !w.crash) this._crashed(w, new Error(`no results ${s} s after the run ${what}`))
    }, ms)
  }

  /** While the run goes on: a worker silent for stallMs (it reports every interval) is stopped as failed. */
  _watch () {
    const everyMs = Math.min(1000, this._stallMs / 2)
    this._watchdog = setInterval(() => {
      if (this.#life.state !== 'running') return
      const now = performance.now()
      for (const w of this._workers) {
        if (w.gone || w.result || w.crash || now - w.heardMs <= this._stallMs) continue
        this._crashed(w, new Error(`no report for ${Math.round((now - w.heardMs) / 100) / 10} s (its event loop is blocked or starved of CPU)`))
      }
    }, everyMs)
  }

  /** The caller's start gate (the shards' barrier), passed once every worker is connected. */
  async _passGate (startGate, finished) {
    try {
      await startGate(this)
    } catch (err) {
      this._send({ t: 'abort', reason: 'start-failed' })
      await Promise.all(finished)
      throw err
    }
  }

  _onMessage (w, m) {
    w.heardMs = performance.now()
    switch (m.t) {
      case 'ready': return w.ready(m)
      case 'measuring': return this._beginMeasuring()
      case 'warmup-tick': return this._warmupTick(w, m.e)
      case 'interval':
        this._states[w.index] = m.e.terminals
        return this._merge.add(w.index, m.e)
      // a worker's own end (its duration): the others reach theirs on the same clock
      case 'stopping': return this.#life.stop(m.reason, this.settings.graceUs / 1e6)
      case 'aborting': return this.abort(m.reason)
      case 'event': return this._event(m.name, m.e)
      case 'done':
        if (w.crash) return // stopped as failed already: its closed intervals are what it measured
        w.result = m
        this._merge.end(w.index)
        // everything it had is in this message; handles it may still hold (idle timers) need no wait
        if (!w.gone) w.worker.terminate()
        return
      case 'crash': return this._crashed(w, restoreError(m.error))
    }
  }

  // warm-up progress: the workers' latest states and connections, once per interval (thread 0's)
  _warmupTick (w, e) {
    this._states[w.index] = e.terminals
    w.warm = e
    if (w.index !== 0) return
    const connections = { size: this.poolSize, active: 0, waiting: 0 }
    for (const x of this._workers) { connections.active += x.warm?.connections.active ?? 0; connections.waiting += x.warm?.connections.waiting ?? 0 }
    this.emit('warmup-tick', { elapsedS: e.elapsedS, warmupS: e.warmupS, connections, terminals: sumTerminals(this._states) })
  }

  _event (name, e) {
    if (name === 'internal-error') return this.emit(name, restoreError(e))
    if (name === 'cancelled') {
      this.#cancelled[e.reason] = (this.#cancelled[e.reason] ?? 0) + e.count
      return
    }
    if (e?.error) e.error = restoreError(e.error)
    this.emit(name, e)
  }

  /**
   * A worker failed outside its transactions, or stopped answering: the first says so in one line
   * (the others follow from it), and the run ends with what was measured.
   */
  _crashed (w, err) {
    if (w.crash || w.result) return
    w.crash = err
    this._merge?.end(w.index)
    if (!this._failed) {
      this._failed = true
      const line = new Error(`worker thread ${w.index} stopped: ${String(err?.message ?? err).split('\n')[0]}`)
      line.stack = line.message
      this.emit('internal-error', line)
    }
    this.abort('internal-error')
    w.ready(null)
    if (!w.gone) w.worker.terminate()
  }

  _beginMeasuring () {
    if (this._measuring) return
    this._measuring = true
    this._cpuStart = process.cpuUsage()
    this._mainCpuStart = threadCpu()
    this.emit('measuring')
    if (this.settings.profile) this.emit('stage', stageEvent(this.settings.profile, 0))
  }

  /** A merged interval: its stage, and the next stage's event when it begins after it. */
  _interval (e) {
    const profile = this.settings.profile ?? null
    const intervalUs = this.settings.intervalUs
    e.stage = stageOfInterval(profile, e.index, intervalUs)
    this.emit('interval', e)
    this.emit('tick', e)
    const next = e.final ? -1 : stageAfterInterval(profile, e.index, intervalUs)
    if (next > 0) this.emit('stage', stageEvent(profile, next))
  }

  _finish () {
    const cpu = this._cpuStart ? process.cpuUsage(this._cpuStart) : null
    const mainCpu = this._cpuStart ? threadCpuSince(this._mainCpuStart) : null
    const done = this._workers.filter((w) => w.result)
    const cancelled = this.#cancelled
    if (cancelled.grace > 0) this.emit('cancelled', { reason: 'grace', count: cancelled.grace, graceS: done[0]?.result.outcome.graceS })
    if (done.length === 0) {
      const why = String(this._workers.find((w) => w.crash)?.crash?.message ?? 'exited').split('\n')[0]
      throw new PgloadError(`every worker thread stopped (${why}): nothing was measured to the end`, { code: 'WORKER_FAILED', exitCode: 2 })
    }
    // a worker that failed: what it had measured, from the intervals it closed
    const parts = this._workers.map((w) => w.result ?? partFromIntervals(this._merge.byPart[w.index], this.typeNames))
    const outcome = mergeOutcomes(parts, { intervals: this._merge.intervals, intervalS: this.settings.intervalUs / 1e6, typeNames: this.typeNames, slowest: this.settings.slowest })
    const status = this.status
    outcome.terminals = this.terminalCount
    outcome.connections = this.poolSize
    outcome.threads = this.jobs
    outcome.aborted = outcome.aborted || (status.abortReason !== null && status.abortReason !== 'interrupted')
    outcome.abortReason = status.abortReason ?? outcome.abortReason
    outcome.interrupted = status.interrupted || outcome.interrupted
    Object.assign(this.#cancelled, outcome.cancelled)
    const attempts = outcome.summary.transactions + outcome.summary.failed
    outcome.client = threadedClient(cpu, this._workers.map((w) => w.result?.thread ?? null), attempts)
    // the main thread's own share: progress, merging, statistics (the rest is the workers' and V8's)
    outcome.client.mainThreadCpuUs = mainCpu ? Math.round(mainCpu.cpuUs) : null
    // each finished worker's own sections (the workload's afterRun combines them, and merges what
    // is its own: the scripts' per-command statistics)
    const sections = done.map((w) => w.result.sections).filter(Boolean)
    this.partSections = sections
    outcome.partSections = sections
    return outcome
  }
}
