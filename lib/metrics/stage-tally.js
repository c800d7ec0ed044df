// One stage's outcomes, counted by the stage each transaction arrived in (its intended start):
// per type a latency histogram and the run's counters, the stage's lag and queue waits, its
// arrivals and drops. Made once per stage; recording allocates nothing.

import { addInto, createHistogram, encodeHistogram, latencySummaryMs, recordUs } from './histogram.js'
import { ratePerS, latencyFiguresMs } from './figures.js'
import { OutcomeCounts } from './outcome-counts.js'

const COUNTERS = ['count', 'failed', 'skipped', 'rollbacks', 'retries', 'retried', 'late', 'unfinished', 'outcomeUnknown']

/** One type's outcomes in one stage, with their latencies. */
class TypeTally extends OutcomeCounts {
  constructor () {
    super()
    this.hist = createHistogram()
  }
}

/** The outcomes of the transactions that arrived in one stage. */
export class StageTally {
  /** @param {number} typeCount */
  constructor (typeCount) {
    /** @type {TypeTally[]} */
    this.types = []
    for (let i = 0; i < typeCount; i++) this.types.push(new TypeTally())
    this.lag = createHistogram()
    this.queue = createHistogram()
    // waits under 1 us are counted, and recorded as 1 us when the stage is read (as the recorder does)
    this.lagUnder1 = 0
    this.queueUnder1 = 0
    this.arrivals = 0
    this.dropped = 0
  }

  /**
   * A completed transaction (committed, or an expected rollback).
   * @param {number} type @param {number} latencyUs @param {number} lagUs @param {number} queueUs
   * @param {boolean} rolledBack @param {boolean} late above --latency-limit
   */
  ok (type, latencyUs, lagUs, queueUs, rolledBack, late) {
    const t = this.types[type]
    t.count++
    if (rolledBack) t.rollbacks++
    if (late) t.late++
    t.sumUs += latencyUs
    t.sumSqUs += latencyUs * latencyUs
    recordUs(t.hist, latencyUs)
    if (lagUs < 1) this.lagUnder1++
    else recordUs(this.lag, lagUs)
    if (queueUs < 1) this.queueUnder1++
    else recordUs(this.queue, queueUs)
  }

  /** @param {number} type @param {string} code */
  failed (type, code) {
    const t = this.types[type]
    t.failed++
    t.errors.set(code, (t.errors.get(code) ?? 0) + 1)
  }

  /**
   * The stage's entry body: `summary` and `transactions` over `lengthS` (docs/results-format.md, "stages[]").
   * @param {string[]} typeNames
   * @param {number} lengthS
   */
  entryBody (typeNames, lengthS) {
    if (this.lagUnder1 > 0) this.lag.recordValueWithCount(1, this.lagUnder1)
    if (this.queueUnder1 > 0) this.queue.recordValueWithCount(1, this.queueUnder1)
    this.lagUnder1 = 0
    this.queueUnder1 = 0
    const transactions = {}
    const errors = {}
    const all = createHistogram()
    const sum = { count: 0, failed: 0, skipped: 0, retried: 0, retries: 0, late: 0, rollbacks: 0, unfinished: 0, outcomeUnknown: 0, sumUs: 0, sumSqUs: 0 }
    this.types.forEach((t, i) => {
      const typeErrors = Object.fromEntries(t.errors)
      for (const [code, n] of t.errors) errors[code] = (errors[code] ?? 0) + n
      const entry = {}
      for (const k of COUNTERS) entry[k] = t[k]
      transactions[typeNames[i]] = {
        ...entry,
        tps: ratePerS(t.count, lengthS),
        latencyMs: latencyFiguresMs(t.hist, t.sumUs, t.sumSqUs, t.count),
        errors: typeErrors,
        histogram: encodeHistogram(t.hist)
      }
      if (t.hist.totalCount > 0) addInto(all, t.hist)
      for (const k of Object.keys(sum)) sum[k] += t[k]
    })
    return {
      summary: {
        transactions: sum.count,
        failed: sum.failed,
        skipped: sum.skipped,
        retried: sum.retried,
        retries: sum.retries,
        late: sum.late,
        rollbacks: sum.rollbacks,
        unfinished: sum.unfinished,
        outcomeUnknown: sum.outcomeUnknown,
        dropped: this.dropped,
        arrivals: this.arrivals,
        tps: ratePerS(sum.count, lengthS),
        latencyMs: latencyFiguresMs(all, sum.sumUs, sum.sumSqUs, sum.count),
        lagMs: latencySummaryMs(this.lag),
        queueMs: latencySummaryMs(this.queue),
        errors,
        lagHistogram: encodeHistogram(this.lag),
        queueHistogram: encodeHistogram(this.queue)
      },
      transactions
    }
  }
}
