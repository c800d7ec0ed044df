// A results document as rows: percentiles read from the histograms, counts and the series as in
// the file, and a content key that does not depend on the file's layout.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { contentKey, runRow, typeRows, intervalRows, latencyColumns } from '../../../lib/store/run-rows.js'
import { decodeHistogram, mergeHistograms, percentileMs } from '../../../lib/metrics/histogram.js'

const fixture = (name) => JSON.parse(readFileSync(new URL(`../../fixtures/results/${name}`, import.meta.url), 'utf8'))

test('the content key is the same for a re-indented copy and differs for another run', () => {
  const doc = fixture('tpcb-a.json')
  const copy = JSON.parse(JSON.stringify(doc, null, 4))
  assert.equal(contentKey(copy), contentKey(doc))
  assert.match(contentKey(doc), /^[0-9a-f]{64}$/)
  assert.notEqual(contentKey(fixture('tpcb-b.json')), contentKey(doc))
})

test('per-type rows: counts as in the file, percentiles from each type\'s histogram', () => {
  const doc = fixture('tpcc.json')
  const rows = typeRows(doc)
  assert.deepEqual(rows.map((r) => r.txn_type), Object.keys(doc.transactions))
  for (const r of rows) {
    const t = doc.transactions[r.txn_type]
    assert.equal(r.count, t.count)
    assert.equal(r.histogram, t.histogram)
    const h = decodeHistogram(t.histogram)
    assert.equal(r.p99_ms, percentileMs(h, 99), `${r.txn_type} p99`)
    // the file's figures come from the same histogram
    for (const k of ['p50', 'p90', 'p95', 'p99', 'p999']) assert.equal(r[`${k}_ms`], t.latencyMs[k], `${r.txn_type} ${k}`)
    assert.equal(r.mean_ms, t.latencyMs.mean)
    assert.equal(r.max_ms, t.latencyMs.max)
  }
})

test('the run row: whole-run percentiles from the merged histograms of all types', () => {
  const doc = fixture('tpcb-a.json')
  const row = runRow(doc, { sourceFile: '/x/tpcb-a.json' })
  const merged = mergeHistograms(Object.values(doc.transactions).map((t) => t.histogram))
  assert.equal(row.p50_ms, percentileMs(merged, 50))
  assert.equal(row.p99_ms, doc.summary.latencyMs.p99)
  assert.equal(row.transactions, doc.summary.transactions)
  assert.equal(row.tps, doc.summary.tps)
  assert.equal(row.workload, 'tpcb')
  assert.equal(row.server_version, doc.server.version)
  assert.deepEqual(row.server_settings, doc.serverStats.settings)
  assert.deepEqual(row.transaction_types, ['tpcb-like', 'select-only'])
  assert.equal(row.source_file, '/x/tpcb-a.json')
  assert.equal(row.content_key, contentKey(doc))
})

test('TPC-C: tpmC and the warehouses as the scale', () => {
  const doc = fixture('tpcc.json')
  const row = runRow(doc)
  assert.equal(row.tpmc, doc.tpcc.tpmC)
  assert.equal(row.scale, doc.run.scale ?? doc.tpcc.warehouses)
})

test('interval rows: one per interval, transactions the sum of the per-type counts', () => {
  const doc = fixture('tpcb-a.json')
  const rows = intervalRows(doc)
  assert.equal(rows.length, doc.intervals.length)
  rows.forEach((r, i) => {
    const iv = doc.intervals[i]
    assert.equal(r.seq, i)
    assert.equal(r.t_s, iv.t)
    assert.equal(r.transactions, Object.values(iv.count).reduce((a, b) => a + b, 0))
    assert.equal(r.p99_ms, iv.latencyMs.p99)
    assert.deepEqual(r.counts, iv.count)
  })
})

test('latency columns without a histogram are the written figures; absent ones are null', () => {
  const lat = { mean: 2, stddev: 1, min: 0.5, p50: 1.5, p90: 3, p95: 4, p99: 6, p999: 9, max: 12 }
  assert.deepEqual(latencyColumns(lat, null), { mean_ms: 2, stddev_ms: 1, min_ms: 0.5, p50_ms: 1.5, p90_ms: 3, p95_ms: 4, p99_ms: 6, p999_ms: 9, max_ms: 12 })
  assert.equal(latencyColumns(undefined, undefined).p99_ms, null)
})

test('a capacity search is stored at its answer\'s rate, not its first step\'s', () => {
  const doc = fixture('tpcb-a.json')
  doc.run.rate = 100
  doc.capacity = { steps: [], answer: { limit: 'server', rate: 336, line: 'capacity: 336 tps sustained with p(99) 45 ms' } }
  assert.equal(runRow(doc).rate, 336)
  delete doc.capacity
  assert.equal(runRow(doc).rate, 100)
})

test('a capacity search\'s row has its answer\'s rate and the latency of the step that held it, not the whole run\'s', () => {
  const doc = fixture('tpcb-a.json')
  const step = (index, offeredRate, held, p99) => ({ index, offeredRate, held, latencyMs: { p50: p99 / 5, p90: p99 / 2, p99, max: p99 * 2 } })
  doc.capacity = {
    steps: [step(1, 500, false, 300), step(2, 250, false, 120), step(3, 125, true, 15.1), step(4, 188, false, 40)],
    answer: { limit: 'server', rate: 125, heldStep: 3, line: 'capacity: 125 tps sustained with p(99) 15.1 ms' }
  }
  const row = runRow(doc)
  assert.equal(row.rate, 125)
  assert.equal(row.tps, 125)
  assert.equal(row.p50_ms, 15.1 / 5)
  assert.equal(row.p99_ms, 15.1)
  assert.equal(row.max_ms, 30.2)
  assert.equal(row.p95_ms, null) // a step has no p95: empty, not the whole run's
  assert.equal(row.transactions, doc.summary.transactions) // counts stay the run's
  doc.capacity.answer = { limit: 'none-held', rate: null, heldStep: null, line: 'capacity: no step held' }
  assert.equal(runRow(doc).tps, null)
  assert.equal(runRow(doc).p99_ms, null)
})
