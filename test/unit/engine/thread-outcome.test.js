// The merge of worker threads' figures: the same as one recorder that saw every transaction.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Recorder } from '../../../lib/metrics/recorder.js'
import { Prng } from '../../../lib/random/prng.js'
import { mergeOutcomes, partFromIntervals } from '../../../lib/engine/thread-outcome.js'
import { IntervalMerge } from '../../../lib/engine/interval-merge.js'

const TYPES = ['a', 'b']

/** A worker's 'interval' payload (lib/engine/run-handle.js), with 2 connections and 3 terminals. */
function event (index, elapsedS, interval) {
  const types = Object.fromEntries(TYPES.map((t) => [t, { count: interval.count[t], failed: 0, skipped: 0, retries: 1 }]))
  return {
    index,
    elapsedS,
    lengthS: 1,
    final: false,
    interval,
    types,
    connections: { size: 2, active: 1, waiting: 0 },
    terminals: { total: 3, keying: 0, thinking: 0, running: 1, waiting: 0, finished: 2 }
  }
}

/** Record the same latencies into per-thread recorders and into one that sees them all. */
function recorded () {
  const random = Prng.fromSeed(5n)
  const parts = [new Recorder(TYPES), new Recorder(TYPES)]
  const whole = new Recorder(TYPES)
  for (let k = 0; k < 3; k++) {
    for (let i = 0; i < 4000; i++) {
      const part = random.int(0, 1)
      const type = random.int(0, 1)
      const us = random.int(50, 90000)
      const lag = random.int(0, 30)
      parts[part].ok(type, us, lag, 0, false)
      whole.ok(type, us, lag, 0, false)
      if (i % 500 === 0) { parts[part].failed(type, '40001'); whole.failed(type, '40001') }
    }
    for (const r of [...parts, whole]) r.closeInterval(k + 1, 1)
  }
  return { parts, whole }
}

const partResult = (r) => {
  const { summary, transactions } = r.summarize(3)
  return {
    outcome: { durationS: 3, terminals: 1, connections: 1, paced: false, aborted: false, abortedClients: 0, abortReason: null, interrupted: false, graceS: 10, cancelled: { grace: 0, abort: 0, timeout: 0 }, summary, transactions, backendPids: [], startTime: '2026-01-01T00:00:00.000Z', endTime: '2026-01-01T00:00:03.000Z' },
    exact: { types: r.types.map((t) => ({ name: t.name, sumUs: t.sumUs, sumSqUs: t.sumSqUs, count: t.count })), unfinishedWait: null },
    thread: {}
  }
}

test('merged totals equal one recorder\'s: counts, failures, percentiles, mean and stddev', () => {
  const { parts, whole } = recorded()
  const ticks = []
  const merge = new IntervalMerge(2, 1, (t) => ticks.push(t))
  // thread 1 reports its intervals before thread 0: each is merged once both closed it
  for (let k = 0; k < 3; k++) merge.add(1, event(k, k + 1, parts[1].intervals[k]))
  assert.equal(ticks.length, 0)
  for (let k = 0; k < 3; k++) merge.add(0, event(k, k + 1, parts[0].intervals[k]))
  assert.equal(ticks.length, 3)
  // the payload of a plain Run's 'interval', summed over the threads
  assert.deepEqual(ticks.map((t) => t.index), [0, 1, 2])
  assert.deepEqual(ticks[0].connections, { size: 4, active: 2, waiting: 0 })
  assert.deepEqual(ticks[0].terminals, { total: 6, keying: 0, thinking: 0, running: 2, waiting: 0, finished: 4, paused: 0 })
  assert.equal(ticks[0].types.a.count, ticks[0].interval.count.a)
  assert.equal(ticks[0].types.b.retries, 2)
  const merged = mergeOutcomes(parts.map(partResult), { intervals: merge.intervals, intervalS: 1, typeNames: TYPES })
  const expected = whole.summarize(3)
  assert.equal(merged.summary.transactions, expected.summary.transactions)
  assert.equal(merged.summary.failed, expected.summary.failed)
  assert.deepEqual(merged.summary.errors, expected.summary.errors)
  assert.deepEqual(merged.summary.latencyMs, expected.summary.latencyMs)
  assert.deepEqual(merged.summary.lagMs, expected.summary.lagMs)
  for (const name of TYPES) {
    assert.equal(merged.transactions[name].count, expected.transactions[name].count)
    assert.deepEqual(merged.transactions[name].latencyMs, expected.transactions[name].latencyMs)
  }
  for (let k = 0; k < 3; k++) {
    assert.deepEqual(ticks[k].interval.count, whole.intervals[k].count)
    assert.deepEqual(ticks[k].interval.latencyMs, whole.intervals[k].latencyMs)
  }
})

