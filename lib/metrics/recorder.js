// Per transaction type counters and histograms, cumulative and per interval, for one run.
// Everything recorded here is inside the measured window (after warm-up). Each value is recorded
// once, into its interval histogram; closing an interval adds it into the cumulative one.

import { addInto, createHistogram, recordUs, encodeHistogram, latencySummaryMs } from './histogram.js'
import { ratePerS, latencyFiguresMs, intervalLatencyMs, intervalTailMs } from './figures.js'
import { round3 } from '../format/round.js'
import { TypeStats, intervalErrors } from './type-stats.js'

/**
 * The cumulative histogram including the interval still open: itself when that interval is
 * empty, otherwise a merged copy (neither input changes, so a later closeInterval counts once).
 * @param {import('./histogram.js').Histogram} cumulative
 * @param {import('./histogram.js').Histogram} open
 */
function withOpen (cumulative, open) {
  if (open.totalCount === 0) return cumulative
  const h = createHistogram()
  addInto(h, cumulative)
  addInto(h, open)
  return h
}

/**
 * One interval of the series, as the results document keeps it (docs/results-format.md).
 * @typedef {object} IntervalEntry
 * @property {number} t end of the interval, seconds since the measured window opened
 * @property {number} lengthS
 * @property {Record<string, number>} count transactions per type
 * @property {number|null} tps
 * @property {number} failed
 * @property {number} skipped
 * @property {object} latencyMs percentiles of all types together
 * @property {object} lagMs schedule lag
 * @property {object} queueMs wait for a connection
 * @property {Record<string, string>} histograms latency per type (microseconds), encoded; a type
 *   without a transaction in the interval has none
 * @property {string} [lagHistogram] encoded
 * @property {string} [queueHistogram] encoded
 */

export class Recorder {
  /**
   * @param {string[]} typeNames
   * @param {{ latencyLimitUs?: number }} [opts]
   */
  constructor (typeNames, { latencyLimitUs = 0, countsDrops = false } = {}) {
    this.types = typeNames.map((n) => new TypeStats(n))
    this.latencyLimitUs = latencyLimitUs
    // --stages: arrivals dropped because their queue was full, in the run and in the open interval
    this.countsDrops = countsDrops
    this.droppedCount = 0
    this.intervalDropped = 0
    this.arrivalsCount = 0
    this.intervalArrivals = 0
    /** @type {import('./stage-windows.js').StageWindows|null} the run's stages, when it has some */
    this.stageWindows = null
    // all, lag, queue and each type's hist hold the closed intervals; the interval ones the open one.
    this.all = createHistogram()
    /** the open interval of all types: made from the types' interval histograms when read */
    this.intervalAll = createHistogram()
    this.lag = createHistogram()
    this.intervalLag = createHistogram()
    this.queue = createHistogram()
    this.intervalQueue = createHistogram()
    // Lag and queue waits under 1 us, recorded as 1 us, are only counted until the interval is
    // read: in a closed-model run every transaction has them, and a counter costs less than a
    // histogram write on the hot path.
    this.intervalLagUnder1 = 0
    this.intervalQueueUnder1 = 0
    /** how long the unfinished transactions had waited (from their intended start) when cancelled */
    this.unfinishedWait = createHistogram()
    // the waits' exact sums: the histogram's own mean is quantised and can read above its max
    this.unfinishedWaitSumUs = 0
    this.unfinishedWaitSumSqUs = 0
    /** @type {object[]} */
    this.intervals = []
  }

  /**
   * A completed transaction (committed, or an expected rollback).
   * @param {number} type index into types
   * @param {number} latencyUs from the intended start
   * @param {number} lagUs schedule lag
   * @param {number} queueUs wait for a pooled connection
   * @param {boolean} rolledBack
   * @param {number} [stage] the stage it arrived in (StageWindows.stageAt), none when absent or < 0
   */
  ok (type, latencyUs, lagUs, queueUs, rolledBack, stage = -1) {
    const t = this.types[type]
    t.count++
    t.intervalCount++
    if (rolledBack) t.rollbacks++
    t.sumUs += latencyUs
    t.sumSqUs += latencyUs * latencyUs
    const late = this.latencyLimitUs > 0 && latencyUs > this.latencyLimitUs
    if (late) t.late++
    if (stage >= 0) this.stageWindows.tally(stage).ok(type, latencyUs, lagUs, queueUs, rolledBack, late)
    recordUs(t.intervalHist, latencyUs)
    if (lagUs < 1) this.intervalLagUnder1++
    else recordUs(this.intervalLag, lagUs)
    if (queueUs < 1) this.intervalQueueUnder1++
    else recordUs(this.intervalQueue, queueUs)
  }

  /**
   * An arrival of --stages dropped: its queue was full, or no terminal served it.
   * @param {number} [stage] the stage it arrived in
   */
  dropped (stage = -1) {
    this.droppedCount++
    this.intervalDropped++
    if (stage >= 0) this.stageWindows.tally(stage).dropped++
  }

