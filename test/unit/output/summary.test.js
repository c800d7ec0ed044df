// The run summary's client CPU line, from results files with and without the user/kernel split.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { formatSummary } from '../../../lib/output/summary.js'
import { clientCpuFact, coreShares } from '../../../lib/output/client-cpu.js'

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

// A run at 1.6 tps as recorded (--rate 2, 2 clients, 9.8 s): 2,011 us per transaction was the
// run's fixed cost, not the transactions'.
function slowRun () {
  const results = JSON.parse(readFileSync(FIXTURE, 'utf8'))
  results.run.durationS = 9.817
  Object.assign(results.summary, { transactions: 16, failed: 0, tps: 1.63 })
  results.client = { cpuUs: 32177, cpuUsPerTxn: 2011.06, userUsPerTxn: 1609.06, systemUsPerTxn: 402, eventLoopUtilization: 0.004 }
  return results
}

test('client CPU at a few transactions per second: a share of one core, not per transaction', () => {
  const results = slowRun()
  assert.equal(formatSummary(results).split('\n').find((l) => l.startsWith('client CPU')),
    'client CPU = 0.3% of one core (0.3% user, 0.1% kernel; event loop 0% busy; 16 transactions at 1.6 tps: too few for a per-transaction figure)')
  assert.equal(cpuLine(results), undefined)
  // recorded shares are used as they are
  results.client.cpuCoreShare = 0.0412
  results.client.userCoreShare = 0.03
  results.client.systemCoreShare = 0.0112
  assert.match(formatSummary(results), /^client CPU = 4\.1% of one core \(3\.0% user, 1\.1% kernel;/m)
})

test('client CPU: the bounds of the per-transaction figure (100 tps and 1,000 transactions)', () => {
  const results = slowRun()
  const at = (transactions, durationS) => {
    results.run.durationS = durationS
    results.summary.transactions = transactions
    return formatSummary(results).split('\n').find((l) => l.startsWith('client CPU'))
  }
  assert.match(at(1000, 10), /^client CPU per transaction = /)
  assert.match(at(999, 9.99), /of one core/, 'fewer than 1,000 transactions')
  assert.match(at(1990, 20), /of one core/, '99.5 tps')
})

test('coreShares: CPU over the window as shares of one core, split from the per-transaction figures', () => {
  assert.deepEqual(coreShares({ cpuUs: 500000, userUsPerTxn: 30, systemUsPerTxn: 20 }, 10, 10000), { cpuCoreShare: 0.05, userCoreShare: 0.03, systemCoreShare: 0.02 })
  assert.deepEqual(coreShares({ cpuUsPerTxn: 50 }, 10, 10000), { cpuCoreShare: 0.05, userCoreShare: null, systemCoreShare: null })
  assert.deepEqual(coreShares({ cpuUs: 5 }, 0, 1), { cpuCoreShare: null, userCoreShare: null, systemCoreShare: null })
})

test('the report header follows the same rule', () => {
  const results = slowRun()
  assert.equal(clientCpuFact(results), 'CPU 0.3% of one core (0.3% user, 0.1% kernel)')
  results.summary.transactions = 16000
  assert.equal(clientCpuFact(results), '2,011.1 us CPU per transaction (1,609.1 user, 402.0 kernel)')
})

// TPC-C: each throughput figure says how it is counted and over which window; rollbacks are
// labelled; a mix below the spec minimums is warned about, with the reason.
const TPCC_FIXTURE = fileURLToPath(new URL('../../fixtures/results/tpcc.json', import.meta.url))

async function tpccSummary (overrides) {
  const { tpccResults } = await import('../../../workloads/tpcc/results.js')
  const results = JSON.parse(readFileSync(TPCC_FIXTURE, 'utf8'))
  const tx = (count, rollbacks, p90) => ({ count, rollbacks, failed: 0, latencyMs: { p90 } })
  results.tpcc = tpccResults({
    runInfo: { durationS: 180, transactions: { 'new-order': tx(385, 4, 5), payment: tx(380, 0, 3), 'order-status': tx(33, 0, 3), delivery: tx(36, 0, 1), 'stock-level': tx(36, 0, 20) } },
    warehouses: 10,
    paced: true,
    waitScale: 1,
    mix: { 'new-order': 45, payment: 43, 'order-status': 4, delivery: 4, 'stock-level': 4 },
    standardMix: true,
    constants: {},
    newOrdersByDistrict: 380,
    warmupS: 40,
    rampUp: true,
    ...overrides
  })
  results.summary.rollbacks = 4
  return formatSummary(results).split('\n')
}

test('TPC-C block: the window, how tpmC and NOPM are counted, efficiency and its ceiling', async () => {
  const lines = await tpccSummary()
  assert.ok(lines.includes('TPC-C, 10 warehouses, 100 terminals, spec-paced; measured 180 s after a 40 s ramp-up'), lines.join('\n'))
  assert.ok(lines.includes('tpmC = 127.0   New-Orders the driver saw commit, per minute of the measured window'))
  assert.ok(lines.includes('NOPM = 126.7   growth of the districts\' order counters (sum of d_next_o_id) over the same window, per minute, as HammerDB counts'))
  assert.ok(lines.includes('efficiency = 98.8%   tpmC / (12.86 x 10 warehouses); above the 98.0% these waits and this mix allow on average, by chance: the New-Orders of a finite window vary around that average'), lines.join('\n'))
})

test('TPC-C block: rollbacks as a share of New-Orders and of all transactions, each labelled; no unlabelled line', async () => {
  const lines = await tpccSummary()
  assert.ok(lines.includes('rollbacks: 1.04% of New-Orders (spec: about 1%), 0.46% of all transactions'), lines.join('\n'))
  assert.equal(lines.filter((l) => l.startsWith('number of expected rollbacks')).length, 0)
})

test('TPC-C block: a measured mix below the minimums is warned about, with the few decks behind it', async () => {
  const lines = await tpccSummary()
  const i = lines.indexOf('warning: the measured mix is below the minimums of clause 5.2.3: order-status 3.79% (minimum 4%)')
  assert.ok(i > 0, lines.join('\n'))
  assert.equal(lines[i + 1], '  only 37 decks of 23 transactions completed (0.37 per terminal): short runs complete few decks; whole decks give order-status 4.35%')
  const ok = await tpccSummary({ runInfo: { durationS: 60, transactions: { 'new-order': { count: 100, rollbacks: 1, latencyMs: { p90: 1 } }, payment: { count: 100, latencyMs: { p90: 1 } }, 'order-status': { count: 10, latencyMs: { p90: 1 } }, delivery: { count: 10, latencyMs: { p90: 1 } }, 'stock-level': { count: 10, latencyMs: { p90: 1 } } } } })
  assert.equal(ok.filter((l) => l.includes('below the minimums')).length, 0)
})

test('TPC-C block: without a warm-up the window is the measured duration alone; an explicit warm-up is called so', async () => {
  assert.ok((await tpccSummary({ warmupS: 0, rampUp: false })).includes('TPC-C, 10 warehouses, 100 terminals, spec-paced; measured 180 s'))
  assert.ok((await tpccSummary({ warmupS: 20, rampUp: false })).includes('TPC-C, 10 warehouses, 100 terminals, spec-paced; measured 180 s after a 20 s warm-up'))
})

test('TPC-C block: a paced run measured before its ramp-up would end is warned about', async () => {
  const warn = (lines) => lines.filter((l) => l.startsWith('warning: measuring began'))
  assert.deepEqual(warn(await tpccSummary({ warmupS: 20, rampUp: false })), ['warning: measuring began 20 s after the start, before the 40 s ramp-up in which every terminal finishes its first transaction: the figures include the terminals\' staggered start'])
  assert.equal(warn(await tpccSummary({ warmupS: 0, rampUp: false })).length, 1)
  assert.deepEqual(warn(await tpccSummary()), [])
  assert.deepEqual(warn(await tpccSummary({ paced: false, warmupS: 0 })), [])
})

test('TPC-C block: a type that did not run and a Delivery queue that delivered nothing have no verdict, not FAIL', async () => {
  const tx = (count, p90) => ({ count, rollbacks: 0, latencyMs: { p90 } })
  const lines = await tpccSummary({
    runInfo: { durationS: 30, transactions: { 'new-order': tx(13, 31), payment: tx(11, 27), 'order-status': tx(0, null), delivery: tx(0, null), 'stock-level': tx(2, 106) } },
    deferred: { queued: 0, completed: 0, pending: 0, failed: 0, queueToCompletionMs: { p90: null }, within80sPct: null, pass: null }
  })
  const table = lines.slice(lines.findIndex((l) => l.startsWith('transaction ') && l.includes('mix %')))
  const row = (name) => table.find((l) => l.startsWith(name + ' ')).trim().split(/\s+/)
  assert.equal(row('order-status').at(-1), '-')
  assert.equal(row('delivery').at(-1), '-')
  assert.equal(row('new-order').at(-1), 'pass')
  assert.ok(lines.includes('deferred Delivery, since the start of the run (the 40 s ramp-up included): 0 queued, none completed: no verdict'), lines.join('\n'))
  assert.ok(!table.some((l) => l.includes('FAIL')))
})

test('driver thread: a CPU wait below 0.1 us per transaction keeps its significant digits', () => {
  const results = JSON.parse(readFileSync(FIXTURE, 'utf8'))
  results.client = { cpuUsPerTxn: 29.3, eventLoopUtilization: 0.21, onCpuShare: 0.331, cpuWaitShare: 0.001, cpuWaitUsPerTxn: 0.04 }
  assert.deepEqual(linesFrom(results, 'driver thread'), ['driver thread: on a CPU 33% of the run, waiting for one 0% (0.04 us per transaction)'])
})

test('worker threads: each thread\'s event loop, time on a CPU and waiting for one, a stopped one as such', () => {
  const results = JSON.parse(readFileSync(FIXTURE, 'utf8'))
  results.client = {
    cpuUsPerTxn: 30,
    eventLoopUtilization: 0.3,
    threads: [
      { thread: 0, eventLoopUtilization: 0.23, onCpuShare: 0.13, cpuWaitShare: 0.2 },
      { thread: 1, crashed: true }
    ]
  }
  assert.deepEqual(linesFrom(results, 'worker threads'), ['worker threads: 0: loop 23%, on a CPU 13%, waiting for one 20%; 1: stopped'])
})

// `run tpcb -c 1 -t 1` on one thread printed "client CPU = 362% of one core" over a 4 ms window
test('client CPU: no share of a core over a window too short, or above what the threads can use', () => {
  const results = slowRun()
  results.run.durationS = 0.004
  results.run.threads = 1
  Object.assign(results.summary, { transactions: 1, failed: 0 })
  results.client = { cpuUs: 14480, cpuUsPerTxn: 14480, userUsPerTxn: 14440, systemUsPerTxn: 40, eventLoopUtilization: 0.5 }
  const line = () => formatSummary(results).split('\n').find((l) => l.startsWith('client CPU'))
  assert.match(line(), /^client CPU: not shown: the measured window \(0\.004 s\) is too short for a share of a core \(event loop 50% busy; /)
  assert.equal(clientCpuFact(results), 'CPU: not shown: the measured window (0.004 s) is too short for a share of a core')
  assert.deepEqual(coreShares(results.client, 0.004, 1), { cpuCoreShare: null, userCoreShare: null, systemCoreShare: null })
  // a file that recorded such a share: not repeated, whatever its window
  results.run.durationS = 2
  results.client.cpuCoreShare = 3.62
  assert.match(line(), /^client CPU: not shown: 362% of one core is more than 1 thread can use \(/)
  results.run.threads = 4
  assert.match(line(), /^client CPU = 362% of one core/)
})
