// The spike rule as a pure function over intervals, the wait series and the server's events: a
// spike is reported only with a cause in its interval, and a calm run says nothing.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { latencySpikes, spikeLine, spikesOf, SPIKE_FACTOR, LOCK_SHARE } from '../../../lib/waits/latency-spikes.js'

/** 1 s intervals ending at 1..n with the given p99s (and a max that moves with them). */
const intervals = (p99s) => p99s.map((p99, i) => ({ t: i + 1, lengthS: 1, latencyMs: { p50: 1, p99, max: p99 + 0.5 } }))
const waitsAt = (t, samples, events = {}) => ({ t, lengthS: 1, ticks: 50, samples, sessions: {}, events })

test('a calm run, even with a checkpoint and lock waits: no spike, no line', () => {
  const ivs = intervals([10, 11, 9, 12, 10, 11, 10])
  const events = [{ t: 2.5, kind: 'checkpoint-start' }, { t: 4, kind: 'checkpoint-end' }]
  const series = [waitsAt(3, { CPU: 10, Lock: 40 }, { 'Lock:transactionid': 40 })]
  assert.deepEqual(latencySpikes({ intervals: ivs, series, events }), [])
  assert.equal(spikeLine([]), null)
})

test('a spike without a cause in its interval says nothing', () => {
  const ivs = intervals([10, 10, 10, 48, 10, 10])
  const events = [{ t: 1.2, kind: 'checkpoint-start' }, { t: 1.8, kind: 'checkpoint-end' }, { t: 5.5, kind: 'autovacuum', table: 'pgbench_accounts' }]
  assert.deepEqual(latencySpikes({ intervals: ivs, events }), [])
})

test('a spike during a checkpoint, with the interval\'s top wait event', () => {
  const ivs = intervals([10, 12, 10, 11, 48, 10, 9])
  const events = [{ t: 4.6, kind: 'checkpoint-start' }, { t: 9, kind: 'checkpoint-end' }]
  const series = [waitsAt(5, { CPU: 19, Lock: 31 }, { 'Lock:transactionid': 31 })]
  const spikes = latencySpikes({ intervals: ivs, series, events })
  assert.equal(spikes.length, 1)
  assert.deepEqual(spikes[0].causes, ['a checkpoint', 'a lock pile-up'])
  assert.equal(spikeLine(spikes), 'latency spike at 4-5 s (p99 48 ms, 4.8x the median interval) with a checkpoint and a lock pile-up; Lock:transactionid 62 % of sampled sessions')
})

test('a checkpoint still running at the end (no end event) covers the intervals after its start', () => {
  const ivs = intervals([10, 10, 10, 10, 10, 40])
  const spikes = latencySpikes({ intervals: ivs, events: [{ t: 3.5, kind: 'checkpoint-start' }] })
  assert.deepEqual(spikes.map((s) => [s.toS, s.causes]), [[6, ['a checkpoint']]])
})

test('a lock pile-up alone: Lock at least the documented share of the sampled sessions', () => {
  const ivs = intervals([5, 5, 5, 5, 30])
  const below = Math.floor(LOCK_SHARE * 100) - 1
  const low = [waitsAt(5, { CPU: 100 - below, Lock: below }, { 'Lock:tuple': below })]
  assert.deepEqual(latencySpikes({ intervals: ivs, series: low }), [])
  const high = [waitsAt(5, { CPU: 40, Lock: 60 }, { 'Lock:transactionid': 55, 'Lock:tuple': 5 })]
  const [spike] = latencySpikes({ intervals: ivs, series: high })
  assert.deepEqual(spike.causes, ['a lock pile-up'])
  assert.match(spikeLine([spike]), /^latency spike at 4-5 s \(p99 30 ms, 6\.0x the median interval\) with a lock pile-up; Lock:transactionid 55 % of sampled sessions$/)
})

test('an autovacuum counts on a workload table only', () => {
  const ivs = intervals([10, 10, 10, 40, 10])
  const events = [{ t: 3.4, kind: 'autovacuum', table: 'public.other' }]
  assert.deepEqual(latencySpikes({ intervals: ivs, events, tables: ['pgbench_accounts'] }), [])
  events.push({ t: 3.6, kind: 'autovacuum', table: 'public.pgbench_accounts' })
  const [spike] = latencySpikes({ intervals: ivs, events, tables: ['pgbench_accounts'] })
  assert.deepEqual(spike.causes, ['an autovacuum of public.pgbench_accounts'])
})

