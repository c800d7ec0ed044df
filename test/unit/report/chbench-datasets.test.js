// The report of a CH-benCHmark run draws the 22 queries as one line over time.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { throughputRows, ANALYTIC_LINE, intervalSeconds, lengthOf } from '../../../lib/report/datasets.js'
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
