// The run label and the time to steady state as buildResults records them.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { buildResults } from '../../../lib/results/build.js'

/** A finished run of 20 one-second intervals, ramping up over the first five. */
function input (options) {
  const counts = [100, 400, 700, 950, 1000, 1000, 980, 1010, 1000, 990, 1000, 1020, 1000, 970, 1000, 1000, 1030, 1000, 990, 1000]
  const intervals = counts.map((n, i) => ({ t: i + 1, lengthS: 1, count: { 'tpcb-like': n } }))
  return {
    toolVersion: '0.0.0',
    options: { workload: 'tpcb', intervalS: 1, ...options },
    workloadName: 'tpcb',
    workload: { transactions: [{ name: 'tpcb-like', weight: 1 }] },
    target: { display: 'postgres://localhost/x' },
    embedded: true,
    serverVersion: { version: '18.0', num: 180000 },
    host: {},
    outcome: { summary: { transactions: counts.reduce((a, b) => a + b, 0), tps: 900 }, transactions: {}, intervals, durationS: 20, terminals: 4, connections: 4 },
    serverStats: null,
    extra: null
  }
}

test('the --label of a run is recorded in run.label, null without one', () => {
  assert.equal(buildResults(input({ label: 'shared_buffers 1GB' })).run.label, 'shared_buffers 1GB')
  assert.equal(buildResults(input({})).run.label, null)
})

test('the summary records the time to steady state computed from the intervals', () => {
  const doc = buildResults(input({}))
  assert.deepEqual(doc.summary.steadyState, { timeS: 3, medianTps: 1000, band: 0.1, graceS: 2, bucketS: 1, medianFromS: 10, reason: null })
  assert.equal(doc.summary.tps, 900, 'the rest of the summary is kept')
})
