// The wait sampler's counts per interval of the run: reads done and sampled sessions by wait class
// (lib/results/wait-classes.js) and by wait event, on the grid of the results' intervals, so that
// the report and the live dashboard can draw the classes over time as average active sessions.

import { round3 } from '../format/round.js'
import { orderWaitClasses } from '../results/wait-classes.js'

/**
 * @typedef {object} IntervalCounts
 * @property {number} ticks reads that completed in the interval
 * @property {Map<string, number>} samples class -> sampled sessions
 * @property {Map<string, number>} events wait event (`Lock:transactionid`) -> sampled sessions
 */

export class IntervalClasses {
  /** @param {number} intervalMs the run's --interval */
  constructor (intervalMs) {
    this.intervalMs = intervalMs
    /** @type {IntervalCounts[]} */
    this.intervals = []
  }

  /**
   * A completed read, sent `offsetMs` after the measured window opened: its interval's counts.
   * @param {number} offsetMs
   * @returns {IntervalCounts}
   */
  read (offsetMs) {
    const index = Math.max(0, Math.floor(offsetMs / this.intervalMs))
    while (this.intervals.length <= index) this.intervals.push({ ticks: 0, samples: new Map(), events: new Map() })
    const counts = this.intervals[index]
    counts.ticks++
    return counts
  }

  /**
   * One sampled session.
   * @param {IntervalCounts} counts from read()
   * @param {string} cls
   * @param {string|null} event the wait event, null on the CPU or idle in a transaction
   */
  add (counts, cls, event) {
    counts.samples.set(cls, (counts.samples.get(cls) ?? 0) + 1)
    if (event !== null) counts.events.set(event, (counts.events.get(event) ?? 0) + 1)
  }

  /**
   * The counts on the results' intervals: the sampler's interval i is the run's interval i; reads
   * after the last one's start (the run's final, ragged interval) count in it.
   * @param {{ t: number, lengthS?: number }[]} intervals results.intervals
   * @returns {import('../results/wait-classes.js').WaitInterval[]}
   */
  series (intervals) {
    const last = intervals.length - 1
    return intervals.map((iv, i) => this.entry(i, iv, i === last ? addCounts(this.intervals.slice(last)) : undefined))
  }

  /**
   * One interval's entry of the series, as far as its reads are counted (a run still going reads
   * the intervals closed so far this way).
   * @param {number} index the run's interval
   * @param {{ t: number, lengthS?: number }} iv that interval of results.intervals
   * @param {IntervalCounts} [counts] the counts to show instead of the interval's own
   * @returns {import('../results/wait-classes.js').WaitInterval}
   */
  entry (index, iv, counts = this.intervals[index] ?? EMPTY) {
    const samples = {}
    const sessions = {}
    for (const cls of orderWaitClasses(counts.samples.keys())) {
      samples[cls] = counts.samples.get(cls)
      sessions[cls] = round3(samples[cls] / counts.ticks)
    }
    const events = Object.fromEntries([...counts.events].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)))
    return { t: iv.t, lengthS: iv.lengthS ?? round3(this.intervalMs / 1000), ticks: counts.ticks, samples, sessions, events }
  }
}

const EMPTY = { ticks: 0, samples: new Map(), events: new Map() }

/** @param {IntervalCounts[]} list @returns {IntervalCounts} their sum */
function addCounts (list) {
  const sum = { ticks: 0, samples: new Map(), events: new Map() }
  for (const c of list) {
    sum.ticks += c.ticks
    for (const [k, n] of c.samples) sum.samples.set(k, (sum.samples.get(k) ?? 0) + n)
    for (const [k, n] of c.events) sum.events.set(k, (sum.events.get(k) ?? 0) + n)
  }
  return sum
}
