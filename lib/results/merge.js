// The exact merge of results documents of partitions of one run (worker threads, shards):
// counters added, histograms added, series aligned on wall-clock time, figures derived again.
// docs/results-format.md, "Merging partitions", says which field is combined how.

import { PgloadError } from '../errors.js'
import { perTransaction } from '../server/stats/counters.js'
import { validateResults } from './schema.js'
import { checkSameRun } from './merge-check.js'
import { agreed, combineObjects, combineValues, isNum } from './merge-fields.js'
import { gridShifts, measuredStartMs, mergeIntervals } from './merge-series.js'
import { mergeSummary, mergeTransactions } from './merge-totals.js'
import { mergeScript } from './merge-script.js'
import { mergeWaits } from './merge-waits.js'
import { shardsOf } from './merge-shards.js'
import { mergeStages } from './merge-stages.js'
import { mergeScenarios } from './merge-scenarios.js'
import { round3 } from '../format/round.js'

const round2 = (v) => Math.round(v * 100) / 100

/**
 * @typedef {object} MergeOptions
 * @property {string[]} [sources] a name per document (file names) for messages
 * @property {number} [coordinator] index of the partition whose server statistics, server,
 *   host and command line the merged run keeps; default the one whose measured window began first
 * @property {Record<string, (merged: object, parts: object[]) => object|null>} [sections]
 *   recompute a workload's own section (`tpcc`) from the merged document and the partitions
 */

/**
 * Merge results documents of partitions of one run into the run's document. Each document is
 * validated first; documents of different runs are refused with a one-line PgloadError (code
 * RESULTS_MISMATCH) naming the field that differs. The result validates as a results document.
 * @param {object[]} docs
 * @param {MergeOptions} [opts]
 * @returns {object} the merged results document
 */
export function mergeResults (docs, { sources, coordinator, sections = {} } = {}) {
  if (!Array.isArray(docs) || docs.length === 0) throw new PgloadError('nothing to merge: give the results of at least one partition', { code: 'RESULTS_MISMATCH' })
  const names = docs.map((_, i) => sources?.[i] ?? `results ${i + 1}`)
  docs.forEach((d, i) => validateResults(d, names[i]))
  if (coordinator !== undefined && !(Number.isInteger(coordinator) && coordinator >= 0 && coordinator < docs.length)) {
    throw new PgloadError(`coordinator must be an index into the ${docs.length} documents, got ${coordinator}`, { code: 'BAD_OPTION' })
  }
  // shards of one run: all of them, each once; shard 0 coordinated the run
  const shards = shardsOf(docs, names)
  const order = partitionOrder(docs, coordinator ?? shards?.coordinator)
  const parts = order.map((i) => docs[i])
  checkSameRun(parts, order.map((i) => names[i]))

  const stepS = intervalLength(parts[0])
  const shifts = gridShifts(parts, stepS)
  // the merged window on the series' grid: partitions moved by their shift, as their intervals are
  const durationS = round3(Math.max(...parts.map((d, p) => shifts[p] * stepS + (d.run.durationS ?? 0))))
  const intervals = mergeIntervals(parts, stepS)
  const transactions = mergeTransactions(parts, durationS, parts[0].run.transactionTypes ?? [])
  const summary = mergeSummary(parts, { durationS, intervals, stepS })
  const attempts = summary.transactions + (summary.failed ?? 0)

  const merged = combineObjects(parts, {
    tool: () => combineObjects(parts.map((d) => d.tool), {}, firstUnlessAgreed),
    run: () => mergeRun(parts, durationS, shards?.record),
    server: () => parts[0].server,
    host: () => parts[0].host,
    client: () => mergeClient(parts, attempts),
    summary: () => summary,
    transactions: () => transactions,
    intervals: () => intervals,
    stages: () => mergeStages(parts.map((d) => d.stages), parts[0].run.transactionTypes ?? []),
    serverStats: () => mergeServerStats(parts, attempts),
    script: () => mergeScript(parts.map((d) => d.script)),
    waits: () => mergeWaits(parts.map((d) => d.waits), transactions, { shifts, stepS }),
    scenarios: () => mergeScenarios(parts, stepS, order.map((i) => names[i])),
    // verdicts on one partition's figures: `pgload check` evaluates the merged run
    thresholds: () => undefined
  }, agreed)
  // workload sections (tpcc) are computed by the workload: never one partition's figures
  for (const [name, rebuild] of Object.entries(sections)) {
    if (parts.some((d) => d[name] !== undefined && d[name] !== null)) merged[name] = rebuild(merged, parts)
  }
  if (!Object.hasOwn(sections, 'tpcc') && parts.length > 1) delete merged.tpcc
  return validateResults(merged, 'merged results')
}

/**
 * Indices of the documents, coordinator first, the others by the start of their measured window
 * (given order on ties): the merge's result does not depend on the order it was given.
 * @param {any[]} docs
 * @param {number|undefined} coordinator
 */
function partitionOrder (docs, coordinator) {
  const starts = docs.map((d) => measuredStartMs(d) ?? Infinity)
  const byStart = docs.map((_, i) => i).sort((a, b) => starts[a] - starts[b] || a - b)
  if (coordinator === undefined) return byStart
  return [coordinator, ...byStart.filter((i) => i !== coordinator)]
}

