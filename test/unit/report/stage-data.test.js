// The report's stage datasets: a band per stage over its measured time, latency against
// throughput per stage, and a capacity document's steps against their offered rate.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { stagedResults } from '../../helpers/staged-results.js'
import { stageBands, stageLatencyData } from '../../../lib/report/stage-data.js'
import { buildCharts } from '../../../lib/report/charts.js'

test('a band per stage, over what was measured of it (not a planned end beyond the run)', () => {
  const doc = stagedResults()
  doc.stages[2].endS = 3600 // a capacity run's last stage is planned far beyond its end
  const bands = stageBands(doc)
  assert.deepEqual(bands.map((b) => [b.t, b.t2, b.label]), doc.stages.map((s) => [s.startS, Math.round((s.startS + s.lengthS) * 1000) / 1000, String(s.index + 1)]))
  assert.ok(bands[2].t2 < 3600)
  assert.match(bands[1].tip, /^stage 2: 100→200\/s, [\d.]+ tps achieved$/)
  assert.deepEqual(stageBands({}), [])
})

test('latency against achieved throughput per stage; a capacity document: against the offered rate, with its limit and answer', () => {
  const doc = stagedResults()
  const d = stageLatencyData(doc)
  assert.equal(d.capacity, false)
  assert.deepEqual(d.points.filter((p) => p.stat === 'p99').map((p) => [p.x, p.ms]), doc.stages.map((s) => [s.achievedTps, s.summary.latencyMs.p99]))
  doc.capacity = {
    steps: [
      { index: 1, offeredRate: 100, achievedRate: 99, latencyMs: { p50: 1, p99: 5 }, held: true, thresholds: [{ expr: 'p(99) < 20ms', unit: 'ms', limit: 20, pass: true }] },
      { index: 2, offeredRate: 200, achievedRate: 150, latencyMs: { p50: 9, p99: 40 }, held: false, thresholds: [{ expr: 'p(99) < 20ms', unit: 'ms', limit: 20, pass: false }] }
    ],
    answer: { rate: 100 }
  }
  const c = stageLatencyData(doc)
  assert.equal(c.capacity, true)
  assert.deepEqual(c.points.map((p) => [p.x, p.stat, p.ms]), [[100, 'p50', 1], [100, 'p99', 5], [200, 'p50', 9], [200, 'p99', 40]])
  assert.deepEqual(c.limits, [{ ms: 20, label: 'p(99) < 20ms' }])
  assert.deepEqual(c.answer, [{ x: 100, label: 'capacity 100/s', right: true }])
  const chart = buildCharts({ runs: [{ doc, label: 'a', slug: 'a' }] }).charts.find((x) => x.id === 'stage-latency')
  assert.equal(chart.spec.title.text, 'Latency against offered rate')
  // lines short enough not to widen the chart beyond its plot (one line of 170 characters did)
  assert.ok(Array.isArray(chart.spec.title.subtitle) && chart.spec.title.subtitle.every((l) => l.length <= 100), JSON.stringify(chart.spec.title.subtitle))
})

test('a run without stages has no stage chart and no stage bands', () => {
  const doc = stagedResults()
  delete doc.stages
  const { charts, skipped } = buildCharts({ runs: [{ doc, label: 'a', slug: 'a' }] })
  assert.equal(charts.some((c) => c.id === 'stage-latency'), false)
  assert.equal(skipped.some((c) => c.id === 'stage-latency'), false)
  const tput = charts.find((c) => c.id === 'throughput')
  assert.equal(tput.spec.layer.some((l) => l.data.name === 'stages'), false)
})

test('each step\'s number goes on the side of its point away from the nearest limit\'s dashed line', async () => {
  const { capacityResults } = await import('../../helpers/staged-results.js')
  const doc = capacityResults() // limit 60 ms
  const p99 = doc.capacity.steps.map((s) => s.latencyMs.p99)
  const { points } = stageLatencyData(doc)
  const sides = points.filter((p) => p.stat === 'p99').map((p) => p.above)
  assert.deepEqual(sides, p99.map((ms) => ms >= 60), `p99 ${p99.join(', ')} ms`)
  assert.ok(sides.includes(false) && sides.includes(true), 'the fixture has points on both sides')
  // without a limit, every number above its point
  assert.ok(stageLatencyData(stagedResults()).points.every((p) => p.above))
})

test('a stage\'s number moves along its band off a dashed event line that runs through its middle', () => {
  const doc = stagedResults({ bounds: [0, 2], targets: [200, 400] })
  const mids = stageBands(doc).map((b) => b.mid)
  const bands = stageBands(doc, { avoid: mids, maxT: 8 })
  bands.forEach((b, i) => {
    assert.ok(Math.abs(b.mid - mids[i]) >= 8 * 0.016, `stage ${b.label} at ${b.mid}, a line at ${mids[i]}`)
    assert.ok(b.mid > b.t && b.mid < b.t2, 'still within its band')
  })
  // no line near: mid-band
  assert.deepEqual(stageBands(doc, { avoid: [100], maxT: 8 }).map((b) => b.mid), mids)
})

test('a capacity search that stepped down: the capacity\'s words on the right of its line, the step numbers on its left at or below it', () => {
  const doc = stagedResults()
  const step = (index, offeredRate, p99) => ({ index, offeredRate, achievedRate: offeredRate, latencyMs: { p50: p99 / 4, p99 }, held: p99 < 20, thresholds: [{ expr: 'p(99) < 20ms', unit: 'ms', limit: 20, pass: p99 < 20 }] })
  doc.capacity = { steps: [step(1, 500, 300), step(2, 250, 120), step(3, 32, 15), step(4, 45, 22), step(5, 38, 18)], answer: { rate: 38 } }
  const d = stageLatencyData(doc)
  assert.equal(d.answer[0].right, true, 'the answer in the left half: its words to the right of its line, off the latency axis')
  const left = Object.fromEntries(d.points.filter((p) => p.stat === 'p99').map((p) => [p.label, p.left]))
  assert.deepEqual(left, { 1: false, 2: false, 3: true, 4: false, 5: true })
  doc.capacity.answer = { rate: 400 }
  doc.capacity.steps.push(step(6, 400, 10))
  assert.equal(stageLatencyData(doc).answer[0].right, false, 'in the right half: to its left, inside the chart')
})
