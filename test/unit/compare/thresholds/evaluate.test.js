import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { evaluateThresholds } from '../../../../lib/compare/thresholds/evaluate.js'
import { junitXml } from '../../../../lib/compare/thresholds/junit.js'
import { formatCheckMarkdown } from '../../../../lib/compare/format.js'
import { createHistogram, recordUs, encodeHistogram, decodeHistogram, mergeHistograms } from '../../../../lib/metrics/histogram.js'

const fixture = (n) => JSON.parse(readFileSync(new URL(`../../../fixtures/compare/${n}.json`, import.meta.url), 'utf8'))
const base = fixture('base-1')
const shift = fixture('shift-1')
const tpcc = fixture('tpcc-1')

const byExpr = (rs) => Object.fromEntries(rs.map(r => [r.expr, r]))

test('absolute thresholds read the merged cumulative histograms', () => {
  const p99 = decodeHistogram(base.transactions['tpcb-like'].histogram).getValueAtPercentile(99) / 1000
  const r = byExpr(evaluateThresholds(base, [`p(99) < ${p99 + 0.01}ms`, `p(99) < ${p99}ms`, `p(99) <= ${p99 * 1000}us`, 'tps > 800', 'failed == 0', 'failed: rate < 0.1%']))
  assert.equal(r[`p(99) < ${p99 + 0.01}ms`].pass, true)
  assert.equal(r[`p(99) < ${p99 + 0.01}ms`].actual, p99)
  assert.equal(r[`p(99) < ${p99}ms`].pass, false)
  assert.match(r[`p(99) < ${p99}ms`].reason, /is not </)
  assert.equal(r[`p(99) <= ${p99 * 1000}us`].pass, true)
  assert.equal(r['tps > 800'].actual, base.summary.tps)
  assert.equal(r['failed == 0'].pass, true)
  assert.equal(r['failed: rate < 0.1%'].limit, 0.001)
})

test('relative thresholds against a baseline: the +10 % p99 shift fails +5 % and passes +15 %', () => {
  const r = byExpr(evaluateThresholds(shift, ['p(99) < +5%', 'p(99) < +15%', 'p(50) < +2%', 'tps > -5%'], { baseline: base }))
  assert.equal(r['p(99) < +5%'].pass, false)
  assert.equal(r['p(99) < +5%'].baseline, base.summary.latencyMs.p99)
  assert.ok(Math.abs(r['p(99) < +5%'].limit - base.summary.latencyMs.p99 * 1.05) < 1e-6)
  assert.equal(r['p(99) < +15%'].pass, true)
  assert.equal(r['p(50) < +2%'].pass, true)
  assert.equal(r['tps > -5%'].pass, true)
})

test('a relative threshold without a baseline is a usage error', () => {
  assert.throws(() => evaluateThresholds(base, ['p(99) < +10%']), { code: 'THRESHOLD_BASELINE', exitCode: 1 })
})

test('no data fails unless allowEmpty', () => {
  const exprs = ['latency{txn:nope}: p(99) < 5', 'tpmC > 1', 'efficiency > 50%']
  for (const r of evaluateThresholds(base, exprs)) {
    assert.equal(r.pass, false, r.expr)
    assert.equal(r.actual, null)
    assert.match(r.reason, /^no data/)
  }
  for (const r of evaluateThresholds(base, exprs, { allowEmpty: true })) {
    assert.equal(r.pass, true, r.expr)
    assert.match(r.reason, /allow-empty/)
  }
})

test('TPC-C metrics: tpmC and efficiency from the tpcc object, per-type latency', () => {
  const r = byExpr(evaluateThresholds(tpcc, ['tpmC > 1000', 'efficiency >= 90%', 'latency{txn:new-order}: p(90) < 5s']))
  assert.equal(r['tpmC > 1000'].actual, tpcc.tpcc.tpmC)
  assert.equal(r['efficiency >= 90%'].actual, tpcc.tpcc.efficiency)
  assert.equal(r['latency{txn:new-order}: p(90) < 5s'].pass, true)
})

function windowedRun () {
  // 60 one-second intervals of 100 transactions at 1 ms, except seconds 41..50 at 20 ms.
  const intervals = []
  const all = []
  for (let t = 1; t <= 60; t++) {
    const h = createHistogram()
    for (let i = 0; i < 100; i++) recordUs(h, t > 40 && t <= 50 ? 20_000 : 1000)
    all.push(h)
    intervals.push({ t, count: { x: 100 }, failed: t === 45 ? 7 : 0, skipped: 0, histograms: { x: encodeHistogram(h) } })
  }
  // The run's last, partial interval (5 ms): one very slow transaction; windows leave it out.
  const tail = createHistogram()
  recordUs(tail, 500_000)
  intervals.push({ t: 60.005, lengthS: 0.005, count: { x: 1 }, failed: 0, skipped: 0, histograms: { x: encodeHistogram(tail) } })
  const cum = mergeHistograms(all)
  return {
    schemaVersion: 1,
    run: { workload: 'w', durationS: 60 },
    summary: { transactions: 6000, failed: 7, skipped: 0, tps: 100, latencyMs: {} },
    transactions: { x: { count: 6000, failed: 7, tps: 100, latencyMs: {}, histogram: encodeHistogram(cum) } },
    intervals
  }
}

