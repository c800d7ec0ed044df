// A scenario run on the live outputs (no server): each scenario's run, played by the test, feeds
// the metrics under its `scenario` label and the dashboard's document with the scenarios'
// intervals added per slot of the run's grid, types named SCENARIO/TYPE, windows marked.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { EventEmitter } from 'node:events'
import { startLive } from '../../../lib/live/index.js'
import { followScenarioRuns } from '../../../lib/live/scenario-feed.js'
import { LiveDocument } from '../../../lib/live/live-document.js'
import { RunMetrics } from '../../../lib/live/run-metrics.js'
import { liveState } from '../../../lib/live/dashboard-page.js'
import { strictHandle, intervalEvent } from './fake-handle.js'

const SETTINGS = Object.freeze({ durationUs: 6e6, warmupUs: 0, intervalUs: 1e6 })
const WINDOWS = [{ name: 'oltp', startS: 0, durationS: 6 }, { name: 'olap', startS: 2, durationS: 3 }]
const txns = (n, type = 0) => (rec) => { for (let i = 0; i < n; i++) rec.ok(type, 1000, 0, 0) }

test('/metrics of a scenario run: every run series carries its scenario, the server\'s do not', async () => {
  const view = await startLive({ workload: 'scenarios', intervalS: 1, metrics: { host: '127.0.0.1', port: 0 }, dashboard: { host: '127.0.0.1', port: 0 }, scenarios: ['oltp', 'olap'] }, { err: { write () {} } })
  try {
    const handle = new EventEmitter()
    view.attach(handle, { types: [], scenarios: WINDOWS })
    const oltp = strictHandle({ settings: SETTINGS, terminalCount: 2 })
    const olap = strictHandle({ settings: SETTINGS, terminalCount: 1 })
    handle.emit('scenario', { name: 'oltp', run: oltp, types: ['q', 'w'] })
    handle.emit('scenario', { name: 'olap', run: olap, types: ['q', 'w'] })
    for (const run of [oltp, olap]) run.emit('measuring')
    oltp.emit('interval', intervalEvent(0, txns(7), ['q', 'w']))
    olap.emit('interval', intervalEvent(0, txns(2, 1), ['q', 'w']))
    const text = await (await fetch(view.urls.metrics)).text()
    const value = (re) => Number(text.split('\n').find((l) => re.test(l))?.split(' ').pop())
    assert.equal(value(/^pgload_transactions_total\{scenario="oltp",type="q"/), 7)
    assert.equal(value(/^pgload_transactions_total\{scenario="olap",type="w"/), 2)
    assert.equal(value(/^pgload_transactions_total\{scenario="olap",type="q"/), 0)
    assert.equal(value(/^pgload_terminals\{scenario="oltp"/), 2)
    assert.equal(value(/^pgload_latency_seconds_count\{scenario="oltp",type="q"/), 7)
    // every sample of the run's series is a scenario's; a family is declared once
    const samples = text.split('\n').filter((l) => /^pgload_(transactions|failures|retries|latency|schedule_lag|terminals|connections|run)_/.test(l))
    assert.ok(samples.length > 0 && samples.every((l) => /\{scenario="(oltp|olap)"/.test(l)), samples.find((l) => !/\{scenario=/.test(l)))
    const types = text.split('\n').filter((l) => l.startsWith('# TYPE pgload_transactions_total'))
    assert.equal(types.length, 1)
  } finally {
    await view.close()
  }
})

test('the dashboard\'s document: one interval per slot of the run\'s grid, each scenario\'s throughput, its window marked', () => {
  const live = new LiveDocument({ workload: 'scenarios', intervalS: 1, startTime: '2026-01-01T00:00:00.000Z' })
  const metrics = new RunMetrics({ run_id: 'x', label: '', shard: '', workload: 'scenarios' }, { scenarios: true })
  const handle = new EventEmitter()
  let clock = 0
  followScenarioRuns(handle, { live, metrics, dashboard: null }, { scenarios: WINDOWS, intervalS: 1, now: () => clock })
  const oltp = strictHandle({ settings: SETTINGS, terminalCount: 2 })
  const olap = strictHandle({ settings: SETTINGS, terminalCount: 1 })
  handle.emit('scenario', { name: 'oltp', run: oltp, types: ['q'] })
  oltp.emit('measuring')
  oltp.emit('interval', intervalEvent(0, txns(10), ['q']))
  oltp.emit('interval', intervalEvent(1, txns(10), ['q']))
  // olap opens 2.02 s into the run: its first interval is the run's third slot
  clock = 2020
  handle.emit('scenario', { name: 'olap', run: olap, types: ['s'] })
  olap.emit('measuring')
  oltp.emit('interval', intervalEvent(2, txns(10), ['q']))
  olap.emit('interval', intervalEvent(0, txns(3), ['s']))
  // olap's window ends: no stop of the run
  olap.emit('status', Object.freeze({ state: 'stopping', reason: 'duration' }))
  assert.equal(live.status, null)
  oltp.emit('interval', intervalEvent(3, txns(10), ['q']))
  for (const run of [oltp, olap]) run.emit('finished', { status: { state: 'finished' } })
  const doc = live.document()
  assert.deepEqual(doc.intervals.map((iv) => iv.t), [1, 2, 3, 4])
  assert.deepEqual(doc.intervals[2].count, { 'oltp/q': 10, 'olap/s': 3 })
  assert.deepEqual(doc.run.transactionTypes, ['oltp/q', 'olap/s'])
  assert.equal(live.shape.terminals, 3)
  assert.deepEqual(doc.scenarios, { oltp: { startS: 0, endS: 6 }, olap: { startS: 2, endS: 5 } })
  const state = liveState(live)
  const throughput = state.charts.find((c) => c.name === 'throughput')
  assert.deepEqual([...new Set(throughput.datasets.throughput.map((r) => r.type))], ['oltp/q', 'olap/s'])
  assert.deepEqual(throughput.datasets.scenarioMarks.map((m) => m.label), ['oltp starts', 'olap starts', 'olap stops', 'oltp stops'])
})
