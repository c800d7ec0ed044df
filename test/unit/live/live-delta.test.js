// The dashboard's updates after the first: only what changed (rows appended, a dataset whose
// earlier rows changed, a spec that changed), and a page that applies them holds what a page
// opened now receives whole.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { LiveDocument } from '../../../lib/live/live-document.js'
import { liveState } from '../../../lib/live/dashboard-page.js'
import { liveDelta, fullUpdate } from '../../../lib/live/live-delta.js'
import { intervalEvent } from './fake-handle.js'

function liveRun () {
  const live = new LiveDocument({ workload: 'tpcb', label: null, intervalS: 1, startTime: '2026-01-01T00:00:00.000Z' })
  live.setShape({ terminals: 4, connections: 2, durationS: 60, warmupS: 0, types: ['a', 'b'] })
  return live
}

function addIntervals (live, from, to) {
  for (let k = from; k < to; k++) {
    live.addInterval(intervalEvent(k, (rec) => {
      for (let i = 0; i < 50 + (k % 7) * 10; i++) rec.ok(0, 800 + ((i * 37 + k * 11) % 900), 0, 0)
      for (let i = 0; i < 5 + (k % 3); i++) rec.ok(1, 3000 + i * 100, 0, 0)
      if (k % 4 === 0) rec.failed(1, '40001')
    }))
  }
}

/** What a page holds after applying an update (the page script's rules, in plain JS). */
function apply (page, u) {
  if (u.full) return { version: u.version, charts: u.charts.map((c) => ({ name: c.name, spec: c.spec, datasets: structuredClone(c.datasets) })) }
  for (const c of u.charts) {
    const ch = page.charts[c.i]
    for (const [name, d] of Object.entries(c.data)) ch.datasets[name] = d.insert ? [...(ch.datasets[name] ?? []), ...d.insert] : d.replace
    if (c.spec) ch.spec = c.spec
  }
  page.version = u.version
  return page
}

test('after the first full update, an interval sends its new rows, and the page that applies them holds the whole', () => {
  const live = liveRun()
  addIntervals(live, 0, 20)
  let prev = liveState(live)
  let page = apply(null, structuredClone(fullUpdate(prev)))
  let deltaBytes = 0
  let fullBytes = 0
  const spectrumAt = []
  for (let k = 20; k < 40; k++) {
    addIntervals(live, k, k + 1)
    const next = liveState(live, prev)
    const delta = liveDelta(prev, next)
    assert.ok(delta, `interval ${k}: the same charts, so a delta`)
    page = apply(page, structuredClone(delta))
    const whole = fullUpdate(next)
    // the page that followed the deltas and one opened now hold the same
    assert.deepEqual(page.charts.map((c) => [c.name, c.spec, c.datasets]), whole.charts.map((c) => [c.name, c.spec, c.datasets]), `interval ${k}`)
    // the series over time only grow; the run's whole-histogram charts are sent whole
    for (const c of delta.charts) for (const name of ['throughput', 'latency']) if (c.data[name]) assert.ok(c.data[name].insert, `${name} appended`)
    if (delta.charts.some((c) => next.charts[c.i].name === 'percentile-spectrum')) spectrumAt.push(k + 1)
    deltaBytes += JSON.stringify(delta).length
    fullBytes += JSON.stringify(whole).length
    prev = next
  }
  const throughput = liveDelta(liveState(live), (addIntervals(live, 40, 41), liveState(live))).charts.find((c) => c.data.throughput)
  // the throughput chart's new rows: one per type of the new interval, appended
  assert.deepEqual(throughput.data.throughput.insert.map((r) => r.t), [41, 41])
  assert.ok(deltaBytes < fullBytes / 4, `deltas ${deltaBytes} bytes, full updates ${fullBytes}`)
  // the whole-run histogram charts: redrawn every HISTOGRAM_CHARTS_S seconds of the run
  assert.deepEqual(spectrumAt, [25, 30, 35, 40])
  // and at once when the phase changes
  live.finish()
  const last = liveDelta(prev, liveState(live, prev))
  assert.ok(last.charts.some((c) => prev.charts[c.i].name === 'percentile-spectrum'))
})

test('charts that come or go need a full update; an unchanged state sends nothing per chart', () => {
  const live = liveRun()
  const empty = liveState(live)
  addIntervals(live, 0, 3)
  const some = liveState(live)
  assert.equal(liveDelta(empty, some), null)
  const again = liveDelta(some, liveState(live))
  assert.deepEqual(again.charts, [])
})
