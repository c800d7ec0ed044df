// The merge of partitions of one run: the same figures as the whole run recorded in one place,
// series aligned on wall-clock time, documents of other runs refused, order of no importance.

import { test } from 'node:test'
import { readFileSync } from 'node:fs'
import assert from 'node:assert/strict'
import { Recorder } from '../../../lib/metrics/recorder.js'
import { decodeHistogram } from '../../../lib/metrics/histogram.js'
import { buildResults } from '../../../lib/results/build.js'
import { mergeResults } from '../../../lib/results/merge.js'
import { validateResults } from '../../../lib/results/read.js'
import { seededRandom } from '../../helpers/seeded-random.js'

const TYPES = ['pay', 'order']
const START = Date.parse('2026-01-01T10:00:00.000Z')

/**
 * Record one synthetic run of 9.5 s (1 s intervals, the last one half) into the recorder of the
 * whole run and into the recorder of the partition each transaction belongs to.
 * @param {number} partitions
 * @param {number} seed
 */
function recordRun (partitions, seed) {
  const rnd = seededRandom(seed)
  const whole = new Recorder(TYPES, { latencyLimitUs: 20_000 })
  const parts = Array.from({ length: partitions }, () => new Recorder(TYPES, { latencyLimitUs: 20_000 }))
  const ends = [1, 2, 3, 4, 5, 6, 7, 8, 9, 9.5]
  ends.forEach((t, i) => {
    const n = 200 + rnd.int(300)
    for (let k = 0; k < n; k++) {
      const p = rnd.int(partitions)
      const type = rnd.int(2)
      const event = rnd.next()
      // a long tail, so that the high percentiles are far from the median
      const latencyUs = Math.round(500 + 3000 * rnd.next() ** 4 * (event > 0.99 ? 50 : 1))
      const lagUs = rnd.int(3) * 40
      const queueUs = rnd.int(4) === 0 ? 250 : 0
      for (const r of [whole, parts[p]]) {
        if (event < 0.02) r.failed(type, event < 0.01 ? '40001' : '23505')
        else if (event < 0.03) r.skipped(type)
        else {
          r.ok(type, latencyUs, lagUs, queueUs, event > 0.98)
          if (event > 0.97) r.retriedTimes(type, 1 + (k % 2))
        }
      }
    }
    for (const r of [whole, ...parts]) r.closeInterval(t, t - (i === 0 ? 0 : ends[i - 1]))
  })
  return { whole, parts }
}

/** A results document of a recorder, as buildResults writes it. */
function documentOf (recorder, { startMs = START, cpuUs = 1_000_000, options = {}, command = 'pgload run' } = {}) {
  const durationS = 9.5
  const { summary, transactions } = recorder.summarize(durationS)
  const txns = summary.transactions + summary.failed
  return buildResults({
    toolVersion: '1.0.0',
    options: { workload: 'script', intervalS: 1, seed: '7', protocol: 'prepared', clients: 8, ...options },
    workloadName: 'script',
    workload: { transactions: TYPES.map((name) => ({ name, weight: 1 })) },
    target: { display: 'postgres://localhost/x' },
    embedded: true,
    serverVersion: { version: '18.0', num: 180000 },
    host: { cpus: 2 },
    outcome: {
      startTime: new Date(startMs).toISOString(),
      endTime: new Date(startMs + 9500).toISOString(),
      durationS,
      terminals: 4,
      connections: 4,
      paced: false,
      aborted: false,
      abortedClients: 0,
      abortReason: null,
      interrupted: false,
      summary: { ...summary, initialConnectionMs: 3 },
      transactions,
      intervals: recorder.intervals,
      client: { cpuUs, cpuUsPerTxn: Math.round(cpuUs / txns * 100) / 100, eventLoopUtilization: 0.5 }
    },
    serverStats: { deltas: { walBytes: 1_000_000, blksRead: 10, blksHit: 990 }, perTransaction: { walBytes: 1 }, settings: {}, tableSizes: {} },
    extra: null
  })
}

