// The run summary's time-to-steady-state line.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { formatSummary } from '../../../lib/output/summary.js'

const fixture = () => JSON.parse(readFileSync(new URL('../../fixtures/results/tpcb-a.json', import.meta.url), 'utf8'))
const steadyLines = (results) => formatSummary(results).split('\n').filter((l) => l.startsWith('time to steady state'))

test('the summary gives the time to steady state with its band and level', () => {
  const results = fixture()
  results.summary.steadyState = { timeS: 12, medianTps: 1503.25, band: 0.1, graceS: 2, medianFromS: 30, reason: null }
  assert.deepEqual(steadyLines(results), ['time to steady state = 12.0 s (throughput from then on within ±10 % of 1503.3 tps, the median from 30 s on)'])
})

test('the summary says when a run never reached steady state, and why', () => {
  const results = fixture()
  results.summary.steadyState = { timeS: null, medianTps: 80, band: 0.1, graceS: 2, medianFromS: 30, reason: 'never within ±10 % of the median' }
  assert.deepEqual(steadyLines(results), ['time to steady state: none (never within ±10 % of the median)'])
  delete results.summary.steadyState
  assert.deepEqual(steadyLines(results), [], 'files from before the field: no line')
})

test('a run with stages (or a capacity search) has no steady state to reach: no line', async () => {
  const { stagedResults } = await import('../../helpers/staged-results.js')
  const results = stagedResults()
  results.summary.steadyState = { timeS: null, medianTps: 80, band: 0.1, graceS: 2, medianFromS: 30, reason: 'fewer than 4 intervals: run longer' }
  assert.deepEqual(steadyLines(results), [])
})
