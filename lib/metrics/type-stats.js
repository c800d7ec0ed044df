// One transaction type's counters and histograms in the recorder, and its counts in an interval:
// what the recorder keeps per type and what an 'interval' event carries per type.

import { createHistogram } from './histogram.js'
import { OutcomeCounts } from './outcome-counts.js'

/**
 * One transaction type's counts in an interval (the histograms are in `interval.histograms`).
 * @typedef {object} IntervalTypeCounts
 * @property {number} count transactions that ended in the interval and were recorded (committed
 *   or expected rollbacks)
 * @property {number} failed failed after their tries (any SQLSTATE)
 * @property {number} skipped skipped (--latency-limit with --rate)
 * @property {number} retries retries spent by the transactions that ended in the interval
 * @property {Record<string, number>} [errors] only when failed > 0: the interval's failures by
 *   kind (SQLSTATE, or pgload's code such as a client-side error's), summing to `failed`. The
 *   recorder's per-type counts for the outcome, differenced at the interval's close (nothing per
 *   transaction); worker threads' are summed by the main thread
 */

/** Counters and histograms of one transaction type. */
export class TypeStats extends OutcomeCounts {
  /** @param {string} name */
  constructor (name) {
    super()
    this.name = name
    /** all closed intervals (see Recorder.summarize for the open one) */
    this.hist = createHistogram()
    this.intervalHist = createHistogram()
    /** @type {Map<string, number>} `errors` as the last interval with a failure closed them */
    this.errorsClosed = new Map()
    this.keyingSumUs = 0
    this.keyingN = 0
    this.thinkSumUs = 0
    this.thinkN = 0
    this.intervalCount = 0
    this.intervalFailed = 0
    this.intervalSkipped = 0
    this.intervalRetries = 0
  }
}

/**
 * A type's failures by kind in the interval closing: its counts since the last interval that had
 * a failure. Done at the close, and only for an interval with failures: nothing per transaction.
 * @param {TypeStats} t
 * @returns {Record<string, number>}
 */
export function intervalErrors (t) {
  const out = {}
  for (const [code, n] of t.errors) {
    const d = n - (t.errorsClosed.get(code) ?? 0)
    if (d > 0) { out[code] = d; t.errorsClosed.set(code, n) }
  }
  return out
}
