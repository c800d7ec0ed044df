// The interval series of a threaded run: each worker closes its intervals on the same grid (they
// share one start time); interval k is merged, and emitted once, when every worker still running
// has closed it. Histograms are added, counts summed (lib/results/merge-series.js).

import { mergeIntervals } from '../results/merge-series.js'

export class IntervalMerge {
  /**
   * @param {number} parts workers
   * @param {number} intervalS the series' step
   * @param {(tick: object) => void} emit gets each merged tick, in order
   */
  constructor (parts, intervalS, emit) {
    this.intervalS = intervalS
    this.emit = emit
    /** @type {Map<number, { parts: object[], ticks: object[] }>} */
    this.pending = new Map()
    // per worker: the last interval it closed, and whether it will close no more
    this.closed = new Array(parts).fill(-1)
    this.ended = new Array(parts).fill(false)
    this.next = 0
    /** each worker's own intervals, as it closed them */
    this.byPart = Array.from({ length: parts }, () => [])
    /** @type {object[]} the merged series */
    this.intervals = []
  }

  /**
   * A worker closed interval `index`.
   * @param {number} part @param {number} index @param {object} tick the worker's 'tick' payload
   */
  add (part, index, tick) {
    let slot = this.pending.get(index)
    if (!slot) { slot = { ticks: [] }; this.pending.set(index, slot) }
    slot.ticks.push(tick)
    this.byPart[part].push(tick.interval)
    this.closed[part] = index
    this._flush()
  }

  /** A worker closes no more intervals (it finished, or crashed). @param {number} part */
  end (part) {
    this.ended[part] = true
    this._flush()
  }

  _flush () {
    while (this.pending.size > 0 && this._complete(this.next)) {
      const slot = this.pending.get(this.next)
      this.pending.delete(this.next)
      this.next++
      if (!slot) continue
      this._emit(slot.ticks)
    }
  }

  // every worker closed interval k, or closes no more
  _complete (k) {
    for (let p = 0; p < this.closed.length; p++) if (this.closed[p] < k && !this.ended[p]) return false
    return true
  }

  _emit (ticks) {
    const [interval] = mergeIntervals(ticks.map((t) => ({ intervals: [t.interval] })), this.intervalS)
    this.intervals.push(interval)
    let active = 0; let waiting = 0; let elapsedS = 0; let final = false
    for (const t of ticks) {
      active += t.activeConnections ?? 0
      waiting += t.waiting ?? 0
      elapsedS = Math.max(elapsedS, t.elapsedS)
      final ||= Boolean(t.final)
    }
    this.emit({ elapsedS, interval, activeConnections: active, waiting, ...(final ? { final: true } : {}) })
  }
}
