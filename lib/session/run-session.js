// A run session: what every command that runs benchmarks shares. It owns the one interrupt
// policy (interrupts.js), runs one run or a sequence of them (sweep cells, A/B rounds, a
// capacity search's run) through runBenchmark, and feeds each run's events to the outputs
// registered with it (output.js), as autocannon's instance emits its events and k6's output
// manager feeds its outputs. Commands choose the outputs; none subscribes to a run itself.

import { EventEmitter } from 'node:events'
import { silentLogger } from '../log.js'
import { trapInterrupts, interruptedError } from './interrupts.js'
import { defineOutput, callOutputs, callOutputsNow } from './output.js'
import { followOutputs } from './follow-outputs.js'
import { planOutputs, fileOutputs } from './plan-outputs.js'
import { isPlan, resolvePlan } from '../plan/resolve.js'

/** What the session says on stderr when a signal comes (commands word their own). */
const DEFAULT_MESSAGES = Object.freeze({
  stopping: 'pgload: stopping: finishing transactions in flight (Ctrl-C again to abort at once)',
  stoppingBeforeStart: 'pgload: stopping before the start; writing the (empty) results',
  aborting: 'pgload: aborting; writing what was measured'
})

/**
 * @typedef {object} SessionOptions
 * @property {import('./output.js').Output[]} [outputs] registered for every run of the session
 * @property {boolean} [signals] listen for SIGINT and SIGTERM (default true; false: call interrupt())
 * @property {{ write(s: string): any, isTTY?: boolean }} [err] where the session's own lines go
 * @property {any} [log] pino logger
 * @property {Record<string, string|undefined>} [env]
 * @property {Partial<typeof DEFAULT_MESSAGES>} [messages]
 * @property {(e: { count: number, signal: string }) => boolean|void} [onInterrupt] a sequence's own
 *   handling of a signal (stop after the current run...); return true when it handled it all
 * @property {Function} [runBenchmark] what measures one run and builds its document, unwritten
 *   (default lib/benchmark.js's measureBenchmark)
 */

export class RunSession extends EventEmitter {
  /** @type {import('./output.js').Output[]} */
  #outputs = []
  #current = null
  #runsStarted = 0
  #rejectBeforeStart
  #beforeStart
  #trap
  #runBenchmark
  #closed = false

  /** @param {SessionOptions} [opts] */
  constructor ({ outputs = [], signals = true, err = process.stderr, log = silentLogger, env = process.env, messages = {}, onInterrupt, runBenchmark } = {}) {
    super()
    this.err = err
    this.log = log
    this.env = env
    this.messages = { ...DEFAULT_MESSAGES, ...messages }
    this.onInterrupt = onInterrupt
    this.#runBenchmark = runBenchmark
    for (const o of outputs) this.use(o)
    // rejected by a signal that comes before any run of the session started: the command ends at once
    this.#beforeStart = new Promise((resolve, reject) => { this.#rejectBeforeStart = reject })
    this.#beforeStart.catch(() => {})
    this.#trap = trapInterrupts((e) => this.#interrupted(e), { on: signals })
  }

  /**
   * Register an output for every run of the session.
   * @param {import('./output.js').Output} output
   * @returns {this}
   */
  use (output) {
    this.#outputs.push(defineOutput(output))
    return this
  }

