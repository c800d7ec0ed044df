// Drives one open-model run through the steps of `pgload capacity`: at each step's end (on the
// run's interval grid) it judges the step from the step's intervals, picks the next rate and
// changes the run's arrival rate (run.setRate), on the same terminals and connections; when the
// search is over it stops the run.

import { EventEmitter } from 'node:events'
import { performance } from 'node:perf_hooks'
import { sampleThreadSched, threadSchedShares } from '../metrics/thread-schedstat.js'
import { intervalsWithin, windowDocument } from '../compare/thresholds/window-view.js'
import { startSearch, recordStep, nextRate } from './search.js'
import { judgeStep } from './step.js'

const EPS_S = 1e-6

/**
 * @typedef {object} CapacitySettings
 * @property {number} stepS seconds each step is measured
 * @property {number} settleS seconds after each rate change that are not judged
 * @property {number} intervalS the run's interval
 * @property {import('../compare/thresholds/parser.js').Threshold[]} until
 * @property {number} behindMargin a step fails when it achieves less than (1 - this) of its offered rate
 * @property {import('./search.js').SearchSettings} search
 */

/** The driver thread's accounting now: the kernel's and the event loop's. */
function driverReading () {
  return { sched: sampleThreadSched(), elu: performance.eventLoopUtilization() }
}

function driverShares (from, to) {
  const sched = threadSchedShares(from.sched, to.sched)
  const elu = performance.eventLoopUtilization(to.elu, from.elu).utilization
  return { onCpuShare: sched?.onCpuShare ?? null, cpuWaitShare: sched?.cpuWaitShare ?? null, eventLoopUtilization: Number.isFinite(elu) ? elu : null }
}

/**
 * Events: 'step' (a StepRecord, as each step is judged), 'rate' ({ rate, step, atS }: a new
 * step begins), 'done' ({ reason }).
 */
export class CapacityController extends EventEmitter {
  /**
   * @param {import('../engine/run-handle.js').RunHandle} run an open-model run (setRate), started at the first rate
   * @param {CapacitySettings} settings
   * @param {{ reading?: () => any }} [context] reading: the driver thread's accounting (tests)
   */
  constructor (run, settings, { reading = driverReading } = {}) {
    super()
    this.run = run
    this.settings = settings
    this.reading = reading
    // the types come from the intervals' histograms
    this.doc = { run: { options: { intervalS: settings.intervalS } }, intervals: [] }
    /** @type {import('./step.js').StepRecord[]} */
    this.steps = []
    this.search = startSearch()
    this.done = null
    const first = nextRate(this.search, settings.search)
    this.current = { index: 1, phase: first.phase, offeredRate: first.rate, startS: 0, from: null }
    this._onInterval = (e) => this.onInterval(e)
    run.on('interval', this._onInterval)
  }

  /** The run's arrival schedule now, where the run tells it. */
  schedule () {
    return typeof this.run.arrivalSchedule === 'function' ? this.run.arrivalSchedule() : null
  }

  /** The first step's rate: the run's --rate. */
  get firstRate () { return this.steps.length === 0 ? this.current.offeredRate : this.steps[0].offeredRate }

  /** @param {{ elapsedS: number, final: boolean, interval: any }} e */
  onInterval (e) {
    if (e.final || this.done) return
    this.doc.intervals.push(e.interval)
    const cur = this.current
    const fromS = cur.startS + this.settings.settleS
    const toS = fromS + this.settings.stepS
    if (cur.from === null && e.elapsedS >= fromS - EPS_S) cur.from = { driver: this.reading(), schedule: this.schedule() }
    if (e.elapsedS < toS - EPS_S) return
    const to = { driver: this.reading(), schedule: this.schedule() }
    const driver = cur.from ? driverShares(cur.from.driver, to.driver) : { onCpuShare: null, cpuWaitShare: null, eventLoopUtilization: null }
    const scheduled = cur.from?.schedule && to.schedule
      ? to.schedule.arrivals - cur.from.schedule.arrivals + to.schedule.backlog - cur.from.schedule.backlog
      : null
    const view = windowDocument(this.doc, intervalsWithin(this.doc, fromS, toS), { fromS, toS })
    const step = judgeStep(view, { ...cur, fromS, toS, dropped: 0, scheduled, driver }, this.settings)
    this.steps.push(step)
    this.search = recordStep(this.search, step.offeredRate, step.held)
    const next = step.driver.saturated && !step.held
      ? { rate: null, why: 'the client was the limit' }
      : nextRate(this.search, this.settings.search)
    if (next.rate === null) {
      this.emit('step', step)
      return this.finish(next.why)
    }
    const { dropped } = this.run.setRate(next.rate)
    step.dropped = dropped
    this.emit('step', step)
    this.current = { index: step.index + 1, phase: next.phase, offeredRate: next.rate, startS: e.elapsedS, from: null }
    this.emit('rate', { rate: next.rate, step: this.current.index, atS: e.elapsedS })
  }

  /** @param {string|null} why */
  finish (why) {
    this.done = { reason: why }
    this.run.off('interval', this._onInterval)
    this.emit('done', this.done)
    this.run.stop('capacity-found')
  }
}