test('windowed thresholds: the worst window, merged from interval histograms', () => {
  const doc = windowedRun()
  const r = byExpr(evaluateThresholds(doc, ['p(99) < 10ms', 'p(99)[10s] < 10ms', 'p(50)[10s] < 10ms', 'p(50)[30s] < 10ms', 'p(50)[120s] < 10ms', 'tps[5s] >= 100', 'failed[10s] < 5', 'avg[1s] < 25']))
  assert.equal(r['p(99) < 10ms'].pass, false) // whole run: 1/6 of the values are 20 ms
  const w = r['p(99)[10s] < 10ms']
  assert.equal(w.pass, false)
  assert.ok(Math.abs(w.actual - 20) < 0.05, String(w.actual))
  assert.deepEqual(w.window, { startS: 31, endS: 41 }) // the first window holding a slow second
  assert.equal(r['p(50)[10s] < 10ms'].pass, false) // windows with more than half of their seconds slow
  assert.deepEqual(r['p(50)[10s] < 10ms'].window, { startS: 36, endS: 46 }) // first window with 6 slow seconds of 10
  assert.equal(r['p(50)[30s] < 10ms'].pass, true) // no 30 s window is more than 1/3 slow
  assert.match(r['p(50)[120s] < 10ms'].reason, /whole run is one window/)
  assert.equal(r['tps[5s] >= 100'].pass, true)
  assert.equal(r['failed[10s] < 5'].pass, false)
  assert.equal(r['failed[10s] < 5'].actual, 7)
  assert.equal(r['avg[1s] < 25'].pass, true) // would be 500 ms in the partial last interval
  const m = byExpr(evaluateThresholds(doc, ['tps: max < 150', 'max[1s] < 25']))
  assert.equal(m['tps: max < 150'].actual, 100) // the partial interval would count 200/s
  assert.equal(m['max[1s] < 25'].pass, true)
})

test('JUnit and markdown: one test case / row per threshold', () => {
  const rs = evaluateThresholds(shift, ['p(99) < +5%', 'tps > 1'], { baseline: base })
  const xml = junitXml(rs, { file: 'shift-1.json' })
  assert.equal((xml.match(/<testcase /g) ?? []).length, 2)
  assert.equal((xml.match(/<failure /g) ?? []).length, 1)
  assert.match(xml, /tests="2" failures="1"/)
  assert.match(xml, /name="p\(99\) &lt; \+5%"/)
  const md = formatCheckMarkdown(rs)
  assert.match(md, /1 of 2 thresholds failed/)
  assert.equal(md.split('\n').filter(l => l.startsWith('| :')).length, 2)
})

test('scenario(NAME): the threshold is judged on that scenario\'s figures; an unknown scenario is one line', () => {
  const doc = structuredClone(base)
  const slow = structuredClone(shift)
  doc.scenarios = {
    fast: { workload: 'tpcb', startS: 0, endS: doc.run.durationS, summary: doc.summary, transactions: doc.transactions, intervals: doc.intervals },
    slow: { workload: 'tpcb', startS: 0, endS: slow.run.durationS, summary: slow.summary, transactions: slow.transactions, intervals: slow.intervals }
  }
  const p95 = (d) => d.summary.latencyMs.p95
  assert.notEqual(p95(base), p95(shift))
  const [fast, slowOne] = evaluateThresholds(doc, ['scenario(fast): p(95) < 3600s', 'scenario(slow): count > 0'])
  assert.equal(fast.pass, true)
  assert.equal(slowOne.actual, shift.summary.transactions)
  const [own] = evaluateThresholds(doc, ['scenario(slow): avg < 3600s'])
  assert.equal(own.actual, evaluateThresholds(shift, ['avg < 3600s'])[0].actual)
  assert.notEqual(own.actual, evaluateThresholds(base, ['avg < 3600s'])[0].actual)
  assert.throws(() => evaluateThresholds(doc, ['scenario(olap): p(95) < 30s']), /run has no scenario olap: its scenarios are fast, slow/)
  assert.throws(() => evaluateThresholds(base, ['scenario(olap): p(95) < 30s']), /run has no scenario olap \(it ran without --scenarios\)/)
})
