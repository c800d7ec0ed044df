// A scenario run (run --scenarios) on the live outputs. Each scenario's run, as it starts, feeds
// the metrics under its `scenario` label; the dashboard's document gets one interval per slot of
// the run's grid, every scenario's interval on that slot added, its types named SCENARIO/TYPE, as
// the results' totals add them (lib/results/merge-series.js), and each scenario's planned window,
// which the charts mark.

import { followRunEvents, runShape } from './run-events.js'
import { mergeIntervals } from '../results/merge-series.js'
import { typeInScenario } from '../scenarios/scenario-results.js'
import { round3 } from '../format/round.js'

/**
 * @typedef {{ name: string, startS: number, durationS: number }} ScenarioWindow planned, on the run's clock
 * @typedef {{ name: string, run: import('../engine/run-handle.js').RunHandle, types: string[] }} ScenarioStart
 *   the scenario run handle's 'scenario' event (lib/scenarios/scenario-run.js)
 */

/**
 * Follow a scenario run's handle: every scenario's run as it starts, until the unsubscribe.
 * @param {import('node:events').EventEmitter} handle the scenario run's handle (ScenarioRuns)
 * @param {{ live: import('./live-document.js').LiveDocument, metrics: import('./run-metrics.js').RunMetrics|null, dashboard: import('./dashboard.js').Dashboard|null, pusher?: any }} to
 * @param {{ scenarios: ScenarioWindow[], intervalS?: number, now?: () => number }} plan now: ms, monotonic
 * @returns {() => void}
 */
export function followScenarioRuns (handle, { live, metrics, dashboard, pusher = null }, { scenarios, intervalS = 1, now = () => performance.now() }) {
  live.scenarios = Object.fromEntries(scenarios.map((s) => [s.name, { startS: s.startS, endS: round3(s.startS + s.durationS) }]))
  const durationS = Math.max(0, ...scenarios.map((s) => s.startS + s.durationS))
  const shapes = new Map()
  const subs = []
  let originMs = null
  let pushing = false
  const merger = new SlotMerger(intervalS, (e) => {
    live.addInterval(e)
    pusher?.interval(e)
    if (!e.final) dashboard?.changed()
  })
  const onScenario = ({ name, run, types }) => {
    const shape = runShape(run, types)
    metrics?.setShape(shape, name)
    shapes.set(name, shape)
    live.setShape(totalShape(shapes, durationS))
    let shiftSlots = 0
    subs.push(followRunEvents(run, {
      started (e) {
        if (!pushing) pusher?.start(e)
        pushing = true
      },
      warmup (e) {
        metrics?.addWarmup(e, name)
        live.addWarmup(e)
        dashboard?.changed()
      },
      measuring () {
        // its place on the run's grid: where its measured window opened, from the first one's opening
        const at = now()
        originMs ??= at
        shiftSlots = Math.round((at - originMs) / 1000 / intervalS)
      },
      interval (e) {
        metrics?.addInterval(e, name)
        merger.add(name, e, shiftSlots)
      },
      status (s) {
        // a scenario at its window's end is no stop of the run
        if ((s.state !== 'stopping' && s.state !== 'aborting') || s.reason === 'duration') return
        live.setStatus(s)
        dashboard?.changed()
      },
      finished () {
        metrics?.finish(name)
        merger.done(name)
      }
    }))
  }
  handle.on('scenario', onScenario)
  return () => {
    handle.off('scenario', onScenario)
    for (const off of subs) off()
    merger.flush()
  }
}

/** The run's shape: every scenario's terminals and connections, types under their scenario. */
function totalShape (shapes, durationS) {
  const all = [...shapes].map(([name, s]) => ({ ...s, types: s.types.map((t) => typeInScenario(name, t)) }))
  return {
    terminals: all.reduce((a, s) => a + s.terminals, 0),
    connections: all.reduce((a, s) => a + s.connections, 0),
    durationS,
    warmupS: Math.max(0, ...all.map((s) => s.warmupS)),
    types: all.flatMap((s) => s.types)
  }
}

/**
 * The scenarios' intervals on the run's grid, added per slot. A slot is given out once any
 * scenario closed a later one: the scenarios' ticks are less than an interval apart, so by then
 * every scenario running has closed its own; the rest at each scenario's end.
 */
export class SlotMerger {
  #pending = new Map()
  #running = new Set()
  #latest = -1
  #index = 0

  /** @param {number} stepS @param {(e: import('../engine/run-handle.js').IntervalEvent) => void} emit */
  constructor (stepS, emit) {
    this.stepS = stepS
    this.emit = emit
  }

  /**
   * @param {string} name the scenario
   * @param {import('../engine/run-handle.js').IntervalEvent} e its interval, on its own clock
   * @param {number} shiftSlots where its clock's zero is on the run's grid
   */
  add (name, e, shiftSlots) {
    this.#running.add(name)
    const iv = e.interval
    const lengthS = iv.lengthS > 0 ? iv.lengthS : this.stepS
    const slot = shiftSlots + Math.max(0, Math.round((iv.t - lengthS) / this.stepS))
    if (!this.#pending.has(slot)) this.#pending.set(slot, [])
    this.#pending.get(slot).push({ name, e, t: round3(iv.t + shiftSlots * this.stepS) })
    this.#latest = Math.max(this.#latest, slot)
    this.#give((s) => s < this.#latest)
  }

  /** @param {string} name a scenario that ended: with none left running, every slot is given out */
  done (name) {
    this.#running.delete(name)
    if (this.#running.size === 0) this.flush()
  }

  flush () { this.#give(() => true) }

  #give (due) {
    for (const slot of [...this.#pending.keys()].sort((a, b) => a - b)) {
      if (!due(slot)) continue
      const parts = this.#pending.get(slot)
      this.#pending.delete(slot)
      this.emit(this.#merged(parts))
    }
  }

  /** One interval event of the run from its scenarios' on one slot. */
  #merged (parts) {
    const named = parts.map(({ name, e, t }) => ({ intervals: [inScenario(name, { ...e.interval, t })] }))
    const [interval] = mergeIntervals(named, this.stepS)
    const types = {}
    for (const { name, e } of parts) for (const [type, c] of Object.entries(e.types)) types[typeInScenario(name, type)] = c
    const sum = (key, field) => parts.reduce((a, p) => a + (p.e[key]?.[field] ?? 0), 0)
    return {
      index: this.#index++,
      elapsedS: interval.t,
      lengthS: interval.lengthS,
      final: parts.every((p) => p.e.final),
      interval,
      types,
      connections: { size: sum('connections', 'size'), active: sum('connections', 'active'), waiting: sum('connections', 'waiting') },
      terminals: Object.fromEntries(Object.keys(parts[0].e.terminals ?? {}).map((k) => [k, sum('terminals', k)])),
      stage: null
    }
  }
}

/** An interval entry with its types named in their scenario. */
function inScenario (name, iv) {
  const rename = (map) => map && Object.fromEntries(Object.entries(map).map(([type, v]) => [typeInScenario(name, type), v]))
  return { ...iv, count: rename(iv.count), histograms: rename(iv.histograms) }
}
