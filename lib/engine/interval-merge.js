// The interval series of a threaded run: each worker closes its intervals on the same grid (they
// share one start time); interval k is merged, and emitted once, when every worker still running
// has closed it. Histograms are added, counts summed (lib/results/merge-series.js), and so are
// the connections and terminals in use: the payload is a Run's 'interval' payload.

import { mergeIntervals } from '../results/merge-series.js'

const TERMINAL_KEYS = ['total', 'keying', 'thinking', 'running', 'waiting', 'finished', 'paused']

/**
 * Terminals by state summed over the parts (each as it last reported; null: nothing yet).
 * @param {(import('./run-handle.js').TerminalUse|null)[]} parts
 * @returns {import('./run-handle.js').TerminalUse}
 */
export function sumTerminals (parts) {
  const sum = { total: 0, keying: 0, thinking: 0, running: 0, waiting: 0, finished: 0, paused: 0 }
  for (const s of parts) if (s) for (const k of TERMINAL_KEYS) sum[k] += s[k] ?? 0
  return sum
}

export class IntervalMerge {
  /**
   * @param {number} parts workers
   * @param {number} intervalS the series' step
   * @param {(e: import('./run-handle.js').IntervalEvent) => void} emit gets each merged interval, in order
   */
  constructor (parts, intervalS, emit) {
    this.intervalS = intervalS
    this.emit = emit
    /** @type {Map<number, { events: import('./run-handle.js').IntervalEvent[] }>} */
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
   * A worker closed an interval.
   * @param {number} part @param {import('./run-handle.js').IntervalEvent} e the worker's 'interval' payload
   */
  add (part, e) {
    let slot = this.pending.get(e.index)
    if (!slot) { slot = { events: [] }; this.pending.set(e.index, slot) }
    slot.events.push(e)
    this.byPart[part].push(e.interval)
    this.closed[part] = e.index
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
      this._emit(slot.events)
    }
  }

  // every worker closed interval k, or closes no more
  _complete (k) {
    for (let p = 0; p < this.closed.length; p++) if (this.closed[p] < k && !this.ended[p]) return false
    return true
  }

  /** @param {import('./run-handle.js').IntervalEvent[]} events one per worker that closed it */
  _emit (events) {
    const [interval] = mergeIntervals(events.map((e) => ({ intervals: [e.interval] })), this.intervalS)
    this.intervals.push(interval)
    const connections = { size: 0, active: 0, waiting: 0 }
    const types = {}
    let elapsedS = 0; let lengthS = 0; let final = false
    for (const e of events) {
      connections.size += e.connections.size
      connections.active += e.connections.active
      connections.waiting += e.connections.waiting
      for (const [name, c] of Object.entries(e.types)) {
        const t = types[name] ??= { count: 0, failed: 0, skipped: 0, retries: 0 }
        t.count += c.count; t.failed += c.failed; t.skipped += c.skipped; t.retries += c.retries
        if (c.errors) {
          t.errors ??= {}
          for (const [kind, n] of Object.entries(c.errors)) t.errors[kind] = (t.errors[kind] ?? 0) + n
        }
      }
      elapsedS = Math.max(elapsedS, e.elapsedS)
      lengthS = Math.max(lengthS, e.lengthS)
      final ||= e.final
    }
    this.emit({ index: this.intervals.length - 1, elapsedS, lengthS, final, interval, types, connections, terminals: sumTerminals(events.map((e) => e.terminals)) })
  }
}