/** The series' interval length: the recorded option, else the first interval's length. */
function intervalLength (doc) {
  const s = doc.run.options?.intervalS
  if (isNum(s) && s > 0) return s
  const first = doc.intervals.find((iv) => isNum(iv.lengthS) && iv.lengthS > 0)
  return first ? first.lengthS : 1
}

/** The partitions' common value, or the coordinator's when they differ; flags any partition raised. */
function firstUnlessAgreed (values) {
  const present = values.filter((v) => v !== undefined)
  if (present.length && present.every((v) => typeof v === 'boolean')) return present.some(Boolean)
  return agreed(values) ?? values[0]
}

/**
 * `run` of the merged document: checked fields as they are, terminals, clients and connections
 * added, the earliest start and latest end, the merged window, aborted or interrupted if any
 * partition was, and how many partitions were merged; for shards, `shards` in place of each one's `shard`.
 * @param {any[]} parts
 * @param {number} durationS
 * @param {object} [shards] the shards' record (merge-shards.js)
 */
function mergeRun (parts, durationS, shards) {
  const runs = parts.map((d) => d.run)
  const times = (k) => runs.map((r) => r[k]).filter((t) => typeof t === 'string' && !Number.isNaN(Date.parse(t)))
  const earliest = times('startTime').sort((a, b) => Date.parse(a) - Date.parse(b))[0] ?? runs[0].startTime
  const latest = times('endTime').sort((a, b) => Date.parse(b) - Date.parse(a))[0] ?? runs[0].endTime
  const sum = (k) => () => combineValues(runs.map((r) => r[k]))
  const out = combineObjects(runs, {
    startTime: () => earliest,
    endTime: () => latest,
    durationS: () => durationS,
    clients: sum('clients'),
    terminals: sum('terminals'),
    connections: sum('connections'),
    abortedClients: sum('abortedClients'),
    abortReason: () => runs.map((r) => r.abortReason).find((r) => typeof r === 'string') ?? null,
    shard: () => undefined
  }, firstUnlessAgreed)
  if (shards) out.shards = shards
  out.partitions = runs.reduce((a, r) => a + (Number.isInteger(r.partitions) && r.partitions > 0 ? r.partitions : 1), 0)
  return out
}

/**
 * `client` of the merged run: CPU time added and divided again by the merged transactions;
 * event-loop utilisation and the thread's CPU shares as the mean over partitions weighted by
 * their windows (each partition is one thread: the mean share of a thread, not of the machine).
 * @param {any[]} parts
 * @param {number} attempts merged committed + failed transactions
 */
function mergeClient (parts, attempts) {
  const clients = parts.map((d) => d.client)
  if (clients.every((c) => c === null || c === undefined)) return clients[0]
  const partAttempts = parts.map((d) => d.summary.transactions + (d.summary.failed ?? 0))
  // per-transaction figures times each partition's transactions give back its totals
  const perTxn = (k) => () => {
    if (!clients.every((c) => isNum(c?.[k]))) return null
    const totalUs = clients.reduce((a, c, p) => a + c[k] * partAttempts[p], 0)
    return attempts > 0 ? round2(totalUs / attempts) : null
  }
  const share = (k) => () => {
    if (!clients.every((c) => isNum(c?.[k]))) return null
    const w = parts.map((d) => d.run.durationS ?? 0)
    const total = w.reduce((a, b) => a + b, 0)
    return total > 0 ? round3(clients.reduce((a, c, p) => a + c[k] * w[p], 0) / total) : null
  }
  return combineObjects(clients, {
    cpuUsPerTxn: () => clients.every((c) => isNum(c?.cpuUs)) && attempts > 0
      ? round2(clients.reduce((a, c) => a + c.cpuUs, 0) / attempts)
      : perTxn('cpuUsPerTxn')(),
    userUsPerTxn: perTxn('userUsPerTxn'),
    systemUsPerTxn: perTxn('systemUsPerTxn'),
    cpuWaitUsPerTxn: perTxn('cpuWaitUsPerTxn'),
    eventLoopUtilization: share('eventLoopUtilization'),
    onCpuShare: share('onCpuShare'),
    cpuWaitShare: share('cpuWaitShare'),
    // each partition warms its own code up, at the same time
    jitWarmup: () => {
      const w = clients.map((c) => c?.jitWarmup).filter((j) => j && typeof j === 'object')
      if (w.length === 0) return null
      const ms = w.map((j) => j.ms).filter(isNum)
      return { transactions: combineValues(w.map((j) => j.transactions)), ms: ms.length ? Math.max(...ms) : null }
    }
  })
}

/**
 * Server statistics are server-wide: taken once, from the coordinator (or the first partition
 * that has them), with the figures per transaction divided again by the merged transactions.
 * @param {any[]} parts
 * @param {number} attempts
 */
function mergeServerStats (parts, attempts) {
  const stats = parts.map((d) => d.serverStats).find((s) => s !== null && s !== undefined)
  if (!stats) return parts[0].serverStats
  if (!stats.perTransaction || !stats.deltas) return stats
  return { ...stats, perTransaction: perTransaction(stats.deltas, attempts) }
}
