import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import {
  intervalSeconds, throughputRows, latencyRows, markerRows, serverRows,
  spectrumByType, distributionByType, thresholdRows, tpmcRows, responseTimeRows
} from '../../../lib/report/datasets.js'
import { spectrumRows, distributionRows } from '../../../lib/report/histogram-data.js'
import { createHistogram, recordUs, encodeHistogram, decodeHistogram } from '../../../lib/metrics/histogram.js'

const round3 = (v) => Math.round(v * 1000) / 1000
const fixture = (name) => JSON.parse(readFileSync(new URL(`../../fixtures/results/${name}`, import.meta.url), 'utf8'))

test('throughput rows are interval counts divided by the interval length', () => {
  const doc = fixture('tpcb-a.json')
  const rows = throughputRows(doc)
  assert.equal(rows.length, doc.intervals.length * 2)
  const first = rows.find((r) => r.t === 1 && r.type === 'tpcb-like')
  assert.equal(first.tps, doc.intervals[0].count['tpcb-like'])
  // Without a recorded length the step of t decides; an interval's own lengthS wins (a short last one).
  const doubled = { ...doc, run: { ...doc.run, options: {} }, intervals: doc.intervals.map(({ lengthS, ...iv }) => ({ ...iv, t: iv.t * 2 })) }
  assert.equal(intervalSeconds(doubled), 2)
  assert.equal(throughputRows(doubled)[0].tps, doc.intervals[0].count['tpcb-like'] / 2)
  doubled.intervals[0].lengthS = 1.5
  assert.equal(throughputRows(doubled)[0].tps, round3(doc.intervals[0].count['tpcb-like'] / 1.5))
  // A ragged last interval (here 40 ms of a 1 s step) is not drawn as a rate.
  const ragged = { ...doc, intervals: [...doc.intervals, { t: 30.04, lengthS: 0.04, count: { 'tpcb-like': 3 }, histograms: {} }] }
  assert.equal(Math.max(...throughputRows(ragged).map((r) => r.t)), 30)
  assert.equal(Math.max(...latencyRows(ragged).map((r) => r.t)), 30)
})

test('latency rows per interval are ordered p50 <= p90 <= p99 <= max', () => {
  const rows = latencyRows(fixture('tpcc.json'))
  const byT = new Map()
  for (const r of rows) byT.set(r.t, { ...byT.get(r.t), [r.stat]: r.ms })
  assert.equal(byT.size, 60)
  for (const s of byT.values()) {
    assert.ok(s.p50 <= s.p90 && s.p90 <= s.p99 && s.p99 <= s.max, JSON.stringify(s))
  }
})

test('latency rows fall back to the interval figures without histograms', () => {
  const doc = { run: {}, intervals: [{ t: 1, count: { a: 1 }, latencyMs: { p50: 1, p99: 2, max: 3 } }] }
  assert.deepEqual(latencyRows(doc).map((r) => r.stat), ['p50', 'p99', 'max'])
})

test('markers pair checkpoint start and end, keep autovacuum instants, and close open spans', () => {
  assert.deepEqual(markerRows(fixture('tpcb-a.json')), [
    { t: 12, t2: 17, kind: 'checkpoint', label: 'checkpoint' },
    { t: 22, t2: 22, kind: 'autovacuum', label: 'autovacuum pgbench_tellers' }
  ])
  const open = { run: { durationS: 30 }, intervals: [], serverStats: { events: [{ t: 5, kind: 'checkpoint-start' }] } }
  assert.deepEqual(markerRows(open), [{ t: 5, t2: 30, kind: 'checkpoint', label: 'checkpoint' }])
  // As lib/server's sampler writes them: an inferred start, a cause, float noise in t.
  const recorded = { run: {}, serverStats: { events: [{ t: 2, kind: 'checkpoint-start', inferred: true, cause: 'requested' }, { t: 2.9999999999999996, kind: 'checkpoint-end', cause: 'requested' }] } }
  assert.deepEqual(markerRows(recorded), [{ t: 2, t2: 3, kind: 'checkpoint', label: 'checkpoint (requested)' }])
})