test('a worker that ended closes no more intervals: the others\' are merged without it', () => {
  const { parts } = recorded()
  const ticks = []
  const merge = new IntervalMerge(2, 1, (t) => ticks.push(t))
  merge.add(0, event(0, 1, parts[0].intervals[0]))
  merge.add(0, event(1, 2, parts[0].intervals[1]))
  assert.equal(ticks.length, 0)
  merge.add(1, event(0, 1, parts[1].intervals[0]))
  assert.equal(ticks.length, 1)
  merge.end(1)
  assert.equal(ticks.length, 2)
  assert.deepEqual(ticks[1].interval.count, parts[0].intervals[1].count)
  // what the ended worker had measured, from its one interval
  const part = partFromIntervals(merge.byPart[1], TYPES)
  assert.equal(part.outcome.summary.transactions, parts[1].intervals[0].count.a + parts[1].intervals[0].count.b)
})

test('unfinished waits merged from worker threads: the exact mean of all, within min..max', () => {
  const parts = [new Recorder(TYPES), new Recorder(TYPES)]
  const whole = new Recorder(TYPES)
  const waits = [[17_319_350, 17_320_990], [17_320_000, 5_000]]
  waits.forEach((ws, i) => { for (const us of ws) { parts[i].unfinished(0, us); whole.unfinished(0, us) } })
  const result = (r) => ({ ...partResult(r), exact: r.exactSums() })
  const merged = mergeOutcomes(parts.map(result), { intervals: [], intervalS: 1, typeNames: TYPES })
  const expected = whole.summarize(3).summary.unfinishedWaitMs
  assert.equal(merged.summary.unfinished, 4)
  assert.equal(merged.summary.unfinishedWaitMs.mean, expected.mean)
  assert.equal(merged.summary.unfinishedWaitMs.stddev, expected.stddev)
  assert.equal(merged.summary.unfinishedWaitMs.max, expected.max)
  assert.equal(expected.mean, Math.round((17_319_350 + 17_320_990 + 17_320_000 + 5_000) / 4) / 1000)
})

test('the merged interval sums the workers\' failures by kind per type', () => {
  const ticks = []
  const merge = new IntervalMerge(2, 1, (t) => ticks.push(t))
  const at = (types) => ({ index: 0, elapsedS: 1, lengthS: 1, final: false, interval: { t: 1, lengthS: 1, count: {}, histograms: {} }, types, connections: { size: 1, active: 0, waiting: 0 }, terminals: null })
  merge.add(0, at({ a: { count: 1, failed: 3, skipped: 0, retries: 4, errors: { 40001: 2, 23505: 1 } }, b: { count: 2, failed: 0, skipped: 0, retries: 0 } }))
  merge.add(1, at({ a: { count: 0, failed: 1, skipped: 0, retries: 2, errors: { 40001: 1 } }, b: { count: 1, failed: 1, skipped: 0, retries: 0, errors: { '40P01': 1 } } }))
  assert.equal(ticks.length, 1)
  assert.deepEqual(ticks[0].types, {
    a: { count: 1, failed: 4, skipped: 0, retries: 6, errors: { 40001: 3, 23505: 1 } },
    b: { count: 3, failed: 1, skipped: 0, retries: 0, errors: { '40P01': 1 } }
  })
})
