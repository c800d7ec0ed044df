// The report of a CH-benCHmark run draws the 22 queries as one line over time.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { throughputRows, latencyRows, streamSetRows, spectrumByType, distributionByType, ANALYTIC_LINE, intervalSeconds, lengthOf } from '../../../lib/report/datasets.js'
import { round3 } from '../../../lib/format/round.js'

const recorded = () => JSON.parse(readFileSync(new URL('../../fixtures/results/recorded-chbench-k1.json', import.meta.url), 'utf8'))

test('throughput over time: TPC-C\'s five types and one line of analytic queries, their sum per interval', () => {
  const doc = recorded()
  const rows = throughputRows(doc)
  assert.deepEqual([...new Set(rows.map((r) => r.type))].sort(), [ANALYTIC_LINE, 'delivery', 'new-order', 'order-status', 'payment', 'stock-level'])
  const dt = intervalSeconds(doc)
  let seen = 0
  for (const iv of doc.intervals) {
    const n = Object.entries(iv.count).filter(([t]) => /^q\d+$/.test(t)).reduce((s, [, c]) => s + c, 0)
    const row = rows.find((r) => r.t === iv.t && r.type === ANALYTIC_LINE)
    if (!row) continue
    assert.equal(row.tps, round3(n / lengthOf(iv, dt)))
    seen += n
  }
  assert.ok(seen > 0)
})

test('a script with a type named q1 keeps its own line', () => {
  const doc = recorded()
  delete doc.chbench
  assert.ok(throughputRows(doc).some((r) => r.type === 'q1'))
})

test('latency over time: the transactions\' only; an interval where only queries ended is left out', () => {
  // 2 streams beside TPC-C: queries of seconds, transactions of milliseconds
  const doc = JSON.parse(readFileSync(new URL('../../fixtures/results/recorded-chbench-k2.json', import.meta.url), 'utf8'))
  const rows = latencyRows(doc)
  const queryOnly = doc.intervals.filter((iv) => Object.keys(iv.histograms ?? {}).every((t) => /^q\d+$/.test(t)))
  for (const iv of queryOnly) assert.ok(!rows.some((r) => r.t === iv.t), `interval ${iv.t}`)
  const withQueries = doc.intervals.find((iv) => iv.latencyMs.max > 1000 && Object.keys(iv.histograms ?? {}).some((t) => !/^q\d+$/.test(t)))
  assert.ok(withQueries)
  const max = rows.find((r) => r.t === withQueries.t && r.stat === 'max').ms
  assert.ok(max < withQueries.latencyMs.max, `${max} ms is the interval's max with its queries`)
})

test('stream set rows: one per complete set, named by stream', () => {
  const doc = recorded()
  doc.chbench.sets = [{ stream: 0, complete: 2, meanS: 1, endsS: [1.5, 3] }, { stream: 1, complete: 0, meanS: null, endsS: [] }]
  assert.deepEqual(streamSetRows(doc), [{ t: 1.5, stream: 1, label: 'stream 1: set 1 complete' }, { t: 3, stream: 1, label: 'stream 1: set 2 complete' }])
  delete doc.chbench
  assert.deepEqual(streamSetRows(doc), [])
})

test('latency by percentile and the distribution: the queries as one merged histogram', () => {
  const doc = recorded()
  const queries = Object.keys(doc.transactions).filter((t) => /^q\d+$/.test(t))
  const count = queries.reduce((n, t) => n + doc.transactions[t].count, 0)
  for (const rows of [spectrumByType(doc), distributionByType(doc)]) {
    assert.deepEqual([...new Set(rows.map((r) => r.type))], ['new-order', 'payment', 'order-status', 'delivery', 'stock-level', ANALYTIC_LINE])
  }
  // the merged spectrum's last step is at the queries' whole count (1/(1-p) where samples run out)
  const last = spectrumByType(doc).filter((r) => r.type === ANALYTIC_LINE).at(-1)
  assert.equal(last.p, 100)
  const max = Math.max(...queries.filter((t) => doc.transactions[t].count > 0).map((t) => doc.transactions[t].latencyMs.max))
  // the histogram's 3 significant digits
  assert.ok(Math.abs(last.ms - max) <= max * 1e-3, `${last.ms} against ${max}`)
  assert.ok(count > 1)
})