test('server rows plot the sampler\'s rates and gauges, and skip the unknown ones', () => {
  const doc = {
    serverStats: {
      series: [
        { t: 2, walBytesPerS: 2e6, blksReadPerS: 5, blksHitPerS: 50, backends: { active: 3, idle: 1 }, lockWaits: 2 },
        { t: 4, walBytesPerS: null, blksReadPerS: null, blksHitPerS: 7, backends: null, lockWaits: null }
      ]
    }
  }
  const rows = serverRows(doc)
  const get = (t, series) => rows.find((r) => r.t === t && r.series === series)?.value
  assert.equal(get(2, 'WAL'), 2) // MB per second
  assert.equal(get(2, 'blocks read'), 5)
  assert.equal(get(2, 'active'), 3)
  assert.equal(get(2, 'lock waits'), 2)
  assert.equal(get(4, 'blocks hit'), 7)
  assert.deepEqual(rows.filter((r) => r.t === 4).map((r) => r.series), ['blocks hit'])
  assert.deepEqual(serverRows({}), [])
})

test('server rows carry pg_stat_io reads and writes per backend type', () => {
  const rows = serverRows({ serverStats: { series: [{ t: 1, ioPerS: { checkpointer: { reads: 0, writes: 40, extends: 0, fsyncs: 2 } } }, { t: 2, ioPerS: null }] } })
  assert.deepEqual(rows, [
    { t: 1, panel: 'io', series: 'checkpointer reads', backendType: 'checkpointer', op: 'reads', value: 0 },
    { t: 1, panel: 'io', series: 'checkpointer writes', backendType: 'checkpointer', op: 'writes', value: 40 }
  ])
})

test('spectrum stays finite, never decreases and ends at the maximum', () => {
  const h = createHistogram()
  for (let i = 1; i <= 1000; i++) recordUs(h, i * 10)
  const rows = spectrumRows(encodeHistogram(h))
  assert.ok(rows.length > 40)
  assert.equal(rows[0].inv, 1)
  for (const r of rows) {
    assert.ok(Number.isFinite(r.inv) && Number.isFinite(r.ms) && r.p <= 100, JSON.stringify(r))
    assert.ok(r.inv <= 1000)
  }
  // the maximum, as decoded: its bucket's upper edge, at or just above the recorded 10 ms
  assert.equal(rows.at(-1).p, 100)
  assert.equal(rows.at(-1).inv, 1000)
  assert.ok(rows.at(-1).ms >= 10 && rows.at(-1).ms < 10.01, `max ${rows.at(-1).ms}`)
  assert.ok(rows.slice(0, -1).every((r) => r.p < 100))
  for (let i = 1; i < rows.length; i++) assert.ok(rows[i].ms >= rows[i - 1].ms)
  const p90 = rows.find((r) => r.inv === 10)
  assert.ok(Math.abs(p90.ms - 9) < 0.05, `p90 ${p90.ms}`)
  assert.ok(JSON.stringify(spectrumByType(fixture('tpcb-b.json'))).indexOf('null') === -1)
  assert.deepEqual(spectrumRows(encodeHistogram(createHistogram())), [])
})

test('spectrum of a few samples with one slow outlier: the outlier is the last row', () => {
  const h = createHistogram()
  for (let i = 0; i < 5279; i++) recordUs(h, 5000 + (i % 100) * 100)
  recordUs(h, 94_200)
  const rows = spectrumRows(encodeHistogram(h))
  assert.ok(rows.at(-2).ms < 20, `the last percentile row ${rows.at(-2).ms} ms`)
  assert.equal(rows.at(-1).p, 100)
  assert.ok(Math.abs(rows.at(-1).ms - 94.2) < 0.1, `max ${rows.at(-1).ms}`)
  assert.equal(rows.at(-1).inv, 5280)
})

test('distribution bins hold every recorded value once', () => {
  const doc = fixture('tpcc.json')
  for (const [type, t] of Object.entries(doc.transactions)) {
    const rows = distributionRows(t.histogram)
    const total = rows.reduce((a, r) => a + r.count, 0)
    assert.equal(total, decodeHistogram(t.histogram).totalCount, type)
    assert.ok(Math.abs(rows.reduce((a, r) => a + r.pct, 0) - 100) < 0.1)
    for (const r of rows) assert.ok(r.lo < r.hi)
  }
  assert.equal(new Set(distributionByType(doc).map((r) => r.type)).size, 5)
})

