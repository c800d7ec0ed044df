// The `tpcc` section of merged partitions (shards, worker threads) of one TPC-C run: computed
// again from the merged transactions and window, never one partition's figures.

import { tpccResults } from './results.js'
import { validateRunOptions } from './workload.js'
import { deliveryCounts } from './deferred-queue.js'

const isNum = (v) => typeof v === 'number' && Number.isFinite(v)

/**
 * `tpcc` of the merged run: tpmC, mix, rollbacks and response-time checks from the merged
 * transactions (histograms added) over the merged window; NOPM from the coordinator's reading of
 * sum(d_next_o_id) (every partition reads all of the run's warehouses: server-side, taken once);
 * deferred Delivery's counters added.
 * @param {any} merged the merged results document (without `tpcc`)
 * @param {any[]} parts the partitions' documents, coordinator first
 * @returns {object|null}
 */
export function mergeTpccSection (merged, parts) {
  const sections = parts.map((d) => d.tpcc).filter((t) => t && typeof t === 'object')
  if (sections.length === 0) return null
  const first = sections[0]
  const { mix, standard } = validateRunOptions(merged.run.options?.workloadOptions ?? {})
  const coordinator = parts[0].tpcc
  const growth = isNum(coordinator?.nopm) && isNum(coordinator?.measuredS) ? coordinator.nopm * coordinator.measuredS / 60 : null
  return tpccResults({
    runInfo: { durationS: merged.run.durationS, transactions: merged.transactions },
    warehouses: first.warehouses,
    paced: first.paced,
    waitScale: first.waitScale,
    mix,
    standardMix: standard,
    constants: first.constants,
    newOrdersByDistrict: growth,
    warmupS: first.warmupS ?? 0,
    rampUp: first.rampUp ?? false,
    deferred: mergeDeferred(sections.map((t) => t.delivery).filter((d) => d?.mode === 'deferred'))
  })
}

/**
 * Deferred Delivery over partitions, each with its own queue: counts added, the share completed
 * within 80 s from each one's count, the queue-to-completion mean, minimum and maximum exact
 * (its percentiles are not kept as histograms: left null rather than averaged).
 * @param {any[]} list each partition's `tpcc.delivery`
 */
function mergeDeferred (list) {
  if (list.length === 0) return null
  const counts = deliveryCounts(list, list.reduce((a, d) => a + (isNum(d.within80sPct) ? Math.round(d.within80sPct * d.completed / 100) : 0), 0))
  const q = list.map((d) => d.queueToCompletionMs).filter(Boolean)
  const weighted = q.length === list.length && counts.completed > 0
    ? Math.round(1000 * list.reduce((a, d) => a + (d.queueToCompletionMs.mean ?? 0) * d.completed, 0) / counts.completed) / 1000
    : null
  const ends = (k, f) => { const v = q.map((x) => x[k]).filter(isNum); return v.length ? f(...v) : null }
  const { mode, ...summary } = list[0]
  return {
    ...summary,
    ...counts,
    queueToCompletionMs: { mean: weighted, stddev: null, min: ends('min', Math.min), p50: null, p90: null, p95: null, p99: null, p999: null, max: ends('max', Math.max) }
  }
}
