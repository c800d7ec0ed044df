// Drives one open-model run through the steps of `pgload capacity`: at each step's end (on the
// run's interval grid) it judges the step from the step's intervals, picks the next rate and
// begins the next stage of the run at that rate (run.nextStage: an adaptive --stages run), on the
// same terminals and connections, so each step is a stage of the results; when the search is
// over it stops the run.

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
   * @param {import('../engine/run-handle.js').RunHandle} run a --stages run (nextStage), its one stage at the first rate
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
    // each interval's failures by SQLSTATE (the intervals of the results keep only their number)
    this.intervalErrors = new WeakMap()
    /** @type {import('./step.js').StepRecord[]} */
    this.steps = []
    this.search = startSearch()
    this.done = null
    const first = nextRate(this.search, settings.search)
    this.current = { index: 1, stage: 0, phase: first.phase, offeredRate: first.rate, startS: 0, from: null }
    this._onInterval = (e) => this.onInterval(e)
    run.on('interval', this._onInterval)
  }

  /** The first step's rate: the run's --rate. */
  get firstRate () { return this.steps.length === 0 ? this.current.offeredRate : this.steps[0].offeredRate }

  /** @param {{ elapsedS: number, final: boolean, interval: any }} e */
  onInterval (e) {
    if (e.final || this.done) return
    this.doc.intervals.push(e.interval)
    this.intervalErrors.set(e.interval, failuresOf(e.types))
    const cur = this.current
    const fromS = cur.startS + this.settings.settleS
    const toS = fromS + this.settings.stepS
    if (cur.from === null && e.elapsedS >= fromS - EPS_S) cur.from = { driver: this.reading() }
    if (e.elapsedS < toS - EPS_S) return
    const driver = cur.from ? driverShares(cur.from.driver, this.reading()) : { onCpuShare: null, cpuWaitShare: null, eventLoopUtilization: null }
    const within = intervalsWithin(this.doc, fromS, toS)
    // the arrivals that came while the step was measured (served, still waiting, or dropped)
    const scheduled = within.every((iv) => typeof iv.arrivals === 'number') ? within.reduce((n, iv) => n + iv.arrivals, 0) : null
    const dropped = within.reduce((n, iv) => n + (iv.dropped ?? 0), 0)
    const view = windowDocument(this.doc, within, { fromS, toS })
    const errors = {}
    for (const iv of within) for (const [code, n] of Object.entries(this.intervalErrors.get(iv) ?? {})) errors[code] = (errors[code] ?? 0) + n
    const step = judgeStep(view, { ...cur, fromS, toS, dropped, scheduled, driver, errors }, this.settings)
    this.steps.push(step)
    this.search = recordStep(this.search, step.offeredRate, step.held)
    const next = step.driver.saturated && !step.held
      ? { rate: null, why: 'the client was the limit' }
      : nextRate(this.search, this.settings.search)
    this.emit('step', step)
    if (next.rate === null) return this.finish(next.why)
    // each step starts from an empty queue: a step after one the server could not hold would
    // otherwise be judged on that step's backlog
    const stage = this.run.nextStage(next.rate, { dropWaiting: true })
    // the interval edge, in whole microseconds (elapsedS is a sum of interval lengths)
    const startS = Math.round(e.elapsedS * 1e6) / 1e6
    this.current = { index: step.index + 1, stage: stage.index, phase: next.phase, offeredRate: next.rate, startS, from: null }
    this.emit('rate', { rate: next.rate, step: this.current.index, atS: startS })
  }

  /** @param {string|null} why */
  finish (why) {
    this.done = { reason: why }
    this.run.off('interval', this._onInterval)
    this.emit('done', this.done)
    this.run.stop('capacity-found')
  }
}

/**
 * An interval's failures by SQLSTATE over its transaction types.
 * @param {Record<string, import('../engine/run-handle.js').IntervalTypeCounts>|undefined} types
 * @returns {Record<string, number>}
 */
function failuresOf (types) {
  const out = {}
  for (const t of Object.values(types ?? {})) for (const [code, n] of Object.entries(t.errors ?? {})) out[code] = (out[code] ?? 0) + n
  return out
}