  /**
   * An arrival of --stages came (served, queued or dropped).
   * @param {number} [stage] the stage it arrived in
   */
  arrived (stage = -1) {
    this.arrivalsCount++
    this.intervalArrivals++
    if (stage >= 0) this.stageWindows.tally(stage).arrivals++
  }

  /**
   * The stage a transaction or arrival at `relUs` on the measured clock belongs to: -1 before the
   * measured window or in a run without stages.
   * @param {number} relUs
   */
  stageAt (relUs) {
    return this.stageWindows === null ? -1 : this.stageWindows.stageAt(relUs)
  }

  /** The open interval's histograms brought up to date (what summarize reads). */
  settleOpen () { this._settleOpen() }

  // Bring the open interval's histograms up to date: all types' latencies in intervalAll, the
  // counted waits under 1 us in the lag and queue ones. Reading twice counts nothing twice.
  _settleOpen () {
    const a = this.intervalAll
    a.reset()
    for (const t of this.types) if (t.intervalHist.totalCount > 0) addInto(a, t.intervalHist)
    if (this.intervalLagUnder1 > 0) this.intervalLag.recordValueWithCount(1, this.intervalLagUnder1)
    if (this.intervalQueueUnder1 > 0) this.intervalQueue.recordValueWithCount(1, this.intervalQueueUnder1)
    this.intervalLagUnder1 = 0
    this.intervalQueueUnder1 = 0
  }

  /**
   * A failed transaction (no latency recorded, as pgbench).
   * @param {number} type
   * @param {string} code SQLSTATE or pgload error code
   * @param {number} [stage]
   */
  failed (type, code, stage = -1) {
    const t = this.types[type]
    t.failed++
    t.intervalFailed++
    t.errors.set(code, (t.errors.get(code) ?? 0) + 1)
    if (stage >= 0) this.stageWindows.tally(stage).failed(type, code)
  }

  /**
   * A transaction cancelled before it could commit (the grace after the run's end was over).
   * @param {number} type
   * @param {number} waitedUs from its intended start to the cancel
   * @param {number} [stage]
   */
  unfinished (type, waitedUs, stage = -1) {
    this.types[type].unfinished++
    if (stage >= 0) this.stageWindows.tally(stage).types[type].unfinished++
    recordUs(this.unfinishedWait, waitedUs)
    this.unfinishedWaitSumUs += waitedUs
    this.unfinishedWaitSumSqUs += waitedUs * waitedUs
  }

  /** @param {number} type a transaction whose COMMIT was sent and never answered @param {number} [stage] */
  outcomeUnknown (type, stage = -1) {
    this.types[type].outcomeUnknown++
    if (stage >= 0) this.stageWindows.tally(stage).types[type].outcomeUnknown++
  }

  /** @param {number} type @param {number} [stage] */
  skipped (type, stage = -1) {
    const t = this.types[type]
    t.skipped++
    t.intervalSkipped++
    if (stage >= 0) this.stageWindows.tally(stage).types[type].skipped++
  }

  /** @param {number} type @param {number} n retries spent by one transaction @param {number} [stage] */
  retriedTimes (type, n, stage = -1) {
    const t = this.types[type]
    t.retries += n
    t.intervalRetries += n
    t.retried++
    if (stage >= 0) {
      const s = this.stageWindows.tally(stage).types[type]
      s.retries += n
      s.retried++
    }
  }

  /** @param {number} type @param {number} keyingUs @param {number} thinkUs */
  waits (type, keyingUs, thinkUs) {
    const t = this.types[type]
    if (keyingUs > 0) { t.keyingSumUs += keyingUs; t.keyingN++ }
    if (thinkUs > 0) { t.thinkSumUs += thinkUs; t.thinkN++ }
  }