  /** Runs of the session that started (their handle existed). */
  get runsStarted () { return this.#runsStarted }
  /** Whether a signal (or interrupt()) came. */
  get interrupted () { return this.#trap.count > 0 }
  /** Whether a SIGTERM was among the signals. */
  get terminated () { return this.#trap.terminated }
  /** The exit status of an interrupted command: 130, or 143 after a SIGTERM. */
  get interruptExitCode () { return this.#trap.exitCode }

  /**
   * What a signal does; tests and library callers call it.
   * @param {'SIGINT'|'SIGTERM'} [signal]
   */
  interrupt (signal = 'SIGINT') {
    this.#trap.interrupt(signal)
  }

  /**
   * A command's own set-up (reaching the server, reading settings), ended at once by a signal
   * that comes before any run started: nothing was measured, nothing is to be written.
   * @template T
   * @param {Promise<T>} work
   * @returns {Promise<T>}
   */
  guard (work) {
    return Promise.race([work, this.#beforeStart])
  }

  /**
   * Run one benchmark with the session's outputs (and these, for this run only), the plan's
   * results file and thresholds among them.
   * @param {Readonly<Record<string, any>>} plan a resolved plan (lib/plan/resolve.js), or options resolved into one
   * @param {{ outputs?: import('./output.js').Output[], onRun?: (run: any, extras: any) => void, env?: Record<string, string|undefined> }} [opts]
   *   env: this run's environment (an A/B side's), else the session's
   * @returns {Promise<{ results: any, file: string|null, exitCode: number, run: any, terminated: boolean }>}
   */
  async run (plan, { outputs = [], onRun, env = this.env } = {}) {
    if (this.#runsStarted === 0 && this.interrupted) throw interruptedError('interrupted before the run started', this.#trap)
    const warn = (line) => this.err.write(`${line}\n`)
    const measure = this.#runBenchmark ?? (await import('../benchmark.js')).measureBenchmark
    // the plan's own outputs (failover, thresholds, results file) are read from a resolved plan
    if (!isPlan(plan)) plan = await this.guard(resolvePlan(plan))
    const all = [...this.#outputs, ...outputs.map(defineOutput), ...planOutputs(plan, { env, err: this.err })]
    let follow = null
    try {
      const running = measure(plan, {
        log: this.log,
        env,
        onPhase: (phase, info) => {
          this.emit('phase', phase, info)
          callOutputsNow(all, 'phase', [phase, info], warn)
        },
        onRun: (run, extras) => {
          this.#current = run
          this.#runsStarted++
          follow = followOutputs(run, all, { plan, ...extras }, warn)
          this.emit('run', run, extras)
          onRun?.(run, extras)
        }
      })
      const outcome = await (this.#runsStarted === 0 ? this.guard(running) : running)
      this.#current = null
      follow?.stop()
      await this.#finish(outcome, all, { ...follow?.context, plan, file: outcome.file }, warn)
      this.emit('end', outcome.results, outcome)
      return { ...outcome, terminated: this.terminated }
    } finally {
      this.#current = null
      follow?.stop()
      await callOutputs(all.slice(this.#outputs.length), 'close', [], warn)
    }
  }

  /**
   * The results document, finished by every output (the plan's thresholds last), written once
   * (the plan's results file, first of the ends), then the other outputs' end; a required
   * output's failure is thrown once all had their turn.
   */
  async #finish (outcome, outputs, context, warn) {
    const finishing = await callOutputs(outputs, 'finish', [outcome.results, context], warn)
    const ending = await callOutputs([...fileOutputs(outcome.file), ...outputs], 'end', [outcome.results, { ...context, exitCode: outcome.exitCode }], warn)
    if (finishing ?? ending) throw finishing ?? ending
  }

  /**
   * Close the session: its outputs' close(), and the signals are no longer listened for.
   */
  async close () {
    if (this.#closed) return
    this.#closed = true
    this.#trap.release()
    await callOutputs(this.#outputs, 'close', [], (line) => this.err.write(`${line}\n`))
  }

  #interrupted ({ count, signal }) {
    this.emit('interrupt', { count, signal })
    if (this.onInterrupt?.({ count, signal }) === true) return
    const run = this.#current
    const lineEnd = this.err.isTTY ? '\n' : ''
    if (!run) {
      if (this.#runsStarted === 0) {
        this.err.write(lineEnd)
        this.#rejectBeforeStart(interruptedError('interrupted before the run started', this.#trap))
      }
      return
    }
    if (count === 1) {
      // a shard waiting for the others at the start has no transaction in flight yet
      this.err.write(`${lineEnd}${run.status.startUs === undefined ? this.messages.stoppingBeforeStart : this.messages.stopping}\n`)
      run.stop('interrupted')
    } else {
      this.err.write(`${lineEnd}${this.messages.aborting}\n`)
      // marks the run interrupted also when it was already stopping on its own
      run.abort('interrupted')
    }
  }
}
