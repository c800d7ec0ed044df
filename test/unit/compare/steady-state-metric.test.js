// compare's time-to-steady-state metric: lower is better, across runs; shown without a verdict
// from one run per side.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { compareRuns } from '../../../lib/compare/verdict.js'
import { formatCompareText } from '../../../lib/compare/format.js'

/** A base fixture whose throughput climbs over its first `rampS` seconds (a cold cache). */
function ramped (n, rampS) {
  const doc = JSON.parse(readFileSync(new URL(`../../fixtures/compare/base-${n}.json`, import.meta.url), 'utf8'))
  Object.defineProperty(doc, 'file', { value: `base-${n}-ramp${rampS}.json`, enumerable: false })
  doc.intervals.forEach((iv, i) => {
    if (i < rampS) iv.count = { 'tpcb-like': Math.round(iv.count['tpcb-like'] * (i + 1) / (rampS + 2)) }
  })
  return doc
}
const steadyRow = (v) => v.rows.find((r) => r.id === 'steady-state')

test('several runs per side: a longer warm-up is a regression of time to steady state', () => {
  const v = compareRuns([1, 2, 3, 4, 5].map((n) => ramped(n, 3)), [1, 2, 3, 4, 5].map((n) => ramped(n, 9)))
  const r = steadyRow(v)
  assert.deepEqual([r.metric, r.unit, r.better], ['steady-state', 's', 'lower'])
  assert.equal(r.a.median, 3)
  assert.equal(r.b.median, 9)
  assert.ok(r.p < 0.05, `p ${r.p}`)
  assert.equal(r.verdict, 'worse')
  assert.equal(steadyRow(compareRuns([1, 2, 3, 4, 5].map((n) => ramped(n, 9)), [1, 2, 3, 4, 5].map((n) => ramped(n, 3)))).verdict, 'better')
  assert.match(formatCompareText(v), /\nsteady-state s +3\.000 \[[\d., ]+\] +9\.000 \[[\d., ]+\] +\+200\.0%/)
})

test('runs that never settle are left out and counted', () => {
  const never = ramped(5, 3)
  never.intervals.forEach((iv, i) => { iv.count = { 'tpcb-like': 100 + 60 * i } })
  const v = compareRuns([1, 2, 3, 4].map((n) => ramped(n, 3)).concat(never), [1, 2, 3, 4, 5].map((n) => ramped(n, 3)))
  const r = steadyRow(v)
  assert.equal(r.a.n, 4)
  assert.equal(r.note, '1 run never steady, left out')
})

test('one run per side: both times, no interval and no verdict', () => {
  const v = compareRuns([ramped(1, 2)], [ramped(2, 8)])
  const r = steadyRow(v)
  assert.deepEqual([r.a.median, r.b.median, r.a.lo, r.p, r.verdict], [2, 8, null, null, '~'])
  assert.equal(r.change.estimate, 3)
  assert.match(r.note, /no interval from one run per side/)
  assert.match(formatCompareText(v), /\nsteady-state s +2\.000 +8\.000 +\+300\.0% +- +~ \(no interval/)
})
