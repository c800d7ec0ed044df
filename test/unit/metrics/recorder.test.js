import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Recorder } from '../../../lib/metrics/recorder.js'
import { createHistogram, decodeHistogram, encodeHistogram, mergeHistograms, latencySummaryMs, percentileMs, HIGHEST_US } from '../../../lib/metrics/histogram.js'

test('per-type counts, exact mean and stddev, failures by SQLSTATE, late transactions', () => {
  const r = new Recorder(['a', 'b'], { latencyLimitUs: 5000 })
  for (const us of [1000, 2000, 3000, 10000]) r.ok(0, us, 0, 0, false)
  r.ok(1, 4000, 100, 50, true)
  r.failed(1, '40001')
  r.failed(1, '40001')
  r.failed(0, '23505')
  r.skipped(0)
  r.retriedTimes(1, 3)
  const { summary, transactions } = r.summarize(2)
  assert.equal(summary.transactions, 5)
  assert.equal(summary.failed, 3)
  assert.equal(summary.skipped, 1)
  assert.equal(summary.rollbacks, 1)
  assert.equal(summary.retries, 3)
  assert.equal(summary.late, 1)
  assert.equal(summary.tps, 2.5)
  assert.deepEqual(summary.errors, { 40001: 2, 23505: 1 })
  assert.equal(transactions.a.latencyMs.mean, 4)
  assert.equal(transactions.a.latencyMs.stddev, Math.round(Math.sqrt((9 + 4 + 1 + 36) / 4) * 1000) / 1000)
  assert.equal(summary.latencyMs.mean, 4)
  assert.equal(decodeHistogram(transactions.a.histogram).totalCount, 4)
})

test('intervals hold exactly the transactions recorded in them and merge back to the total', () => {
  const r = new Recorder(['a'])
  for (let i = 0; i < 100; i++) r.ok(0, 1000 + i, 0, 0, false)
  const first = r.closeInterval(1, 1)
  for (let i = 0; i < 50; i++) r.ok(0, 5000 + i, 0, 0, false)
  const second = r.closeInterval(2, 1)
  const third = r.closeInterval(3, 1)
  assert.equal(first.count.a, 100)
  assert.equal(second.count.a, 50)
  assert.equal(third.count.a, 0)
  assert.equal(third.latencyMs.p50, null, 'an empty interval has no latency, not zero')
  assert.equal(first.tps, 100)
  assert.ok(second.latencyMs.p50 >= 5 && second.latencyMs.p50 < 5.1)
  const merged = mergeHistograms([first.histograms.a, second.histograms.a])
  const { transactions } = r.summarize(3)
  assert.equal(merged.totalCount, decodeHistogram(transactions.a.histogram).totalCount)
})

// What Recorder recorded before it folded intervals: every value straight into cumulative and
// interval histograms, through hdr's own recordValue of the clamped, rounded value.
const clamp = (us) => us < 1 ? 1 : us > HIGHEST_US ? HIGHEST_US : Math.round(us)

class Reference {
  constructor (names) {
    this.names = names
    this.cum = { all: createHistogram(), lag: createHistogram(), queue: createHistogram() }
    this.iv = { all: createHistogram(), lag: createHistogram(), queue: createHistogram() }
    for (const n of names) { this.cum[n] = createHistogram(); this.iv[n] = createHistogram() }
  }

  ok (type, latencyUs, lagUs, queueUs) {
    for (const set of [this.cum, this.iv]) {
      set[this.names[type]].recordValue(clamp(latencyUs))
      set.all.recordValue(clamp(latencyUs))
      set.lag.recordValue(clamp(lagUs))
      set.queue.recordValue(clamp(queueUs))
    }
  }

  closeInterval () {
    const a = this.iv.all
    const l = this.iv.lag
    const q = this.iv.queue
    const histograms = {}
    for (const n of this.names) if (this.iv[n].totalCount > 0) histograms[n] = encodeHistogram(this.iv[n])
    const entry = {
      histograms,
      latencyMs: a.totalCount === 0 ? { p50: null, p90: null, p99: null, max: null } : { p50: percentileMs(a, 50), p90: percentileMs(a, 90), p99: percentileMs(a, 99), max: Math.round(a.maxValue) / 1000 },
      lagMs: l.totalCount === 0 ? { p99: null, max: null } : { p99: percentileMs(l, 99), max: Math.round(l.maxValue) / 1000 },
      queueMs: q.totalCount === 0 ? { p99: null, max: null } : { p99: percentileMs(q, 99), max: Math.round(q.maxValue) / 1000 }
    }
    for (const h of Object.values(this.iv)) h.reset()
    return entry
  }
}

