// TPC-C's section of merged shards: computed again from the merged transactions and window.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { tpccResults } from '../../../workloads/tpcc/results.js'
import { mergeTpccSection } from '../../../workloads/tpcc/merge-results.js'
import { validateRunOptions } from '../../../workloads/tpcc/workload.js'

const TYPES = ['new-order', 'payment', 'order-status', 'delivery', 'stock-level']
const { mix, standard } = validateRunOptions({ noWait: true })

/** A partition's transactions: counts per type, p90 in ms. */
function transactionsOf (counts, p90Ms) {
  return Object.fromEntries(TYPES.map((t, i) => [t, { count: counts[i], rollbacks: t === 'new-order' ? 1 : 0, failed: 0, latencyMs: { p90: p90Ms } }]))
}

function section (transactions, { nopm, deferred = null }) {
  const s = tpccResults({ runInfo: { durationS: 120, transactions }, warehouses: 4, paced: false, waitScale: 1, mix, standardMix: standard, constants: { cLoad: 1 }, newOrdersByDistrict: nopm * 2, deferred })
  return s
}

const queue = (completed, within80sPct, mean) => ({ queued: completed + 1, completed, pending: 1, failed: 0, retries: 0, errors: {}, skippedDistricts: 0, workers: 1, queueToCompletionMs: { mean, min: mean / 2, max: mean * 2 }, within80sPct, pass: within80sPct >= 90 })

test('tpmC from the merged transactions and window; NOPM from the coordinator; Delivery queues added', () => {
  const a = transactionsOf([450, 430, 40, 40, 40], 12)
  const b = transactionsOf([451, 431, 41, 39, 40], 30)
  const merged = {
    run: { durationS: 120, options: { workloadOptions: { noWait: true } } },
    // as the merge adds them: counts summed, p90 from the added histograms
    transactions: Object.fromEntries(TYPES.map((t) => [t, { count: a[t].count + b[t].count, rollbacks: a[t].rollbacks + b[t].rollbacks, failed: 0, latencyMs: { p90: 25 } }]))
  }
  const parts = [
    { tpcc: section(a, { nopm: 1000, deferred: queue(40, 100, 10) }) },
    { tpcc: section(b, { nopm: 990, deferred: queue(60, 80, 20) }) }
  ]
  const m = mergeTpccSection(merged, parts)
  assert.equal(m.tpmC, (901 - 2) / 2, 'committed New-Orders of both shards per minute')
  assert.equal(m.tpmC, parts[0].tpcc.tpmC + parts[1].tpcc.tpmC)
  assert.equal(m.nopm, 1000, 'read once, server-side, by the coordinator')
  assert.equal(m.warehouses, 4)
  assert.equal(m.byType['new-order'].count, 901)
  assert.equal(m.responseTime['new-order'].p90Ms, 25)
  assert.equal(m.delivery.mode, 'deferred')
  assert.equal(m.delivery.completed, 100)
  assert.equal(m.delivery.within80sPct, 88)
  assert.equal(m.delivery.pass, false, '88 % within 80 s: below the 90 % the spec asks')
  assert.equal(m.delivery.queueToCompletionMs.mean, 16)
  assert.equal(m.delivery.queueToCompletionMs.p90, null, 'no percentile from averages')
  assert.equal(m.delivery.queueToCompletionMs.max, 40)
  assert.equal(mergeTpccSection(merged, [{}, {}]), null)
})
