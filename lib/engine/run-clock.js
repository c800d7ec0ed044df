// The measured window's clock of a run on one event loop: during a warm-up a 'warmup-tick' each
// interval, then the opening of the measured window ('measuring', stage 0), each interval closed
// on its grid ('interval', and a 'stage' where one begins), the duration's end, and the last,
// ragged interval when the run stops. It reads the run's public state and emits the run's events.

import { countStates } from './terminal-phases.js'
import { startCpuWindow } from './run-outcome.js'
import { stageEvent, stageOfInterval, stageAfterInterval } from '../metrics/stage-windows.js'

export class RunClock {
  /** @param {import('./run.js').Run} run */
  constructor (run) {
    this.run = run
    this.tickTimer = null
    /** the client CPU reading at the measured window's opening (null before it) */
    this.cpuWindow = null
    /** @type {import('./run-handle.js').IntervalEvent|null} the 'interval' event being emitted (nextStage reads it) */
    this.intervalEvent = null
  }

  /** Stop ticking without closing anything (a run that failed). */
  cancel () {
    clearTimeout(this.tickTimer)
  }

  /** Start ticking at the run's start: the warm-up's ticks, then the measured window's intervals. */
  start () {
    const run = this.run
    const intervalUs = run.settings.intervalUs
    const warmupS = run.settings.warmupUs / 1e6
    this.cpuWindow = null
    let nextUs = run.measureStartUs + intervalUs
    let warm = run.measureStartUs <= run.startUs
    if (warm) this.beginMeasuring()
    // During a warm-up: a 'warmup-tick' each interval (progress lines), no interval closed.
    let nextWarmUs = run.startUs + intervalUs
    const tick = () => {
      const now = run.nowUs()
      if (!warm && now >= nextWarmUs && now < run.measureStartUs) {
        while (nextWarmUs + intervalUs <= now) nextWarmUs += intervalUs
        run.emit('warmup-tick', { elapsedS: (nextWarmUs - run.startUs) / 1e6, warmupS, connections: this.connectionUse(), terminals: this.terminalUse() })
        nextWarmUs += intervalUs
      }
      if (!warm && now >= run.measureStartUs) { warm = true; this.beginMeasuring() }
      if (run.deadlineUs !== Infinity && now >= run.deadlineUs && !run.expired) {
        run.context.expired = true
        run.stop('duration')
      }
      // arrivals that found no terminal free are admitted or dropped, in their interval
      if (warm) run.context.arrivals?.settle(Math.min(now, run.deadlineUs))
      while (now >= nextUs && warm) { // eslint-disable-line no-unmodified-loop-condition
        this.closeInterval(nextUs, intervalUs, false)
        nextUs += intervalUs
      }
      this.tickTimer = setTimeout(tick, delayMs(warm ? Math.min(nextUs, run.deadlineUs) : Math.min(nextWarmUs, run.measureStartUs)))
    }
    const delayMs = (targetUs) => Math.max(1, Math.ceil((targetUs - run.nowUs()) / 1000))
    this.tickTimer = setTimeout(tick, delayMs(warm ? Math.min(nextUs, run.deadlineUs) : Math.min(nextWarmUs, run.measureStartUs)))
  }

  /**
   * Close the interval ending at endUs and emit it ('interval', and 'tick' for older callers).
   * @param {number} endUs @param {number} lengthUs @param {boolean} final
   */
  closeInterval (endUs, lengthUs, final) {
    const run = this.run
    const elapsedS = (endUs - run.measureStartUs) / 1e6
    const types = {}
    const interval = run.recorder.closeInterval(elapsedS, lengthUs / 1e6, types)
    const index = run.recorder.intervals.length - 1
    const profile = run.profile
    // a stage that another follows ends with its last interval; the last stage ends with the run
    const next = final ? -1 : stageAfterInterval(profile, index, run.settings.intervalUs)
    if (next > 0) {
      run.recorder.stageWindows.close(elapsedS, false)
      run.recorder.stageWindows.begin()
    }
    /** @type {import('./run-handle.js').IntervalEvent} */
    const e = {
      index,
      elapsedS,
      lengthS: lengthUs / 1e6,
      final,
      interval,
      types,
      connections: final ? { size: run.poolSize, active: 0, waiting: 0 } : this.connectionUse(),
      terminals: this.terminalUse(),
      stage: stageOfInterval(profile, index, run.settings.intervalUs)
    }
    this.intervalEvent = e
    try {
      run.emit('interval', e)
      run.emit('tick', e)
    } finally {
      this.intervalEvent = null
    }
    if (next > 0) run.emit('stage', stageEvent(profile, next))
  }

  /** @returns {import('./run-handle.js').ConnectionUse} */
  /** @returns {import('./run-handle.js').ConnectionUse} */
  connectionUse () {
    const run = this.run
    return { size: run.poolSize, active: run.pool.active, waiting: run.pool.waiting }
  }

  /** @returns {import('./run-handle.js').TerminalUse} */
  /** @returns {import('./run-handle.js').TerminalUse} */
  terminalUse () {
    const run = this.run
    return { total: run.terminalCount, ...countStates(run.terminals ?? []) }
  }

  /** The measured window opens: the client CPU reading, 'measuring', and stage 0 of a staged run. */
  beginMeasuring () {
    const run = this.run
    this.cpuWindow = startCpuWindow()
    run.emit('measuring')
    const stages = run.recorder.stageWindows
    if (stages !== null) {
      stages.begin()
      run.emit('stage', stageEvent(run.profile, 0))
    }
  }

  /** The run stopped: no more ticks; arrivals never served are dropped; the last, ragged interval closes. */
  stop () {
    const run = this.run
    clearTimeout(this.tickTimer)
    const now = run.endUs
    if (run.measureStartUs === undefined || now <= run.measureStartUs) return
    // arrivals never served (still waiting, or held by a terminal that stopped) are dropped, in
    // the last interval
    run.context.arrivals?.end(Math.min(now, run.deadlineUs))
    // The last partial interval, so every measured transaction is in the series.
    const closed = run.recorder.intervals.length * run.settings.intervalUs
    const partialUs = (now - run.measureStartUs) - closed
    if (partialUs > 1000) this.closeInterval(now, partialUs, true)
  }
}
