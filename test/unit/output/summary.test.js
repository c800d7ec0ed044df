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

function linesFrom (results, prefix) {
  return formatSummary(results).split('\n').filter((l) => l.startsWith(prefix))
}

test('driver thread: its time on a CPU and waiting for one, and no warning below the thresholds', () => {
  const results = JSON.parse(readFileSync(FIXTURE, 'utf8'))
  results.client = { cpuUsPerTxn: 29.3, userUsPerTxn: 8.3, systemUsPerTxn: 21.0, eventLoopUtilization: 0.21, onCpuShare: 0.331, cpuWaitShare: 0.012, cpuWaitUsPerTxn: 0.6 }
  assert.deepEqual(linesFrom(results, 'driver thread'), ['driver thread: on a CPU 33% of the run, waiting for one 1% (0.6 us per transaction)'])
  assert.deepEqual(linesFrom(results, 'warning'), [])
})

test('driver thread: runnable nearly all the run is saturated, even when the event loop looked idle enough', () => {
  const results = JSON.parse(readFileSync(FIXTURE, 'utf8'))
  results.client = { cpuUsPerTxn: 7.5, eventLoopUtilization: 0.89, onCpuShare: 0.38, cpuWaitShare: 0.61, cpuWaitUsPerTxn: 11.9 }
  assert.deepEqual(linesFrom(results, 'warning'), ['warning: the driver was saturated (its thread was runnable 99% of the run, waiting for a CPU 61%): the client, not the server, may be the bottleneck'])
})

test('driver thread: a quarter of the run waiting for a CPU is a warning of its own', () => {
  const results = JSON.parse(readFileSync(FIXTURE, 'utf8'))
  results.client = { cpuUsPerTxn: 43.5, eventLoopUtilization: 0.53, onCpuShare: 0.35, cpuWaitShare: 0.42, cpuWaitUsPerTxn: 52.4 }
  assert.deepEqual(linesFrom(results, 'warning'), ["warning: the driver's thread waited for a CPU 42% of the run: client and server compete for this machine's CPUs, and the wait is in the latencies measured"])
})

test('driver thread: without the kernel accounting, a busy event loop is the saturation warning', () => {
  const results = JSON.parse(readFileSync(FIXTURE, 'utf8'))
  results.client = { cpuUsPerTxn: 7.5, eventLoopUtilization: 0.95, onCpuShare: null, cpuWaitShare: null, cpuWaitUsPerTxn: null }
  assert.deepEqual(linesFrom(results, 'driver thread'), [])
  assert.deepEqual(linesFrom(results, 'warning'), ['warning: the driver was saturated (its event loop was busy 95% of the run): the client, not the server, may be the bottleneck'])
})
