// Run names in reports: --label, else the workload and what differs; workloads kept apart.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { labelRuns } from '../../../lib/report/render-report.js'
import { buildCharts } from '../../../lib/report/charts.js'

const fixture = (name) => JSON.parse(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8'))
const labels = (docs, names) => labelRuns(docs, names).runs.map((r) => r.label)

test('runs are named by their --label when they have one', () => {
  const a = fixture('results/tpcb-a.json')
  const b = fixture('results/tpcb-b.json')
  a.run.label = 'cold cache'
  b.run.label = 'prewarmed'
  assert.deepEqual(labels([a, b]), ['cold cache', 'prewarmed'])
  b.run.label = 'cold cache'
  assert.deepEqual(labels([a, b]), ['cold cache #1', 'cold cache #2'], 'names stay unique')
  b.run.label = null
  assert.deepEqual(labels([a, b]), ['cold cache', 'tpcb seed=202'])
  assert.deepEqual(labels([a, b], ['A1', 'B1']), ['A1: cold cache', 'B1: tpcb seed=202'], 'a caller\'s prefix comes first')
})

test('without labels, the options that differ name the runs', () => {
  assert.deepEqual(labels([fixture('compare/base-1.json'), fixture('compare/clients16.json')]), ['tpcb c=4', 'tpcb c=16'])
  // A server setting that differs; runs that still share a name get their seed.
  assert.deepEqual(labels(['base-1', 'base-2', 'shift-1'].map((n) => fixture(`compare/${n}.json`))),
    ['tpcb work_mem=4096kB seed=101', 'tpcb work_mem=4096kB seed=102', 'tpcb work_mem=65536kB'])
  assert.deepEqual(labels([fixture('results/tpcb-a.json'), fixture('results/tpcb-b.json')]), ['tpcb seed=101', 'tpcb seed=202'])
})

test('runs that differ in nothing fall back to their index and start time', () => {
  const a = fixture('results/tpcb-a.json')
  const b = fixture('results/tpcb-a.json')
  b.run.startTime = '2026-01-01T10:05:30.000Z'
  // The embedded server listens on a new port at each start: that is no difference of set-up.
  a.serverStats.settings = { port: { value: '41001', source: 'command line' } }
  b.serverStats.settings = { port: { value: '41002', source: 'command line' } }
  assert.deepEqual(labels([a, b]), [`tpcb #1 ${a.run.startTime.slice(11, 19)}`, 'tpcb #2 10:05:30'])
  assert.deepEqual(labels([a]), ['tpcb'])
})

test('a tpcb and a tpcc run are not comparable: a note, and never one axis', () => {
  const tpcb = fixture('results/tpcb-a.json')
  const tpcc = fixture('results/tpcc.json')
  const labelled = labelRuns([tpcb, tpcc, fixture('results/tpcb-b.json')])
  assert.equal(labelled.note, 'runs are not comparable: workload tpcb vs tpcc')
  assert.deepEqual(labelled.runs.map((r) => r.label), ['tpcb seed=101', 'tpcc', 'tpcb seed=202'])
  const { charts } = buildCharts(labelled)
  const overlays = charts.filter((c) => c.id === 'compare')
  // Only the two tpcb runs are overlaid; the tpcc run has its own charts and no shared axis.
  assert.deepEqual(overlays.map((c) => c.name), ['compare-tpcb'])
  assert.deepEqual([...new Set(overlays[0].spec.datasets.compareThroughput.map((r) => r.run))], ['tpcb seed=101', 'tpcb seed=202'])
  assert.equal(overlays[0].spec.title.text, 'Runs compared: tpcb')
  assert.ok(charts.some((c) => c.id === 'tpcc' && c.run === 'tpcc'))
  assert.equal(labelRuns([tpcb, fixture('results/tpcb-b.json')]).note, null)
})

test('the overlay names in its legend only the runs it draws; a run too short for a line is said to be left out', async () => {
  const { createHistogram, recordUs, encodeHistogram } = await import('../../../lib/metrics/histogram.js')
  const long = fixture('results/tpcb-a.json')
  const short = fixture('results/tpcb-b.json')
  long.run.label = 'long'
  short.run.label = 'one transaction'
  const one = createHistogram()
  recordUs(one, 1500)
  const encoded = encodeHistogram(one)
  // c=1 T=1/client: one transaction in all, one interval
  Object.values(short.transactions).forEach((t, i) => { t.histogram = i === 0 ? encoded : null })
  short.intervals = short.intervals.slice(0, 1)
  const compare = buildCharts(labelRuns([long, short])).charts.find((c) => c.id === 'compare')
  for (const [name, rows] of Object.entries(compare.spec.datasets)) {
    assert.ok(rows.every((r) => r.run === 'long'), `${name} has rows of a run it cannot draw`)
  }
  assert.match([compare.spec.title.subtitle].flat().join('\n'), /not drawn, too short for a line: one transaction$/)
  const { renderSvg } = await import('../../../lib/report/svg.js')
  const { svg } = await renderSvg(compare.spec)
  const legends = [...svg.matchAll(/aria-label="([^"]*legend titled 'run'[^"]*)"/g)].map((m) => m[1])
  assert.ok(legends.length > 0)
  for (const l of legends) assert.doesNotMatch(l, /one transaction/)
})