test('the factor and the floor: 3x a sub-millisecond median is no spike', () => {
  const events = [{ t: 0, kind: 'checkpoint-start' }]
  assert.deepEqual(latencySpikes({ intervals: intervals([0.2, 0.2, 0.2, 0.9]), events }), [])
  assert.equal(latencySpikes({ intervals: intervals([2, 2, 2, 2 * SPIKE_FACTOR]), events }).length, 1)
  assert.deepEqual(latencySpikes({ intervals: intervals([2, 2, 2, 2 * SPIKE_FACTOR - 0.1]), events }), [])
})

test('a few transactions that waited long among many that did not: the max spikes, the p99 does not', () => {
  const ivs = intervals([5, 5, 5, 5, 5])
  ivs[3].latencyMs.max = 2000
  const series = [waitsAt(4, { Lock: 90, CPU: 10 }, { 'Lock:transactionid': 90 })]
  const [spike] = latencySpikes({ intervals: ivs, series })
  assert.equal(spikeLine([spike]), 'latency spike at 3-4 s (max 2000 ms, 363.6x the median interval) with a lock pile-up; Lock:transactionid 90 % of sampled sessions')
})

test('transactions that waited on a lock for two intervals end in the third: the pile-up before them is the cause', () => {
  const ivs = intervals([5, 5, 5, 5, 5, 5])
  ivs[2].latencyMs = { p50: null, p99: null, max: null } // nothing ended: every session waited
  ivs[3].latencyMs.max = 1800
  const series = [waitsAt(2, { CPU: 10 }), waitsAt(3, { Lock: 100 }, { 'Lock:transactionid': 100 }), waitsAt(4, { CPU: 10 })]
  assert.equal(spikeLine(latencySpikes({ intervals: ivs, series })), 'latency spike at 3-4 s (max 1800 ms, 327.3x the median interval) with a lock pile-up; Lock:transactionid 100 % of sampled sessions at 2-3 s')
  // a pile-up longer ago than the slowest transaction ran is no cause
  ivs[3].latencyMs.max = 900
  const earlier = [waitsAt(2, { Lock: 100 }, { 'Lock:transactionid': 100 }), waitsAt(3, { CPU: 10 }), waitsAt(4, { CPU: 10 })]
  assert.deepEqual(latencySpikes({ intervals: ivs, series: earlier }), [])
})

test('too few intervals to have a median: nothing', () => {
  assert.deepEqual(latencySpikes({ intervals: intervals([1, 50]), events: [{ t: 0, kind: 'checkpoint-start' }] }), [])
})

test('several spikes: the largest is the line, the others counted', () => {
  const ivs = intervals([10, 40, 10, 10, 60, 10, 10])
  const spikes = latencySpikes({ intervals: ivs, events: [{ t: 0, kind: 'checkpoint-start' }] })
  assert.deepEqual(spikes.map((s) => s.toS), [5, 2])
  assert.match(spikeLine(spikes), /^latency spike at 4-5 s \(p99 60 ms, 6\.0x the median interval\) with a checkpoint \(1 more interval alike\)$/)
})

test('from a results document: its intervals, waits series, server events and tables', () => {
  const doc = {
    intervals: intervals([10, 10, 10, 48]),
    waits: { available: true, series: [waitsAt(4, { Lock: 8, CPU: 2 }, { 'Lock:transactionid': 8 })] },
    serverStats: { events: [null, { t: 'x' }], tables: { waits_t: {} } }
  }
  assert.match(spikeLine(spikesOf(doc)), /with a lock pile-up; Lock:transactionid 80 % of sampled sessions$/)
})

test('a workload that always waits on locks has no pile-up: the share must be the documented factor above the usual', () => {
  const ivs = intervals([5, 5, 5, 5, 30, 5])
  const always = ivs.map((iv) => waitsAt(iv.t, { CPU: 55, Lock: 45 }, { 'Lock:transactionid': 45 }))
  assert.deepEqual(latencySpikes({ intervals: ivs, series: always }), [], 'Lock 45 % in every interval: no cause')
  always[4] = waitsAt(5, { CPU: 5, Lock: 95 }, { 'Lock:transactionid': 95 })
  assert.deepEqual(latencySpikes({ intervals: ivs, series: always })[0].causes, ['a lock pile-up'], 'twice the usual share: a pile-up')
})
