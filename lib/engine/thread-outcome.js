// The outcome of a threaded run from its workers' outcomes: counters summed, histograms added and
// every figure derived again from the sums (lib/results/merge-totals.js), never averaged; the
// client's CPU as the whole process's, with each worker's own.

import { mergeSummary, mergeTransactions, mergeEncoded } from '../results/merge-totals.js'
import { meanStddevMs } from '../metrics/figures.js'
import { latencySummaryMs } from '../metrics/histogram.js'
import { round3 } from '../format/round.js'

/**
 * @typedef {object} PartResult what a worker sends when its run ends
 * @property {any} outcome its Run's outcome
 * @property {{ types: { name: string, sumUs: number, sumSqUs: number, count: number }[], unfinishedWait: string|null }} exact
 * @property {any} thread its CPU and event-loop figures
 */

/**
 * @param {PartResult[]} parts the workers that finished, in thread order
 * @param {{ intervals: object[], intervalS: number, typeNames: string[], durationS?: number }} merged
 *   the merged series; durationS: the measured window when no worker finished
 */
export function mergeOutcomes (parts, { intervals, intervalS, typeNames }) {
  const outcomes = parts.map((p) => p.outcome)
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
  summary.unfinishedWaitMs = summary.unfinished > 0
    ? latencySummaryMs(mergeEncoded(parts.map((p) => p.exact.unfinishedWait ?? undefined), outcomes.map((o) => o.summary.unfinishedWaitMs)))
    : null
  const cancelled = { grace: 0, abort: 0, timeout: 0 }
  for (const o of outcomes) for (const k of Object.keys(o.cancelled ?? {})) cancelled[k] = (cancelled[k] ?? 0) + o.cancelled[k]
  return {
    startTime: outcomes.map((o) => o.startTime).sort()[0],
    endTime: outcomes.map((o) => o.endTime).sort().at(-1),
    durationS: round3(durationS),
    terminals: outcomes.reduce((a, o) => a + o.terminals, 0),
    connections: outcomes.reduce((a, o) => a + o.connections, 0),
    paced: outcomes.some((o) => o.paced),
    aborted: outcomes.some((o) => o.aborted),
    abortedClients: outcomes.reduce((a, o) => a + o.abortedClients, 0),
    abortReason: outcomes.find((o) => o.abortReason)?.abortReason ?? null,
    interrupted: outcomes.some((o) => o.interrupted),
    graceS: outcomes[0].graceS,
    cancelled,
    summary,
    transactions,
    intervals,
    backendPids: outcomes.flatMap((o) => o.backendPids ?? [])
  }
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
  const round = (v) => Math.round(v * 1000) / 1000
  return {
    cpuUs: processCpu ? processCpu.user + processCpu.system : null,
    cpuUsPerTxn: processCpu ? perTxn(processCpu.user + processCpu.system) : null,
    userUsPerTxn: processCpu ? perTxn(processCpu.user) : null,
    systemUsPerTxn: processCpu ? perTxn(processCpu.system) : null,
    // the busiest worker's loop: the one that saturates first
    eventLoopUtilization: given.length ? round(busiest) : null,
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