const withoutMeanStddev = ({ mean, stddev, ...rest }) => rest
const near = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`)

test('two halves of a run merge to the figures of the whole run', () => {
  const { whole, parts } = recordRun(2, 11)
  const all = documentOf(whole, { cpuUs: 3_000_000 })
  const merged = mergeResults(parts.map((r, i) => documentOf(r, { startMs: START + i, cpuUs: 1_000_000 + i * 1_000_000 })))
  assert.equal(validateResults(merged), merged)
  for (const k of ['transactions', 'failed', 'skipped', 'retried', 'retries', 'late', 'rollbacks', 'tps']) {
    assert.equal(merged.summary[k], all.summary[k], `summary.${k}`)
  }
  assert.ok(all.summary.failed > 0 && all.summary.retries > 0 && all.summary.late > 0, 'the run has failures, retries and late transactions')
  assert.deepEqual(merged.summary.errors, all.summary.errors)
  assert.deepEqual(withoutMeanStddev(merged.summary.latencyMs), withoutMeanStddev(all.summary.latencyMs))
  assert.ok(all.summary.latencyMs.p999 > 3 * all.summary.latencyMs.p50, 'percentiles far apart: averaging would show')
  near(merged.summary.latencyMs.mean, all.summary.latencyMs.mean, 0.001, 'mean')
  near(merged.summary.latencyMs.stddev, all.summary.latencyMs.stddev, 0.002, 'stddev')
  assert.deepEqual(merged.summary.lagMs, all.summary.lagMs)
  assert.deepEqual(merged.summary.queueMs, all.summary.queueMs)
  assert.deepEqual(merged.summary.steadyState, all.summary.steadyState)
  for (const type of TYPES) {
    const m = merged.transactions[type]
    const w = all.transactions[type]
    for (const k of ['count', 'failed', 'skipped', 'rollbacks', 'retries', 'retried', 'late', 'tps']) assert.equal(m[k], w[k], `${type}.${k}`)
    assert.deepEqual(m.errors, w.errors)
    assert.deepEqual(withoutMeanStddev(m.latencyMs), withoutMeanStddev(w.latencyMs))
    near(m.latencyMs.mean, w.latencyMs.mean, 0.001, `${type} mean`)
    assert.equal(decodeHistogram(m.histogram).totalCount, w.count)
  }
  // the series, histograms included, is the whole run's
  assert.deepEqual(merged.intervals, all.intervals)
  assert.equal(merged.run.durationS, 9.5)
  assert.equal(merged.run.terminals, 8)
  assert.equal(merged.run.partitions, 2)
  assert.equal(merged.client.cpuUs, 3_000_000)
  assert.equal(merged.client.cpuUsPerTxn, all.client.cpuUsPerTxn)
  const attempts = all.summary.transactions + all.summary.failed
  assert.equal(merged.serverStats.perTransaction.walBytes, Math.round(1_000_000 / attempts * 1000) / 1000, 'server figures per transaction of the whole run')
})

test('a thread per partition: four partitions merge as exactly as two', () => {
  const { whole, parts } = recordRun(4, 5)
  const all = documentOf(whole)
  const merged = mergeResults(parts.map((r) => documentOf(r)))
  assert.deepEqual(withoutMeanStddev(merged.summary.latencyMs), withoutMeanStddev(all.summary.latencyMs))
  assert.deepEqual(merged.intervals, all.intervals)
  assert.equal(merged.summary.transactions, all.summary.transactions)
})

/** A small document with given interval counts, for alignment. */
function seriesDoc (startMs, counts, { lastLengthS = 1 } = {}) {
  const r = new Recorder(['t'])
  counts.forEach((n, i) => {
    for (let k = 0; k < n; k++) r.ok(0, 1000 + k, 0, 0, false)
    const lengthS = i === counts.length - 1 ? lastLengthS : 1
    r.closeInterval(i + lengthS, lengthS)
  })
  const durationS = counts.length - 1 + lastLengthS
  const { summary, transactions } = r.summarize(durationS)
  return buildResults({
    toolVersion: '1.0.0',
    options: { workload: 'tpcb', intervalS: 1, seed: '1' },
    workloadName: 'tpcb',
    workload: { transactions: [{ name: 't' }] },
    target: { display: 'x' },
    embedded: false,
    serverVersion: { version: '18.0', num: 180000 },
    host: {},
    outcome: { startTime: new Date(startMs).toISOString(), endTime: new Date(startMs + durationS * 1000).toISOString(), durationS, terminals: 1, connections: 1, paced: false, aborted: false, abortedClients: 0, abortReason: null, interrupted: false, summary, transactions, intervals: r.intervals, client: null },
    serverStats: null,
    extra: null
  })
}

test('series that started at different times are aligned on the nearest whole interval', () => {
  const a = seriesDoc(START, [10, 20, 30, 40])
  const b = seriesDoc(START + 2200, [1, 2, 3, 4]) // 2.2 s later: two intervals on
  const c = seriesDoc(START + 400, [100, 200, 300, 400], { lastLengthS: 0.5 }) // 0.4 s later: same grid slots
  const merged = mergeResults([b, c, a])
  assert.deepEqual(merged.intervals.map((iv) => [iv.t, iv.lengthS, iv.count.t]), [
    [1, 1, 110], [2, 1, 220], [3, 1, 331], [4, 1, 442], [5, 1, 3], [6, 1, 4]
  ])
  assert.equal(merged.intervals[3].tps, 442, 'a slot lasts as long as its longest interval')
  assert.equal(merged.run.durationS, 6, 'the window reaches the end of the latest partition on the grid')
  assert.equal(merged.run.startTime, new Date(START).toISOString())
  assert.equal(merged.summary.transactions, 100 + 10 + 1000)
  assert.equal(decodeHistogram(merged.intervals[4].histograms.t).totalCount, 3)
})

test('a ragged last interval on its own slot keeps its length', () => {
  const merged = mergeResults([seriesDoc(START, [5, 5], { lastLengthS: 0.25 }), seriesDoc(START + 10, [5, 5], { lastLengthS: 0.3 })])
  assert.deepEqual(merged.intervals.map((iv) => [iv.t, iv.lengthS, iv.tps]), [[1, 1, 10], [1.3, 0.3, 33.333]])
})

test('documents of different runs are refused with one line naming the field', () => {
  const { parts } = recordRun(2, 3)
  const a = documentOf(parts[0])
  assert.throws(() => mergeResults([a, documentOf(parts[1], { options: { seed: '8' } })], { sources: ['a.json', 'b.json'] }),
    (err) => err.code === 'RESULTS_MISMATCH' && !err.message.includes('\n') &&
      err.message === 'cannot merge b.json with a.json: not partitions of one run (run.seed differs: "7" vs "8")')
  assert.throws(() => mergeResults([a, documentOf(parts[1], { options: { clients: 16 } })]), /run\.options\.clients differs: 8 vs 16/)
  assert.throws(() => mergeResults([a, seriesDoc(START, [1])]), /run\.workload differs: "script" vs "tpcb"/)
  const broken = structuredClone(documentOf(parts[1]))
  broken.intervals[0].t = 'late'
  assert.throws(() => mergeResults([a, broken], { sources: ['a.json', 'b.json'] }), { code: 'RESULTS_INVALID', message: /^b\.json: intervals\[0\]\.t: expected a number/ })
  // where each partition wrote its results and its command line may differ
  const merged = mergeResults([a, documentOf(parts[1], { options: { out: 'b.json' }, command: 'pgload run --out b.json' })])
  assert.equal(merged.run.options.out, undefined)
  // so may whether each sampled the server's host: the statistics come from one of them
  assert.equal(mergeResults([a, documentOf(parts[1], { options: { serverHostStats: true } })]).run.options.serverHostStats, undefined)
})

test('the order of the documents does not change the merge', () => {
  const { parts } = recordRun(3, 9)
  const docs = parts.map((r, i) => documentOf(r, { startMs: START + 7 * i, cpuUs: 1000 * (i + 1) }))
  const one = mergeResults([docs[0], docs[1], docs[2]])
  const other = mergeResults([docs[2], docs[0], docs[1]])
  assert.deepEqual(other, one)
  // on equal start times only which partition counts as the coordinator can differ
  const tied = parts.map((r, i) => documentOf(r, { cpuUs: 1000 * (i + 1) }))
  tied[1].host = { cpus: 64 }
  const x = mergeResults([tied[0], tied[1], tied[2]])
  const y = mergeResults([tied[1], tied[2], tied[0]])
  assert.notDeepEqual(x.host, y.host)
  for (const k of ['summary', 'transactions', 'intervals', 'client']) assert.deepEqual(y[k], x[k], k)
  assert.equal(mergeResults([tied[1], tied[0]], { coordinator: 1 }).host.cpus, 2, 'the coordinator chosen keeps its host')
})

const fixture = (name) => JSON.parse(readFileSync(new URL(`../../fixtures/results/${name}`, import.meta.url), 'utf8'))
/** The same run recorded by a second partition that started `ms` later. */
function twinOf (doc, ms) {
  const twin = structuredClone(doc)
  twin.run.startTime = new Date(Date.parse(doc.run.startTime) + ms).toISOString()
  twin.run.options.out = 'other.json'
  return twin
}

test('a file of a real run merged with its twin: counts doubled, figures kept', () => {
  // written before lag and queue histograms were: those are known only to their extremes
  const doc = fixture('recorded-tpcb.json')
  const twin = twinOf(doc, 5)
  Object.assign(doc.script['tpcb-like'].commands[4], { count: 100, latencyMs: 2, retries: 1 })
  Object.assign(twin.script['tpcb-like'].commands[4], { count: 300, latencyMs: 4, retries: 0 })
  const m = mergeResults([doc, twin])
  assert.equal(m.summary.transactions, 2 * doc.summary.transactions)
  assert.equal(m.summary.tps, Math.round(2 * doc.summary.transactions / doc.run.durationS * 1000) / 1000)
  assert.deepEqual(withoutMeanStddev(m.summary.latencyMs), withoutMeanStddev(doc.summary.latencyMs))
  near(m.summary.latencyMs.mean, doc.summary.latencyMs.mean, 0.001, 'mean')
  assert.equal(m.summary.lagMs.p99, null)
  assert.equal(m.summary.lagMs.max, doc.summary.lagMs.max)
  assert.equal(m.intervals.length, doc.intervals.length)
  m.intervals.forEach((iv, i) => {
    assert.equal(iv.count['tpcb-like'], 2 * doc.intervals[i].count['tpcb-like'])
    assert.deepEqual(iv.latencyMs, doc.intervals[i].latencyMs, `interval ${i}`)
  })
  const cmd = m.script['tpcb-like'].commands[4]
  assert.deepEqual(cmd, { ...doc.script['tpcb-like'].commands[4], count: 400, latencyMs: 3.5, retries: 1 }, 'per-command counts added, mean latency weighted')
  assert.equal(m.client.cpuUs, 2 * doc.client.cpuUs)
  near(m.client.cpuUsPerTxn, doc.client.cpuUsPerTxn, 0.01, 'CPU per transaction')
  assert.deepEqual(m.serverStats.deltas, doc.serverStats.deltas, 'server statistics taken once')
})

const committedNewOrders = (doc) => doc.transactions['new-order'].count - doc.transactions['new-order'].rollbacks

test('a workload section is recomputed by the workload, never copied from one partition', () => {
  const doc = fixture('tpcc.json')
  assert.equal(mergeResults([doc, twinOf(doc, 3)]).tpcc, undefined)
  const m = mergeResults([doc, twinOf(doc, 3)], {
    sections: { tpcc: (merged) => ({ ...doc.tpcc, tpmC: committedNewOrders(merged) * 60 / merged.run.durationS, efficiency: null }) }
  })
  assert.equal(m.tpcc.tpmC, 2 * committedNewOrders(doc) * 60 / doc.run.durationS)
  assert.equal(mergeResults([doc]).tpcc.tpmC, doc.tpcc.tpmC, 'one partition is the whole run')
})

test('the wait sampler\'s sections of partitions add up: counts summed, figures derived again with the merged p99', () => {
  const { parts } = recordRun(2, 12)
  const docs = parts.map((r, i) => documentOf(r, { startMs: START + i }))
  const merged0 = mergeResults(parts.map((r, i) => documentOf(r, { startMs: START + i })))
  assert.equal(merged0.waits, undefined, 'no partition sampled: no section')
  const p99Us = merged0.transactions.pay.latencyMs.p99 * 1000
  // a bucket (an eighth of a doubling) well above the merged p99, and one well below it
  const slow = Math.floor(Math.log2(p99Us * 2) * 8)
  const fast = Math.floor(Math.log2(p99Us / 4) * 8)
  const section = (cpu, lock, n) => ({
    available: true,
    source: 'pg_stat_activity',
    pgWaitSampling: false,
    hz: 50,
    intervalMs: 20,
    ticks: { done: n, skipped: 1, failed: 0 },
    samples: { total: cpu + lock + 2, inTransaction: cpu + lock, idle: 2, outside: 0, moved: 0, hidden: 0, gone: 0 },
    types: { pay: { samples: cpu + lock, events: [], counts: { sampledMs: (cpu + lock) * 20, buckets: { CPU: [[fast, cpu]], 'Lock:transactionid': [[slow, lock]] }, statements: { 3: { CPU: cpu, 'Lock:transactionid': lock } } }, statements: [{ index: 3, name: 'UPDATE x', samples: cpu + lock, events: [] }] } }
  })
  docs[0].waits = section(6, 1, 10)
  docs[1].waits = section(2, 1, 12)
  const merged = mergeResults(docs)
  assert.equal(validateResults(merged), merged)
  const w = merged.waits
  assert.deepEqual(w.ticks, { done: 22, skipped: 2, failed: 0 })
  assert.equal(w.samples.inTransaction, 10)
  const pay = w.types.pay
  assert.equal(pay.samples, 10)
  assert.deepEqual(pay.events, [{ event: 'CPU', samples: 8, share: 0.8 }, { event: 'Lock:transactionid', samples: 2, share: 0.2 }])
  const n = merged.transactions.pay.count + merged.transactions.pay.failed
  assert.equal(pay.serverMs, Math.round(200 / n * 1000) / 1000)
  assert.deepEqual(pay.slow.events, [{ event: 'Lock:transactionid', samples: 2, share: 1 }])
  assert.equal(pay.typical.samples, 8)
  assert.deepEqual(pay.statements.map((s) => [s.index, s.name, s.samples]), [[3, 'UPDATE x', 10]])
  // a partition without samples: the merged section says so
  delete docs[1].waits
  assert.equal(mergeResults(docs).waits.available, false)
})

test('the wait classes over time of shards add up on the intervals\' grid: counts summed, sessions the sum of each sampler\'s', () => {
  const { parts } = recordRun(2, 13)
  const docs = parts.map((r, i) => documentOf(r, { startMs: START + i }))
  const entry = (t, ticks, samples, events) => ({
    t,
    lengthS: 1,
    ticks,
    samples,
    sessions: Object.fromEntries(Object.entries(samples).map(([k, n]) => [k, Math.round(n / ticks * 1000) / 1000])),
    events
  })
  const section = (series) => ({
    available: true,
    source: 'pg_stat_activity',
    pgWaitSampling: false,
    hz: 50,
    intervalMs: 20,
    ticks: { done: 100, skipped: 0, failed: 0 },
    samples: { total: 0, inTransaction: 0, idle: 0, outside: 0, moved: 0, hidden: 0, gone: 0 },
    types: {},
    series
  })
  docs[0].waits = section([entry(1, 50, { CPU: 50, Lock: 100 }, { 'Lock:transactionid': 100 }), entry(2, 50, { CPU: 25 }, {})])
  // the other shard's sampler read less often in the first interval
  docs[1].waits = section([entry(1, 40, { Lock: 20, CPU: 40 }, { 'Lock:transactionid': 15, 'Lock:tuple': 5 }), entry(2, 50, { IO: 10 }, { 'IO:DataFileRead': 10 })])
  const merged = mergeResults(docs)
  assert.equal(validateResults(merged), merged)
  assert.deepEqual(merged.waits.series, [
    { t: 1, lengthS: 1, ticks: 90, samples: { CPU: 90, Lock: 120 }, sessions: { CPU: 2, Lock: 2.5 }, events: { 'Lock:transactionid': 115, 'Lock:tuple': 5 } },
    { t: 2, lengthS: 1, ticks: 100, samples: { CPU: 25, IO: 10 }, sessions: { CPU: 0.5, IO: 0.2 }, events: { 'IO:DataFileRead': 10 } }
  ])
  // a document written before the series: the merged section has none
  delete docs[1].waits.series
  assert.equal(mergeResults(docs).waits.series, undefined)
})
