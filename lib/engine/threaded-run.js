// A run on worker threads (-j N): each worker runs a contiguous part of the terminals in a plain
// Run on its own event loop and connections (lib/engine/thread-worker.js); this main-thread side
// starts them together, merges their intervals as they close, passes their events on, and merges
// their outcomes exactly. It has the Run's interface, so presenters cannot tell the difference.

import { EventEmitter } from 'node:events'
import { Worker } from 'node:worker_threads'
import { performance } from 'node:perf_hooks'
import { splitRange, wholeRange, shareOf, checkParts } from '../plan/partition.js'
import { defaultConnections } from './run.js'
import { IntervalMerge } from './interval-merge.js'
import { mergeOutcomes, threadedClient, partFromIntervals } from './thread-outcome.js'
import { restoreError } from './thread-messages.js'
import { threadCpu, threadCpuSince } from './thread-cpu.js'
import { PgloadError } from '../errors.js'

const WORKER = new URL('./thread-worker.js', import.meta.url)

/**
 * @typedef {object} PartSource how a worker rebuilds the workload: `module` exports
 *   `buildPart(data, { thread, log })` (lib/orchestration/thread-part.js for a plan); `data` is cloned
 * @property {string} module URL
 * @property {any} data
 */

export class ThreadedRun extends EventEmitter {
  /**
   * @param {object} workload the main thread's copy (its terminals and types; it runs none)
   * @param {import('./run.js').RunOptions} opts as for a Run; the range, rate and connections are split
   * @param {{ jobs: number, source: PartSource }} threads
   */
  constructor (workload, opts, { jobs, source }) {
    super()
    const all = workload.terminals ?? opts.clients
    const range = opts.terminalRange ?? wholeRange(all)
    const group = workload.terminalGroup ?? 1
    checkParts(range, jobs, { group, what: `--jobs ${jobs}`, unit: group > 1 ? workload.terminalGroupName ?? `groups of ${group} terminals` : 'terminals' })
    // what presenters read of the workload: not its progress text, which counts the
    // transactions of the main thread's copy (none: the workers run them all)
    this.workload = { name: workload.name, transactions: workload.transactions }
    this.opts = opts
    this.jobs = jobs
    this.source = source
    this.typeNames = workload.transactions.map((t) => t.name)
    this.paced = Boolean(opts.thinkTime) || workload.transactions.some((t) => t.thinkUs || t.keyingUs)
    this.intervalS = opts.intervalS ?? 1
    this.serverLostS = opts.serverLostS ?? 10
    this.ranges = Array.from({ length: jobs }, (_, i) => splitRange(range, jobs, i, { group }))
    this.terminalCount = range.count
    const pool = opts.connectPerTransaction ? range.count : Math.min(range.count, opts.connections ?? defaultConnections(workload, opts, range.count))
    this.connectionShares = this.ranges.map((r, i) => shareOf(pool, this.ranges, i))
    this.poolSize = this.connectionShares.reduce((a, b) => a + b, 0)
    // the part's --rate in proportion to its terminals: independent Poisson streams add up
    this.rates = this.ranges.map((r) => opts.rate > 0 ? opts.rate * r.count / range.count : opts.rate)
    this.canceller = { cancelled: { grace: 0, abort: 0, timeout: 0 } }
    this.hurry = false
    this.interrupted = false
    this.stopping = false
    this.aborting = false
    this.stopReason = undefined
    this.abortReason = undefined
    this._workers = []
    this._states = new Array(jobs).fill(null)
    this._measuring = false
  }

  /** Stop starting transactions in every worker (Ctrl-C once). */
  stop (reason = 'stopped') {
    if (this.stopping) return
    this.stopping = true
    this.stopReason = reason
    if (reason === 'interrupted') this.interrupted = true
    this._send({ t: 'stop', reason })
  }

  /** Stop at once in every worker (Ctrl-C twice, --exit-on-abort, a lost server, a crash). */
  abort (reason = 'aborted') {
    if (reason === 'interrupted' && !this.hurry) {
      this.hurry = true
      this.emit('abort', { reason })
      this._send({ t: 'abort', reason })
    }
    if (this.aborting) return
    this.stopping = true
    this.aborting = true
    this.abortReason = reason
    this._send({ t: 'abort', reason })
  }

  /** Terminals by state, as the workers last reported them (once per interval). */
  terminalStates () {
    const sum = { keying: 0, thinking: 0, running: 0, waiting: 0, finished: 0 }
    for (const s of this._states) if (s) for (const k of Object.keys(sum)) sum[k] += s[k]
    return sum
  }

  _send (m) {
    for (const w of this._workers) if (!w.gone) w.worker.postMessage(m)
  }

