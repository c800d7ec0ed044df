// The run summary's client CPU line, from results files with and without the user/kernel split.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { formatSummary } from '../../../lib/output/summary.js'

const FIXTURE = fileURLToPath(new URL('../../fixtures/results/tpcb-a.json', import.meta.url))

function cpuLine (results) {
  return formatSummary(results).split('\n').find((l) => l.startsWith('client CPU per transaction'))
}

test('client CPU per transaction: user and kernel time when the results file has them', () => {
  const results = JSON.parse(readFileSync(FIXTURE, 'utf8'))
  results.client = { cpuUs: 21300, cpuUsPerTxn: 21.3, userUsPerTxn: 6.1, systemUsPerTxn: 15.2, eventLoopUtilization: 0.41 }
  assert.equal(cpuLine(results), 'client CPU per transaction = 21.3 us (6.1 user, 15.2 kernel; event loop 41% busy)')
})

test('client CPU per transaction: a results file from before the split prints the total only', () => {
  const results = JSON.parse(readFileSync(FIXTURE, 'utf8'))
  results.client = { cpuUsPerTxn: 21.3, eventLoopUtilization: 0.41 }
  assert.equal(cpuLine(results), 'client CPU per transaction = 21.3 us (event loop 41% busy)')
})