/** Cumulative results of summarize() against the reference's cumulative histograms. */
function assertCumulative (r, ref, what) {
  const { summary, transactions } = r.summarize(10)
  for (const n of ref.names) {
    assert.equal(transactions[n].histogram, encodeHistogram(ref.cum[n]), `${what}: ${n} histogram`)
    const { mean, stddev, ...rest } = transactions[n].latencyMs
    const { mean: m, stddev: s, ...want } = latencySummaryMs(ref.cum[n])
    assert.deepEqual(rest, want, `${what}: ${n} latency`)
  }
  const { mean, stddev, ...rest } = summary.latencyMs
  const { mean: m, stddev: s, ...want } = latencySummaryMs(ref.cum.all)
  assert.deepEqual(rest, want, `${what}: all latency`)
  assert.deepEqual(summary.lagMs, latencySummaryMs(ref.cum.lag), `${what}: lag`)
  assert.deepEqual(summary.queueMs, latencySummaryMs(ref.cum.queue), `${what}: queue`)
  assert.equal(summary.transactions, ref.cum.all.totalCount, `${what}: count`)
  // Doubling every count leaves the figures above unchanged: count what the recorder holds
  // (closed intervals in all/lag/queue, the open one in the interval histograms).
  for (const [cum, open, key] of [[r.all, r.intervalAll, 'all'], [r.lag, r.intervalLag, 'lag'], [r.queue, r.intervalQueue, 'queue']]) {
    assert.equal(cum.totalCount + open.totalCount, ref.cum[key].totalCount, `${what}: ${key} values held once`)
  }
}

test('values are recorded once, yet summaries equal direct recording, with an interval left open', () => {
  const names = ['new-order', 'payment', 'idle']
  const r = new Recorder(names)
  const ref = new Reference(names)
  let seed = 7
  const rnd = () => { seed = (seed * 1103515245 + 12345) >>> 0; return seed / 2 ** 32 }
  const sizes = [500, 0, 1, 3000, 40] // an empty interval and a one-transaction one among them
  for (const [i, n] of sizes.entries()) {
    for (let k = 0; k < n; k++) {
      const type = k % 2 // 'idle' never runs: no histograms of it anywhere
      const lat = k === 7 ? 5e9 : 10 ** (1 + rnd() * 6) + i * 1000
      const lag = k % 5 === 0 ? 0 : rnd() * 3000
      const queue = k % 3 === 0 ? -0.3 : rnd() * 2e5
      r.ok(type, lat, lag, queue, false)
      ref.ok(type, lat, lag, queue)
    }
    const got = r.closeInterval(i + 1, 1)
    const want = ref.closeInterval()
    for (const key of ['histograms', 'latencyMs', 'lagMs', 'queueMs']) assert.deepEqual(got[key], want[key], `interval ${i} ${key}`)
    assertCumulative(r, ref, `after interval ${i}`)
  }
  // An interval still open when summarize is called (run.js leaves one open when the last partial
  // interval is under a millisecond): counted, and counted once if it is closed afterwards.
  for (let k = 0; k < 200; k++) {
    const lat = 2e6 + k * 997
    r.ok(k % 2, lat, k, 3 * k, false)
    ref.ok(k % 2, lat, k, 3 * k)
  }
  assertCumulative(r, ref, 'open interval')
  assertCumulative(r, ref, 'open interval, summarized again')
  const got = r.closeInterval(6, 0.5)
  const want = ref.closeInterval()
  for (const key of ['histograms', 'latencyMs', 'lagMs', 'queueMs']) assert.deepEqual(got[key], want[key], `last interval ${key}`)
  assertCumulative(r, ref, 'after closing the open interval')
  assert.equal(r.summarize(10).summary.transactions, 500 + 1 + 3000 + 40 + 200)
  assert.equal(r.summarize(10).transactions.idle.histogram, encodeHistogram(createHistogram()))
})

test('unfinished waits: mean and stddev from the exact waits, never outside min..max', () => {
  const r = new Recorder(['a'])
  // long waits fall in wide buckets, whose midpoints put the histogram's own mean above its max
  const waitsUs = [17_319_350, 17_320_990, 17_320_000, 17_319_800]
  for (const us of waitsUs) r.unfinished(0, us)
  const w = r.summarize(10).summary.unfinishedWaitMs
  const mean = waitsUs.reduce((a, b) => a + b, 0) / waitsUs.length
  assert.equal(w.mean, Math.round(mean) / 1000)
  assert.ok(w.mean >= w.min && w.mean <= w.max, `mean ${w.mean} within ${w.min}..${w.max}`)
  const sd = Math.sqrt(waitsUs.reduce((a, b) => a + (b - mean) ** 2, 0) / waitsUs.length)
  assert.ok(Math.abs(w.stddev - sd / 1000) < 0.001, `stddev ${w.stddev} is the waits' ${sd / 1000}`)
})

test('an interval\'s failures by kind per type, differenced at its close: only with failures, summing to failed', () => {
  const r = new Recorder(['a', 'b'])
  r.failed(1, '40001')
  r.failed(1, '40001')
  r.failed(1, '23505')
  r.ok(0, 1000, 0, 0, false)
  const first = {}
  r.closeInterval(1, 1, first)
  assert.deepEqual(first.b.errors, { 40001: 2, 23505: 1 })
  assert.equal(first.a.errors, undefined)
  r.failed(1, '40001')
  r.failed(0, 'CLIENT_ERROR')
  const second = {}
  r.closeInterval(2, 1, second)
  assert.deepEqual(second.b.errors, { 40001: 1 })
  assert.deepEqual(second.a.errors, { CLIENT_ERROR: 1 })
  const third = {}
  r.closeInterval(3, 1, third)
  assert.equal(third.b.errors, undefined)
  // the outcome's totals stay whole
  assert.deepEqual(r.summarize(3).transactions.b.errors, { 40001: 3, 23505: 1 })
})
