// The outcome of a threaded run from its workers' outcomes: counters summed, histograms added and
// every figure derived again from the sums (lib/results/merge-totals.js), never averaged; the
// client's CPU as the whole process's, with each worker's own.

import { mergeSummary, mergeTransactions, mergeEncoded } from '../results/merge-totals.js'
import { meanStddevMs } from '../metrics/figures.js'
import { latencySummaryMs, createHistogram, addInto, decodeHistogram, encodeHistogram } from '../metrics/histogram.js'
import { round3 } from '../format/round.js'
import { mergeStages } from '../results/merge-stages.js'
import { mergeSlowest } from './slowest-keeper.js'

/**
 * @typedef {object} PartResult what a worker sends when its run ends
 * @property {any} outcome its Run's outcome
 * @property {{ types: { name: string, sumUs: number, sumSqUs: number, count: number }[], unfinishedWait: string|null, unfinishedWaitSumUs?: number, unfinishedWaitSumSqUs?: number }} exact
 * @property {any} thread its CPU and event-loop figures
 */

/**
 * @param {PartResult[]} parts the workers, in thread order (at least one finished; a failed one's
 *   from partFromIntervals)
 * @param {{ intervals: object[], intervalS: number, typeNames: string[], durationS?: number, slowest?: number }} merged
 *   the merged series; durationS: the measured window when no worker finished; slowest: the
 *   slowest transactions kept per type (--explain-slowest), 0: none
 */
export function mergeOutcomes (parts, { intervals, intervalS, typeNames, slowest = 0 }) {
  const outcomes = parts.map((p) => p.outcome)
  // a failed worker's part (partFromIntervals) counts in the totals, not in the run's facts
  const finished = parts.filter((p) => p.thread !== null).map((p) => p.outcome)
  const durationS = Math.max(0, ...outcomes.map((o) => o.durationS))
  const transactions = mergeTransactions(outcomes, durationS, typeNames)
  const summary = mergeSummary(outcomes, { durationS, intervals, stepS: intervalS })
  // exact means from the sums the outcomes round
  let sumUs = 0; let sumSqUs = 0; let n = 0
  for (const name of typeNames) {
    let s = 0; let sq = 0; let c = 0
    for (const p of parts) {
      const t = p.exact.types.find((x) => x.name === name)
      if (t) { s += t.sumUs; sq += t.sumSqUs; c += t.count }
    }
    if (transactions[name] && c > 0) Object.assign(transactions[name].latencyMs, meanStddevMs(s, sq, c))
    sumUs += s; sumSqUs += sq; n += c
  }
  if (n > 0) Object.assign(summary.latencyMs, meanStddevMs(sumUs, sumSqUs, n))
  summary.unfinishedWaitMs = summary.unfinished > 0 ? unfinishedWaitMs(parts, finished, summary.unfinished) : null
  const cancelled = { grace: 0, abort: 0, timeout: 0 }
  for (const o of finished) for (const k of Object.keys(o.cancelled ?? {})) cancelled[k] = (cancelled[k] ?? 0) + o.cancelled[k]
  return {
    startTime: finished.map((o) => o.startTime).sort()[0],
    endTime: finished.map((o) => o.endTime).sort().at(-1),
    durationS: round3(durationS),
    terminals: finished.reduce((a, o) => a + o.terminals, 0),
    connections: finished.reduce((a, o) => a + o.connections, 0),
    paced: finished.some((o) => o.paced),
    aborted: finished.some((o) => o.aborted),
    abortedClients: finished.reduce((a, o) => a + o.abortedClients, 0),
    abortReason: finished.find((o) => o.abortReason)?.abortReason ?? null,
    interrupted: finished.some((o) => o.interrupted),
    graceS: finished[0].graceS,
    cancelled,
    summary,
    transactions,
    intervals,
    ...(finished.some((o) => o.stages) ? { stages: mergeStages(outcomes.map((o) => o.stages), typeNames) } : {}),
    backendPids: finished.flatMap((o) => o.backendPids ?? []),
    ...(slowest > 0 ? { slowest: mergeSlowest(finished.map((o) => o.slowest), slowest) } : {})
  }
}

/**
 * The cancelled transactions' waits over all workers: percentiles from the added histograms, the
 * mean and standard deviation from the added sums (a histogram's own mean is quantised).
 * @param {PartResult[]} parts @param {any[]} finished the finished workers' outcomes @param {number} n
 */