  /**
   * Start the workers, run them to the end, and return the merged outcome.
   * @returns {Promise<object>}
   */
  async execute () {
    const { log, openConnection, seeds, thinkTime, nowUs, terminalRange, startGate, part, ...plain } = this.opts
    this._merge = new IntervalMerge(this.jobs, this.intervalS, (tick) => this.emit('tick', tick))
    const ready = []
    const finished = []
    for (let i = 0; i < this.jobs; i++) {
      const runOptions = { ...plain, terminalRange: this.ranges[i], connections: this.connectionShares[i], rate: this.rates[i] }
      const worker = new Worker(WORKER, { workerData: { source: this.source, part: (part ?? 0) + i, runOptions } })
      const w = { worker, index: i, gone: false, result: null, crash: null }
      this._workers.push(w)
      ready.push(new Promise((resolve) => { w.ready = resolve }))
      finished.push(new Promise((resolve) => { w.exited = resolve }))
      worker.on('message', (m) => this._onMessage(w, m))
      worker.on('error', (err) => this._crashed(w, err))
      worker.on('exit', () => { w.gone = true; if (!w.result && !w.crash) this._crashed(w, new Error('exited')); w.ready(null); w.exited() })
    }
    const connected = await Promise.all(ready)
    if (!this.stopping && startGate) await this._passGate(startGate, finished)
    if (!this.stopping) {
      this.startUs = performance.now() * 1000
      this._send({ t: 'go', epochUs: (performance.timeOrigin + performance.now()) * 1000 })
      const ms = connected.filter((c) => c !== null).map((c) => c.initialConnectionMs ?? 0)
      this.emit('start', { terminals: this.terminalCount, connections: this.poolSize, initialConnectionMs: ms.length ? Math.max(...ms) : 0 })
    }
    await Promise.all(finished)
    return this._finish()
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
    switch (m.t) {
      case 'ready': return w.ready(m)
      case 'measuring': return this._beginMeasuring()
      case 'warmup-tick': return this._warmupTick(w, m)
      case 'tick':
        this._states[w.index] = m.states
        return this._merge.add(w.index, m.index, m.e)
      case 'aborting': return this.abort(m.reason)
      case 'event': return this._event(m.name, m.e)
      case 'done':
        w.result = m
        this._merge.end(w.index)
        // everything it had is in this message; handles it may still hold (idle timers) need no wait
        if (!w.gone) w.worker.terminate()
        return
      case 'crash': return this._crashed(w, restoreError(m.error))
    }
  }

  // warm-up progress: the workers' latest states and connections, once per interval (thread 0's)
  _warmupTick (w, m) {
    this._states[w.index] = m.states
    w.warm = m.e
    if (w.index !== 0) return
    let active = 0; let waiting = 0
    for (const x of this._workers) { active += x.warm?.activeConnections ?? 0; waiting += x.warm?.waiting ?? 0 }
    this.emit('warmup-tick', { ...m.e, activeConnections: active, waiting })
  }

  _event (name, e) {
    if (name === 'internal-error') return this.emit(name, restoreError(e))
    if (name === 'cancelled') {
      this.canceller.cancelled[e.reason] = (this.canceller.cancelled[e.reason] ?? 0) + e.count
      return
    }
    if (e?.error) e.error = restoreError(e.error)
    this.emit(name, e)
  }

  /** A worker failed outside its transactions: one line, and the run ends with what was measured. */
  _crashed (w, err) {
    if (w.crash || w.result) return
    w.crash = err
    this._merge?.end(w.index)
    const line = new Error(`worker thread ${w.index} stopped: ${String(err?.message ?? err).split('\n')[0]}`)
    line.stack = line.message
    this.emit('internal-error', line)
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
  }

  _finish () {
    const cpu = this._cpuStart ? process.cpuUsage(this._cpuStart) : null
    const mainCpu = this._cpuStart ? threadCpuSince(this._mainCpuStart) : null
    const done = this._workers.filter((w) => w.result)
    const cancelled = this.canceller.cancelled
    if (cancelled.grace > 0) this.emit('cancelled', { reason: 'grace', count: cancelled.grace, graceS: done[0]?.result.outcome.graceS })
    if (done.length === 0) {
      const why = String(this._workers.find((w) => w.crash)?.crash?.message ?? 'exited').split('\n')[0]
      throw new PgloadError(`every worker thread stopped (${why}): nothing was measured to the end`, { code: 'WORKER_FAILED', exitCode: 2 })
    }
    // a worker that failed: what it had measured, from the intervals it closed
    const parts = this._workers.map((w) => w.result ?? partFromIntervals(this._merge.byPart[w.index], this.typeNames))
    const outcome = mergeOutcomes(parts, { intervals: this._merge.intervals, intervalS: this.intervalS, typeNames: this.typeNames })
    outcome.terminals = this.terminalCount
    outcome.connections = this.poolSize
    outcome.threads = this.jobs
    outcome.aborted = outcome.aborted || (this.aborting && this.abortReason !== 'interrupted')
    outcome.abortReason = this.abortReason ?? outcome.abortReason
    outcome.interrupted = this.interrupted || outcome.interrupted
    const attempts = outcome.summary.transactions + outcome.summary.failed
    outcome.client = threadedClient(cpu, this._workers.map((w) => w.result?.thread ?? null), attempts)
    // the main thread's own share: progress, merging, statistics (the rest is the workers' and V8's)
    outcome.client.mainThreadCpuUs = mainCpu ? Math.round(mainCpu.cpuUs) : null
    const sections = done.map((w) => w.result.sections).filter(Boolean)
    // each finished worker's own sections: the workload's afterRun combines them
    this.partSections = sections
    outcome.partSections = sections
    return outcome
  }
}