test('thresholds with a latency value become lines; others are left out', () => {
  assert.deepEqual(thresholdRows(fixture('tpcb-b.json')), [{ ms: 12, label: 'p(99) < 12ms' }])
  assert.deepEqual(thresholdRows(fixture('tpcb-a.json')), [])
})

test('TPC-C rows: tpmC from New-Order counts, p90 against the clause limits', () => {
  const doc = fixture('tpcc.json')
  const tpmc = tpmcRows(doc)
  assert.equal(tpmc.length, 60)
  assert.equal(tpmc[0].tpmC, doc.intervals[0].count['new-order'] * 60)
  const rt = responseTimeRows(doc)
  assert.deepEqual(rt.map((r) => r.limitMs), [5000, 5000, 5000, 5000, 20000])
  assert.ok(rt.every((r) => r.status === 'within limit'))
  const slow = { ...doc, tpcc: undefined, transactions: { ...doc.transactions, delivery: { ...doc.transactions.delivery, latencyMs: { p90: 6000 } } } }
  assert.equal(responseTimeRows(slow).find((r) => r.type === 'delivery').status, 'over limit')
  assert.deepEqual(tpmcRows(fixture('tpcb-a.json')), [])
})

test('a checkpoint running when the run started is drawn from 0 and labelled so, with or without its start event', () => {
  const logged = { run: { durationS: 30 }, serverStats: { events: [{ t: 0, kind: 'checkpoint-start', cause: 'timed', inProgressAtStart: true, beganS: -40 }, { t: 12.5, kind: 'checkpoint-end', cause: 'timed' }, { t: 20, kind: 'checkpoint-start', cause: 'requested' }, { t: 20.4, kind: 'checkpoint-end', cause: 'requested' }] } }
  assert.deepEqual(markerRows(logged), [
    { t: 0, t2: 12.5, kind: 'checkpoint', label: 'checkpoint (timed), in progress when the run started' },
    { t: 20, t2: 20.4, kind: 'checkpoint', label: 'checkpoint (requested)' }
  ])
  const endOnly = { run: { durationS: 30 }, serverStats: { events: [{ t: 7, kind: 'checkpoint-end' }] } }
  assert.deepEqual(markerRows(endOnly), [{ t: 0, t2: 7, kind: 'checkpoint', label: 'checkpoint, in progress when the run started' }])
  const stillRunning = { run: { durationS: 30 }, serverStats: { events: [{ t: 0, kind: 'checkpoint-start', inProgressAtStart: true }] } }
  assert.deepEqual(markerRows(stillRunning), [{ t: 0, t2: 30, kind: 'checkpoint', label: 'checkpoint, in progress when the run started' }])
})

test('server rows carry the host\'s CPU shares in stacking order and its disk\'s I/Os with bytes, queue and the disk\'s name', () => {
  const host = { cpu: { busy: 60, user: 40, system: 15, iowait: 5, steal: 0, idle: 40 }, disk: { readsPerS: 2, writesPerS: 300, readBytesPerS: 8192, writeBytesPerS: 2_500_000, queue: 1.25 } }
  const rows = serverRows({ serverStats: { host: { available: true, disk: { name: 'vda' } }, series: [{ t: 1, host }, { t: 2, host: null }, { t: 3, host: { cpu: null, disk: null } }] } })
  assert.deepEqual(rows, [
    { t: 1, panel: 'hostCpu', series: 'user', order: 0, value: 40 },
    { t: 1, panel: 'hostCpu', series: 'system', order: 1, value: 15 },
    { t: 1, panel: 'hostCpu', series: 'iowait', order: 2, value: 5 },
    { t: 1, panel: 'hostCpu', series: 'steal', order: 3, value: 0 },
    { t: 1, panel: 'hostDisk', series: 'reads', value: 2, mbPerS: 0.008, queue: 1.25, disk: 'vda' },
    { t: 1, panel: 'hostDisk', series: 'writes', value: 300, mbPerS: 2.5, queue: 1.25, disk: 'vda' }
  ])
})
