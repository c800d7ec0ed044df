// `pgload history`: a trend line joins runs of one label or, without one, of one set-up; the
// time axis labels its ticks to their own precision.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { trendNames } from '../../../lib/store/history-trends.js'
import { historySpec, timeAxis } from '../../../lib/store/history-chart.js'

const run = (over) => ({ runId: 1, startTime: '2026-03-01T21:46:00.000Z', label: null, workload: 'tpcb', clients: 16, scale: 10, connections: 16, rate: null, protocol: 'prepared', jobs: 1, scripts: '[{"kind": "builtin", "name": "tpcb-like", "weight": 1}]', workloadOptions: '{}', tps: 900, p50: 1, p99: 5, max: 9, value: 900, ...over })

test('unlabelled runs of different set-ups are different trends; a label joins whatever it names', () => {
  const runs = [
    run({ runId: 1 }),
    run({ runId: 2, scale: 1, clients: 1, connections: 1 }), // a sweep's cell
    run({ runId: 3 }),
    run({ runId: 4, workloadOptions: '{"builtin": ["select-only"]}', scripts: '[{"kind": "builtin", "name": "select-only", "weight": 1}]' }),
    run({ runId: 5, label: 'nightly' }),
    run({ runId: 6, label: 'nightly', scale: 1, clients: 1 }),
    run({ runId: 7, rate: 500, jobs: 2 })
  ]
  assert.deepEqual(trendNames(runs), [
    'tpcb scale 10, 16 clients (set-up 1)',
    'tpcb scale 1, 1 client',
    'tpcb scale 10, 16 clients (set-up 1)',
    'tpcb scale 10, 16 clients (set-up 2)',
    'nightly',
    'nightly',
    'tpcb scale 10, 16 clients, 500 tps, -j 2'
  ])
  assert.deepEqual(trendNames([run({ workload: 'tpcc', scale: 1, clients: 10 })]), ['tpcc 1 warehouse, 10 clients'])
  const spec = historySpec(runs, 'tps')
  assert.equal(new Set(spec.datasets.runs.map((r) => r.series)).size, 5)
})

test('time axis: ticks no finer than their labels, whatever the runs\' span', () => {
  const at = (iso) => Date.parse(iso)
  const iso = (values) => values.map((v) => new Date(v).toISOString().slice(0, 19))
  // runs over two minutes: a tick each 15 s, labelled with seconds
  let a = timeAxis([at('2026-03-01T21:46:03Z'), at('2026-03-01T21:48:00Z')])
  assert.equal(a.format, '%H:%M:%S')
  assert.deepEqual(iso(a.values), ['2026-03-01T21:46:15', '2026-03-01T21:46:30', '2026-03-01T21:46:45', '2026-03-01T21:47:00', '2026-03-01T21:47:15', '2026-03-01T21:47:30', '2026-03-01T21:47:45', '2026-03-01T21:48:00'])
  a = timeAxis([at('2026-03-01T21:00:00Z'), at('2026-03-01T22:00:00Z')])
  assert.equal(a.format, '%H:%M')
  assert.equal(a.values.length, 5)
  a = timeAxis([at('2026-03-01T00:00:00Z'), at('2026-03-08T00:00:00Z')])
  assert.equal(a.format, '%b %d')
  assert.equal(a.values.length, 8)
  a = timeAxis([at('2025-01-10T00:00:00Z'), at('2026-03-08T00:00:00Z')])
  assert.equal(a.format, '%b %Y')
  assert.deepEqual(iso(a.values).map((v) => v.slice(0, 7)), ['2025-04', '2025-07', '2025-10', '2026-01'])
  // one run: its own time, to the second
  assert.deepEqual(timeAxis([at('2026-03-01T21:46:03Z')]), { values: [at('2026-03-01T21:46:03Z')], format: '%b %d %H:%M:%S' })
  const spec = historySpec([run({ runId: 1 }), run({ runId: 2, startTime: '2026-03-01T21:46:30.000Z' })], 'tps')
  assert.equal(spec.encoding.x.axis.format, '%H:%M:%S')
  assert.equal(spec.encoding.x.axis.values.length, 7)
  // no two tick labels alike, at any of these spans
  for (const spanS of [20, 120, 900, 3600, 86400, 7 * 86400, 90 * 86400, 800 * 86400]) {
    const axis = timeAxis([at('2026-03-01T21:46:03Z'), at('2026-03-01T21:46:03Z') + spanS * 1000])
    const labels = axis.values.map((v) => strftimeUtc(axis.format, v))
    assert.equal(new Set(labels).size, labels.length, `${spanS} s: ${labels.join(', ')}`)
  }
})

// The few strftime fields the axis formats use, in UTC.
function strftimeUtc (format, ms) {
  const d = new Date(ms)
  const two = (n) => String(n).padStart(2, '0')
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
  return format.replace(/%([bdHMSY])/g, (m, f) => ({ b: months[d.getUTCMonth()], d: two(d.getUTCDate()), H: two(d.getUTCHours()), M: two(d.getUTCMinutes()), S: two(d.getUTCSeconds()), Y: String(d.getUTCFullYear()) })[f])
}

test('capacity searches of one set-up are one trend, named as a search, whatever rate each found', () => {
  const names = trendNames([run({ runId: 1, rate: 336, capacity: true }), run({ runId: 2, rate: 410, capacity: true }), run({ runId: 3, rate: 336 })])
  assert.equal(names[0], names[1])
  assert.notEqual(names[0], names[2])
  assert.match(names[0], /capacity search/)
  assert.doesNotMatch(names[0], /336/)
})