  /**
   * Close the current interval and start the next one.
   * @param {number} tS seconds since the measured window started (end of this interval)
   * @param {number} lengthS the interval's length in seconds
   * @param {Record<string, import('./type-stats.js').IntervalTypeCounts>} [byType] filled
   *   with each type's counts of the interval (the run handle's 'interval' event)
   * @returns {IntervalEntry} the interval entry of the results document
   */
  closeInterval (tS, lengthS, byType) {
    this._settleOpen()
    const count = {}
    const histograms = {}
    let failed = 0
    let skipped = 0
    let total = 0
    for (const t of this.types) {
      count[t.name] = t.intervalCount
      total += t.intervalCount
      failed += t.intervalFailed
      skipped += t.intervalSkipped
      if (byType) {
        byType[t.name] = { count: t.intervalCount, failed: t.intervalFailed, skipped: t.intervalSkipped, retries: t.intervalRetries }
        if (t.intervalFailed > 0) byType[t.name].errors = intervalErrors(t)
      }
      if (t.intervalHist.totalCount > 0) {
        histograms[t.name] = encodeHistogram(t.intervalHist)
        addInto(t.hist, t.intervalHist)
      }
      t.intervalCount = 0
      t.intervalFailed = 0
      t.intervalSkipped = 0
      t.intervalRetries = 0
      t.intervalHist.reset()
    }
    const a = this.intervalAll
    const l = this.intervalLag
    const q = this.intervalQueue
    const entry = {
      t: round3(tS),
      lengthS: round3(lengthS),
      count,
      tps: ratePerS(total, lengthS),
      failed,
      skipped,
      latencyMs: intervalLatencyMs(a),
      lagMs: intervalTailMs(l),
      queueMs: intervalTailMs(q),
      histograms
    }
    if (this.countsDrops) {
      entry.dropped = this.intervalDropped
      entry.arrivals = this.intervalArrivals
      this.intervalDropped = 0
      this.intervalArrivals = 0
    }
    // Lag and queue waits travel encoded too, so that partitions of a run merge exactly.
    if (l.totalCount > 0) entry.lagHistogram = encodeHistogram(l)
    if (q.totalCount > 0) entry.queueHistogram = encodeHistogram(q)
    if (a.totalCount > 0) addInto(this.all, a)
    if (l.totalCount > 0) addInto(this.lag, l)
    if (q.totalCount > 0) addInto(this.queue, q)
    a.reset()
    l.reset()
    q.reset()
    this.intervals.push(entry)
    return entry
  }

  /**
   * What the summary rounds: the latency sums per type and the cancelled transactions' waits, so
   * that a merge of worker threads derives the mean and standard deviation exactly.
   */
  exactSums () {
    return {
      types: this.types.map((t) => ({ name: t.name, sumUs: t.sumUs, sumSqUs: t.sumSqUs, count: t.count })),
      unfinishedWait: this.unfinishedWait.totalCount > 0 ? encodeHistogram(this.unfinishedWait) : null,
      unfinishedWaitSumUs: this.unfinishedWaitSumUs,
      unfinishedWaitSumSqUs: this.unfinishedWaitSumSqUs
    }
  }

  /**
   * Totals for the results document: every transaction recorded, in closed intervals or in the
   * one still open (which stays open: closing it later neither loses nor repeats anything).
   * @param {number} durationS the measured window
   */
  summarize (durationS) {
    this._settleOpen()
    const transactions = {}
    const errors = {}
    let count = 0; let failed = 0; let skipped = 0; let retries = 0; let retried = 0; let late = 0; let rollbacks = 0
    let unfinished = 0; let outcomeUnknown = 0
    let sum = 0; let sumSq = 0
    for (const t of this.types) {
      const typeErrors = Object.fromEntries(t.errors)
      for (const [k, v] of t.errors) errors[k] = (errors[k] ?? 0) + v
      const hist = withOpen(t.hist, t.intervalHist)
      const latencyMs = latencyFiguresMs(hist, t.sumUs, t.sumSqUs, t.count)
      transactions[t.name] = {
        count: t.count,
        failed: t.failed,
        skipped: t.skipped,
        rollbacks: t.rollbacks,
        retries: t.retries,
        retried: t.retried,
        late: t.late,
        unfinished: t.unfinished,
        outcomeUnknown: t.outcomeUnknown,
        tps: ratePerS(t.count, durationS),
        latencyMs,
        errors: typeErrors,
        keyingMs: { mean: t.keyingN ? round3(t.keyingSumUs / t.keyingN / 1000) : null },
        thinkMs: { mean: t.thinkN ? round3(t.thinkSumUs / t.thinkN / 1000) : null },
        histogram: encodeHistogram(hist)
      }
      count += t.count; failed += t.failed; skipped += t.skipped; retries += t.retries; retried += t.retried; late += t.late; rollbacks += t.rollbacks
      sum += t.sumUs; sumSq += t.sumSqUs
      unfinished += t.unfinished; outcomeUnknown += t.outcomeUnknown
    }
    const latencyMs = latencyFiguresMs(withOpen(this.all, this.intervalAll), sum, sumSq, count)
    const lag = withOpen(this.lag, this.intervalLag)
    const queue = withOpen(this.queue, this.intervalQueue)
    return {
      summary: {
        transactions: count,
        failed,
        skipped,
        retried,
        retries,
        late,
        rollbacks,
        unfinished,
        outcomeUnknown,
        unfinishedWaitMs: unfinished > 0 ? latencyFiguresMs(this.unfinishedWait, this.unfinishedWaitSumUs, this.unfinishedWaitSumSqUs, unfinished) : null,
        tps: ratePerS(count, durationS),
        latencyMs,
        lagMs: latencySummaryMs(lag),
        queueMs: latencySummaryMs(queue),
        errors,
        lagHistogram: encodeHistogram(lag),
        queueHistogram: encodeHistogram(queue),
        ...(this.countsDrops ? { dropped: this.droppedCount, arrivals: this.arrivalsCount } : {})
      },
      transactions
    }
  }
}
