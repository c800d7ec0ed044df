// The live view on a run handle played by the test (no server): it reads the handle's members
// and events only (any other member of the run throws), and turns the 'interval' payloads into
// the dashboard's figures and the metrics' per-type counters.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { startLive } from '../../../lib/live/index.js'
import { strictHandle, intervalEvent } from './fake-handle.js'

const PLAN = {
  workload: 'tpcb',
  label: 'handle',
  intervalS: 1,
  dashboard: { host: '127.0.0.1', port: 0 },
  metrics: { host: '127.0.0.1', port: 0 }
}
const SETTINGS = Object.freeze({ durationUs: 10e6, warmupUs: 2e6, intervalUs: 1e6 })

test('the live view follows a run through its handle: types from the caller, per-type failures by kind and retries from the intervals', async () => {
  const sink = { write () {} }
  const view = await startLive(PLAN, { err: sink })
  try {
    const run = strictHandle({ settings: SETTINGS })
    view.attach(run, { types: ['a', 'b'] })
    run.emit('start', { terminals: 4, connections: 2, initialConnectionMs: 1 })
    run.emit('warmup-tick', { elapsedS: 1, warmupS: 2, connections: { size: 2, active: 2, waiting: 1 }, terminals: { total: 4 } })
    run.emit('measuring')
    run.emit('interval', intervalEvent(0, (rec) => {
      for (let i = 0; i < 5; i++) rec.ok(0, 1000, 0, 0)
      rec.ok(1, 2000, 0, 0)
      rec.retriedTimes(1, 2)
      rec.failed(1, '40001')
      rec.failed(1, '40001')
      rec.failed(0, '23505')
    }))
    run.emit('interval', intervalEvent(1, (rec) => {
      rec.ok(0, 1000, 0, 0)
      rec.retriedTimes(0, 1)
      rec.failed(1, '40P01')
    }))
    run.emit('status', Object.freeze({ state: 'stopping', reason: 'interrupted' }))
    const text = await (await fetch(view.urls.metrics)).text()
    const value = (re) => Number(text.split('\n').find((l) => re.test(l))?.split(' ').pop())
    assert.equal(value(/^pgload_transactions_total\{type="a"/), 6)
    assert.equal(value(/^pgload_transactions_total\{type="b"/), 1)
    assert.equal(value(/^pgload_retries_total\{type="a"/), 1)
    assert.equal(value(/^pgload_retries_total\{type="b"/), 2)
    assert.equal(value(/^pgload_run_duration_seconds/), 10)
    assert.equal(value(/^pgload_connections_in_use/), 1)
    assert.equal(value(/^pgload_terminals_waiting/), 3)
    assert.equal(value(/^pgload_failures_total\{type="a",kind="23505"/), 1)
    assert.equal(value(/^pgload_failures_total\{type="b",kind="40001"/), 2)
    assert.equal(value(/^pgload_failures_total\{type="b",kind="40P01"/), 1)
    assert.equal(text.split('\n').filter((l) => /^pgload_failures_total\{/.test(l)).length, 3)

    const page = await (await fetch(view.urls.dashboard)).text()
    const header = /<dl class="live">.*?<\/dl>/s.exec(page)?.[0] ?? 'no header'
    assert.match(header, /7 \(3\.5 tps so far\), 4 failed, 3 retries/)
    assert.match(header, /stopping \(interrupted\)/)
    assert.match(header, /1 in use, 3 waiting/)
  } finally {
    await view.close()
  }
})

test('a stage of the load profile: the dashboard\'s header says which of how many, its target and bounds', async () => {
  const view = await startLive({ ...PLAN, metrics: undefined }, { err: { write () {} } })
  try {
    const run = strictHandle({ settings: SETTINGS })
    view.attach(run, { types: ['a', 'b'] })
    run.emit('measuring')
    run.emit('stage', { index: 0, count: 3, kind: 'rate', startS: 0, endS: 4, target: { from: 100, to: 100 }, ramp: false })
    run.emit('interval', intervalEvent(0, (rec) => rec.ok(0, 1000, 0, 0)))
    run.emit('stage', { index: 1, count: 3, kind: 'rate', startS: 4, endS: 8, target: { from: 100, to: 200 }, ramp: true })
    const page = await (await fetch(view.urls.dashboard)).text()
    const header = /<dl class="live">.*?<\/dl>/s.exec(page)?.[0] ?? 'no header'
    assert.match(header, /<dt>Stage<\/dt><dd>2 of 3: rate 100 to 200&#47;s \(ramp\), 4 to 8 s<\/dd>/)
  } finally {
    await view.close()
  }
})

test('a staged run on the dashboard: its stages begun shaded, and no steady state judged for a load that moves on purpose', async () => {
  const { LiveDocument } = await import('../../../lib/live/live-document.js')
  const { liveState } = await import('../../../lib/live/dashboard-page.js')
  const { STEADY_NOT_APPLICABLE } = await import('../../../lib/report/stage-data.js')
  const live = new LiveDocument({ workload: 'tpcb', intervalS: 1, startTime: '2026-01-01T00:00:00.000Z' })
  live.setShape({ terminals: 2, connections: 2, durationS: 8, warmupS: 0, types: ['a'] })
  live.setStage({ index: 0, count: 2, kind: 'rate', startS: 0, endS: 4, target: { from: 100, to: 100 }, ramp: false })
  live.addInterval(intervalEvent(0, (rec) => rec.ok(0, 1000, 0, 0)))
  live.addInterval(intervalEvent(1, (rec) => rec.ok(0, 1000, 0, 0)))
  const throughput = liveState(live).charts.find((c) => c.name === 'throughput')
  const subtitle = [throughput.spec.title.subtitle].flat().join('\n')
  assert.match(subtitle, new RegExp(`time to steady state: ${STEADY_NOT_APPLICABLE}`))
  assert.doesNotMatch(subtitle, /no steady state/)
  assert.deepEqual(throughput.datasets.stages.map((b) => [b.label, b.t, b.t2]), [['1', 0, 4]])
  live.setStage({ index: 1, count: 2, kind: 'rate', startS: 4, endS: 8, target: { from: 100, to: 200 }, ramp: true })
  const later = liveState(live).charts.find((c) => c.name === 'throughput')
  assert.deepEqual(later.datasets.stages.map((b) => [b.label, b.t, b.t2]), [['1', 0, 4], ['2', 4, 8]])
})

test('the wait classes over time: the dashboard\'s stacked chart gains each closed interval, /metrics its gauges', async () => {
  const { IntervalClasses } = await import('../../../lib/waits/interval-classes.js')
  const { liveState } = await import('../../../lib/live/dashboard-page.js')
  const view = await startLive(PLAN, { err: { write () {} } })
  try {
    const run = strictHandle({ settings: SETTINGS })
    const waits = new IntervalClasses(1000)
    view.attach(run, { types: ['a', 'b'], waits })
    run.emit('measuring')
    for (let i = 0; i < 10; i++) waits.add(waits.read(i * 100), 'Lock', 'Lock:transactionid')
    waits.add(waits.read(1200), 'CPU', null) // the next interval, under way
    run.emit('interval', intervalEvent(0, (rec) => rec.ok(0, 1000, 0, 0)))
    const text = await (await fetch(view.urls.metrics)).text()
    assert.match(text, /^pgload_wait_sessions\{class="Lock",[^}]*\} 1$/m)
    assert.match(text, /^pgload_wait_samples_total\{class="Lock",[^}]*\} 10$/m)
    const { LiveDocument } = await import('../../../lib/live/live-document.js')
    const live = new LiveDocument({ workload: 'tpcb', intervalS: 1, startTime: '2026-01-01T00:00:00.000Z' })
    live.setShape({ terminals: 2, connections: 2, durationS: 8, warmupS: 0, types: ['a'] })
    live.setWaits(waits)
    live.addInterval(intervalEvent(0, (rec) => rec.ok(0, 1000, 0, 0)))
    const chart = liveState(live).charts.find((c) => c.name === 'waits-over-time')
    // the interval under way is not drawn yet
    assert.deepEqual(chart.datasets.waitClasses.map((r) => [r.t, r.class, r.sessions]), [[1, 'Lock', 1]])
    live.addInterval(intervalEvent(1, (rec) => rec.ok(0, 1000, 0, 0)))
    const later = liveState(live).charts.find((c) => c.name === 'waits-over-time')
    assert.deepEqual(later.datasets.waitClasses.map((r) => [r.t, r.class, r.sessions]), [[1, 'CPU', 0], [1, 'Lock', 1], [2, 'CPU', 1], [2, 'Lock', 0]])
  } finally {
    await view.close()
  }
})
