// The scenario marks on a scenario run's time charts, and each scenario's part of the report.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { scenarioMarkRows, addScenarioMarks } from '../../../lib/report/scenario-marks.js'
import { scenarioParts } from '../../../lib/report/scenario-charts.js'
import { buildCharts } from '../../../lib/report/charts.js'
import { labelRuns } from '../../../lib/report/render-report.js'

const recorded = () => JSON.parse(readFileSync(new URL('../../fixtures/results/recorded-scenarios.json', import.meta.url), 'utf8'))

test('scenarios starting or stopping together share one mark and one label', () => {
  const doc = { scenarios: { a: { startS: 0, endS: 10 }, b: { startS: 0, endS: 6 }, c: { startS: 4, endS: 10 } } }
  assert.deepEqual(scenarioMarkRows(doc).map((r) => [r.t, r.edge, r.label]), [
    [0, 'start', 'a, b start'], [4, 'start', 'c starts'], [6, 'stop', 'b stops'], [10, 'stop', 'a, c stop']
  ])
  assert.deepEqual(scenarioMarkRows({ run: {} }), [])
})

test('the labels go in rows above the chart\'s own event labels; a chart without time is left alone', () => {
  const doc = { run: { durationS: 10 }, scenarios: { a: { startS: 0, endS: 10 } } }
  const spec = {
    title: { text: 'T', subtitle: 's' },
    datasets: { markerLabels: [{ t: 2, row: 0, y: -3 }, { t: 3, row: 1, y: -15 }] },
    layer: [{ data: { name: 'x' }, mark: 'line', encoding: { x: { field: 't', type: 'quantitative', title: 'time (s)' } } }]
  }
  assert.equal(addScenarioMarks(spec, doc), true)
  assert.ok(spec.datasets.scenarioLabels.every((l) => l.y <= -27), JSON.stringify(spec.datasets.scenarioLabels))
  assert.deepEqual(spec.layer.map((l) => l.data.name), ['x', 'scenarioMarks', 'scenarioMarks', 'scenarioLabels'])
  assert.equal(spec.layer[1].encoding.x.title, 'time (s)', 'the rules share the time axis and its title')
  assert.deepEqual(spec.title.subtitle, ['s', 'black: scenarios start (solid) and stop (dashed)'])
  const spectrum = { layer: [{ encoding: { x: { field: 'percentile', type: 'quantitative' } } }] }
  assert.equal(addScenarioMarks(spectrum, doc), false)
  assert.equal(spectrum.layer.length, 1)
})

test('each scenario is a part with its own charts, its intervals on the run\'s clock', () => {
  const doc = recorded()
  const parts = scenarioParts(doc)
  assert.deepEqual(parts.map((p) => p.name), ['checkout', 'reports'])
  const reports = parts[1].doc
  assert.deepEqual(Object.keys(reports.transactions), ['sleep.sql'])
  // the reports scenario opened at 3.975 s: its first interval ends 5 s into the run
  assert.equal(reports.intervals[0].t, 5)
  const { charts } = buildCharts(labelRuns([doc]))
  const sections = charts.filter((c) => c.section).map((c) => `${c.section}/${c.id}`)
  assert.deepEqual(sections, ['checkout', 'reports'].flatMap((s) => ['throughput', 'latency-over-time', 'latency-distribution'].map((id) => `Scenario ${s}/${id}`)))
  assert.deepEqual(charts.filter((c) => c.section).map((c) => c.name).slice(0, 3), ['checkout-throughput', 'checkout-latency-over-time', 'checkout-latency-distribution'])
  // the run's combined charts are still there, marked
  const throughput = charts.find((c) => c.id === 'throughput' && !c.section)
  assert.equal(throughput.spec.datasets.scenarioMarks.length, 4)
})

test('a run without scenarios is drawn as before: no marks, no sections', () => {
  const doc = JSON.parse(readFileSync(new URL('../../fixtures/results/tpcb-a.json', import.meta.url), 'utf8'))
  const { charts } = buildCharts(labelRuns([doc]))
  assert.ok(charts.every((c) => !c.section && !c.spec.datasets.scenarioMarks))
})

test('a scenario with its waits section shows where its own transactions spent their time', () => {
  const doc = JSON.parse(readFileSync(new URL('../../fixtures/results/recorded-scenarios.json', import.meta.url), 'utf8'))
  doc.scenarios.reports.waits = { available: true, source: 'pg_stat_activity', hz: 50, ticks: { done: 250, skipped: 0, failed: 0 }, types: { 'sleep.sql': { samples: 480, events: [{ event: 'Timeout:PgSleep', samples: 470, share: 0.979 }], serverMs: 10.1, serverMsStderr: 0.1, outsideMs: 0.2, outsideMsStderr: 0.1 } } }
  const [checkout, reports] = scenarioParts(doc)
  assert.doesNotMatch(checkout.html, /Where the time went/)
  assert.match(reports.html, /<h3>Where the time went<\/h3>/)
  assert.match(reports.html, /Timeout:PgSleep 98 %/)
})