function unfinishedWaitMs (parts, finished, n) {
  const h = mergeEncoded(parts.map((p) => p.exact.unfinishedWait ?? undefined), finished.map((o) => o.summary.unfinishedWaitMs))
  const figures = latencySummaryMs(h)
  let sumUs = 0; let sumSqUs = 0
  for (const p of parts) { sumUs += p.exact.unfinishedWaitSumUs ?? 0; sumSqUs += p.exact.unfinishedWaitSumSqUs ?? 0 }
  return Object.assign(figures, meanStddevMs(sumUs, sumSqUs, n))
}

/**
 * The client section: the whole process's CPU over the measured window (every thread, the main
 * one's planning, progress and statistics included) and each worker's own.
 * @param {{ user: number, system: number }|null} processCpu process.cpuUsage() over the window
 * @param {any[]} threads each worker's figures, in thread order (null for one that crashed)
 * @param {number} attempts transactions committed and failed
 */
export function threadedClient (processCpu, threads, attempts) {
  const perTxn = (us) => attempts > 0 && typeof us === 'number' ? Math.round(us / attempts * 100) / 100 : null
  const given = threads.filter(Boolean)
  const sum = (k) => given.some((t) => typeof t[k] === 'number') ? given.reduce((a, t) => a + (t[k] ?? 0), 0) : null
  const busiest = Math.max(...given.map((t) => t.eventLoopUtilization ?? 0))
  return {
    cpuUs: processCpu ? processCpu.user + processCpu.system : null,
    cpuUsPerTxn: processCpu ? perTxn(processCpu.user + processCpu.system) : null,
    userUsPerTxn: processCpu ? perTxn(processCpu.user) : null,
    systemUsPerTxn: processCpu ? perTxn(processCpu.system) : null,
    // the busiest worker's loop: the one that saturates first
    eventLoopUtilization: given.length ? round3(busiest) : null,
    // no one driver thread: each worker's share is in `threads`
    onCpuShare: null,
    cpuWaitShare: null,
    cpuWaitUsPerTxn: perTxn(sum('cpuWaitUs')),
    threads: threads.map((t, i) => t
      ? {
          thread: i,
          firstTerminal: t.firstTerminal,
          terminals: t.terminals,
          connections: t.connections,
          transactions: t.transactions,
          cpuUs: t.cpuUs === null ? null : Math.round(t.cpuUs),
          cpuUsPerTxn: t.transactions > 0 && t.cpuUs !== null ? Math.round(t.cpuUs / t.transactions * 100) / 100 : null,
          eventLoopUtilization: t.eventLoopUtilization,
          onCpuShare: t.onCpuShare,
          cpuWaitShare: t.cpuWaitShare
        }
      : { thread: i, crashed: true })
  }
}

/**
 * What a worker that failed had measured, from the intervals it closed: counts and histograms
 * added; its latency sums from its histograms (it could not send its exact ones).
 * @param {any[]} intervals the worker's own interval entries
 * @param {string[]} typeNames
 * @returns {PartResult}
 */
export function partFromIntervals (intervals, typeNames) {
  const merged = (field) => {
    const h = createHistogram()
    for (const iv of intervals) if (typeof iv[field] === 'string') addInto(h, decodeHistogram(iv[field]))
    return h
  }
  const transactions = {}
  const types = []
  let count = 0
  for (const name of typeNames) {
    const h = createHistogram()
    let n = 0
    for (const iv of intervals) {
      n += iv.count?.[name] ?? 0
      if (typeof iv.histograms?.[name] === 'string') addInto(h, decodeHistogram(iv.histograms[name]))
    }
    const meanUs = h.totalCount > 0 ? h.mean : 0
    const sdUs = h.totalCount > 0 ? h.stdDeviation : 0
    types.push({ name, count: n, sumUs: meanUs * n, sumSqUs: (sdUs * sdUs + meanUs * meanUs) * n })
    transactions[name] = { count: n, histogram: encodeHistogram(h), latencyMs: latencySummaryMs(h) }
    count += n
  }
  const lag = merged('lagHistogram')
  const queue = merged('queueHistogram')
  const sum = (k) => intervals.reduce((a, iv) => a + (iv[k] ?? 0), 0)
  const last = intervals.at(-1)
  const outcome = {
    durationS: last ? last.t : 0,
    summary: {
      transactions: count,
      failed: sum('failed'),
      skipped: sum('skipped'),
      latencyMs: {},
      lagMs: latencySummaryMs(lag),
      queueMs: latencySummaryMs(queue),
      lagHistogram: encodeHistogram(lag),
      queueHistogram: encodeHistogram(queue)
    },
    transactions
  }
  return { outcome, exact: { types, unfinishedWait: null }, thread: null }
}
