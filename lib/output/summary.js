// The end-of-run summary: pgbench's lines (same labels, same order) and then pgload's
// per-type percentile table.

import { formatStages } from './stages-table.js'
import { clientCpuLine } from './client-cpu.js'
import { formatPerTransaction } from './per-transaction.js'
import { fewForPerTransaction } from './enough-data.js'
import { formatTpcc } from './tpcc-summary.js'
import { chbenchTransactionType, formatChbench, chbenchSplit } from './chbench-summary.js'
import { formatFailover, formatTrigger } from './failover-summary.js'
import { formatScenarios } from './scenario-summary.js'
import { formatTargets } from './targets-summary.js'

export { formatTpcc }

const f3 = (v) => v === null || v === undefined ? '-' : v.toFixed(3)
const pct = (n, d) => d > 0 ? (100 * n / d).toFixed(3) : '0.000'

/**
 * @param {any} results a results document
 * @param {{ description?: string, script?: any }} [opts]
 * @returns {string}
 */
export function formatSummary (results, { description } = {}) {
  const run = results.run
  const s = results.summary
  const types = Object.keys(results.transactions)
  const lines = []
  const opts = run.options ?? {}
  lines.push(`pgload (${results.tool.version}, server ${results.server.version})`)
  const scripts = results.script ?? null
  // CH-benCHmark: TPC-C's transactions and the analytic queries counted apart, never added
  const split = results.chbench ? chbenchSplit(results) : null
  const many = results.chbench ? chbenchTransactionType(results.chbench) : results.tpcc ? 'TPC-C (new-order, payment, order-status, delivery, stock-level)' : 'multiple scripts'
  lines.push(`transaction type: ${types.length === 1 ? (description ?? scripts?.[types[0]]?.desc ?? types[0]) : many}`)
  if (run.scale !== null && run.scale !== undefined) lines.push(`scaling factor: ${run.scale}`)
  lines.push(`query mode: ${run.protocol}`)
  lines.push(`number of clients: ${run.clients}`)
  lines.push(`number of threads: ${run.threads ?? 1}`)
  lines.push(`number of connections: ${run.connections}`)
  if (opts.maxTries !== undefined && opts.maxTries !== 0) lines.push(`maximum number of tries: ${opts.maxTries}`)
  if (opts.transactionsPerClient) {
    lines.push(`number of transactions per client: ${opts.transactionsPerClient}`)
    lines.push(`number of transactions actually processed: ${s.transactions}/${opts.transactionsPerClient * run.clients}`)
  } else {
    lines.push(`duration: ${Math.round(run.durationS)} s`)
    lines.push(`number of transactions actually processed: ${split ? `${split.transactions} TPC-C transactions + ${split.queries} analytic queries` : s.transactions}`)
  }
  lines.push(...outcomeLines(s, opts, run.cancelled))
  lines.push(...endLines(run))
  const all = s.transactions + s.skipped + s.failed
  if (all === 0) {
    lines.push(`no transaction ended in the measured window (${Math.round(run.durationS)} s)${results.tpcc ? ': spec-paced TPC-C terminals wait seconds between transactions; run longer (-T) or with --no-wait' : ''}`)
    return lines.join('\n') + '\n'
  }
  lines.push(`number of failed transactions: ${s.failed} (${pct(s.failed, all)}%)`)
  if (opts.failuresDetailed) {
    const ser = s.errors['40001'] ?? 0
    const dl = s.errors['40P01'] ?? 0
    lines.push(`number of serialization failures: ${ser} (${pct(ser, all)}%)`)
    lines.push(`number of deadlock failures: ${dl} (${pct(dl, all)}%)`)
  }
  if (opts.maxTries !== undefined && opts.maxTries !== 1) {
    lines.push(`number of transactions retried: ${s.retried} (${pct(s.retried, all)}%)`)
    lines.push(`total number of retries: ${s.retries}`)
  }
  if (opts.rate && opts.latencyLimitMs) lines.push(`number of transactions skipped: ${s.skipped} (${pct(s.skipped, all)}%)`)
  if (s.dropped > 0) lines.push(`number of dropped arrivals: ${s.dropped} (never served: --max-queue arrivals were already waiting for a terminal, or the run ended first)`)
  if (opts.latencyLimitMs) lines.push(`number of transactions above the ${opts.latencyLimitMs.toFixed(1)} ms latency limit: ${s.late}/${s.transactions} (${pct(s.late, s.transactions)}%)`)
  if (s.rollbacks > 0 && !results.tpcc) lines.push(`number of expected rollbacks: ${s.rollbacks} (${pct(s.rollbacks, all)}%)`) // TPC-C: in its block, labelled
  if (s.transactions > 0) {
    lines.push(`latency average = ${f3(s.latencyMs.mean)} ms`)
    lines.push(`latency stddev = ${f3(s.latencyMs.stddev)} ms`)
  }
  if (opts.rate) lines.push(`rate limit schedule lag: avg ${f3(s.lagMs.mean)} (max ${f3(s.lagMs.max)}) ms`)
  lines.push(...tpsLines(s, split))
  // a run whose rate or clients change by design (stages, a capacity search) has no steady state to reach
  const staged = Array.isArray(results.stages) && results.stages.length > 0
  const steady = staged ? null : steadyStateLine(s.steadyState)
  if (steady) lines.push(steady)
  const cpu = clientCpuLine(results)
  if (cpu) lines.push(cpu)
  const workers = Array.isArray(results.client?.threads)
  const thread = workers ? workerThreadsLine(results.client.threads) : driverThreadLine(results.client, s.transactions + s.failed, run.durationS)
  if (thread) lines.push(thread)
  const busy = workers ? workerBusyWarning(results.client.threads, run.durationS) : driverBusyWarning(results.client, run.durationS)
  if (busy) lines.push(busy)
  if (s.queueMs?.p99 !== null && s.queueMs?.p99 > 0.05) lines.push(`connection queue wait: p50 ${f3(s.queueMs.p50)} ms, p99 ${f3(s.queueMs.p99)} ms, max ${f3(s.queueMs.max)} ms`)
  if (scripts) lines.push(...formatScripts(results))
  lines.push('', formatPercentileTable(results))
  const stages = formatStages(results)
  if (stages) lines.push('', stages)
  // --no-tpcc: no TPC-C terminal ran, so no TPC-C figure to give
  if (results.tpcc && results.chbench?.tpcc !== false) lines.push('', formatTpcc(results))
  if (results.chbench) lines.push('', ...formatChbench(results))
  if (results.failover || results.run?.trigger) lines.push('', ...formatTrigger(results), ...formatFailover(results))
  lines.push(...formatTargets(results))
  const scenarios = formatScenarios(results)
  if (scenarios) lines.push('', scenarios)
  return lines.join('\n') + '\n'
}

/**
 * The connection time and tps lines as pgbench prints them; CH-benCHmark's tps counts TPC-C's
 * transactions, its queries per second on a line of their own.
 */
function tpsLines (s, split) {
  const tps = `tps = ${((split ? split.tps : s.tps) ?? 0).toFixed(6)} (${split ? 'TPC-C transactions, ' : ''}`
  const lines = s.averageConnectionMs !== undefined
    ? [`average connection time = ${f3(s.averageConnectionMs)} ms`, `${tps}including reconnection times)`]
    : [`initial connection time = ${f3(s.initialConnectionMs)} ms`, `${tps}without initial connection time)`]
  if (split) lines.push(`analytic queries per second = ${split.qps.toFixed(6)}`)
  return lines
}

/** How the run ended when it did not end by itself: interrupted, or clients that aborted. */
function endLines (run) {
  const lines = []
  if (run.interrupted) lines.push('run interrupted (Ctrl-C or SIGTERM): the figures cover what was measured until then')
  if (run.abortedClients > 0) lines.push(`number of aborted clients: ${run.abortedClients} of ${run.clients} (each stopped at its error, on stderr)`)
  return lines
}

// Time to steady state (lib/metrics/steady-state.js), when the results file has it.
function steadyStateLine (st) {
  if (!st || typeof st !== 'object') return null
  const band = `±${Math.round(st.band * 100)} %`
  if (st.timeS === null) return `time to steady state: none (${st.reason})`
  return `time to steady state = ${st.timeS.toFixed(1)} s (throughput from then on within ${band} of ${st.medianTps.toFixed(1)} tps, the median from ${st.medianFromS} s on)`
}

// Transactions neither committed nor failed (docs/results-format.md, "Outcomes"), when there are any.
function outcomeLines (s, opts, cancelled) {
  const lines = []
  if (s.unfinished > 0) {
    const w = s.unfinishedWaitMs
    lines.push(`number of unfinished transactions: ${s.unfinished} (${whyCancelled(opts, cancelled)}; they had waited mean ${f3(w?.mean)} ms, max ${f3(w?.max)} ms)`)
  }
  if (s.outcomeUnknown > 0) lines.push(`number of transactions with unknown outcome: ${s.outcomeUnknown} (connection lost after COMMIT was sent, before any reply)`)
  return lines
}

/**
 * How the unfinished transactions came to be cancelled, from the run's `cancelled` counts: the
 * grace after the end was over, or a second Ctrl-C (or SIGTERM) aborted the run at once.
 * @param {any} opts the run's options
 * @param {{ grace?: number, abort?: number }|null|undefined} cancelled
 */
function whyCancelled (opts, cancelled) {
  const afterGrace = opts.graceS === undefined ? 'when the grace after the end was over' : `${opts.graceS} s after the end`
  const grace = cancelled?.grace ?? 0
  const abort = cancelled?.abort ?? 0
  const aborted = 'the run was aborted by a second Ctrl-C or SIGTERM'
  if (abort > 0 && grace > 0) return `${aborted}: ${grace} cancelled ${afterGrace}, then ${abort} in flight cancelled at once`
  if (abort > 0) return `${aborted}: the ${abort} in flight were cancelled at once`
  if (grace > 0 || opts.graceS !== undefined) return `cancelled ${afterGrace}`
  return 'cancelled'
}

// The driver thread's time on a CPU and waiting for one (Linux), when the results file has it.
// The wait per transaction follows the same rule as the CPU per transaction.
function driverThreadLine (client, transactions, durationS) {
  if (typeof client?.onCpuShare !== 'number' || typeof client?.cpuWaitShare !== 'number') return null
  const perTxn = typeof client.cpuWaitUsPerTxn === 'number' && !fewForPerTransaction(transactions, durationS) ? ` (${formatPerTransaction(client.cpuWaitUsPerTxn, 1, { grouping: false })} us per transaction)` : ''
  return `driver thread: on a CPU ${percent(client.onCpuShare)} of the run, waiting for one ${percent(client.cpuWaitShare)}${perTxn}`
}

// Saturated: the driver's thread was runnable (on a CPU or waiting for one) nearly all the run,
// or, where the kernel gives no accounting, its event loop was nearly always busy. Starved: it
// waited for a CPU a quarter of the run or more, which client and server sharing too few CPUs
// does; the wait is in every latency measured, and the driver's CPU share caps the throughput.
const SATURATED = 0.9
const STARVED = 0.25
/** The share of the time busy (runnable, or the event loop busy) past which the driver was saturated. */
export const DRIVER_SATURATED = SATURATED

function driverBusyWarning (client, durationS) {
  if (!client || !(durationS >= 2)) return null
  const hasThread = typeof client.onCpuShare === 'number' && typeof client.cpuWaitShare === 'number'
  const runnable = hasThread ? client.onCpuShare + client.cpuWaitShare : null
  if (client.eventLoopUtilization > SATURATED || runnable >= SATURATED) {
    const why = hasThread ? `its thread was runnable ${percent(Math.min(1, runnable))} of the run, waiting for a CPU ${percent(client.cpuWaitShare)}` : `its event loop was busy ${percent(client.eventLoopUtilization)} of the run`
    return `warning: the driver was saturated (${why}): the client, not the server, may be the bottleneck`
  }
  if (hasThread && client.cpuWaitShare >= STARVED) {
    return `warning: the driver's thread waited for a CPU ${percent(client.cpuWaitShare)} of the run: client and server compete for this machine's CPUs, and the wait is in the latencies measured`
  }
  return null
}

const percent = (share) => `${Math.round(100 * share)}%`

// -j N: each worker's event loop and CPU (per thread, so a saturated one is not averaged away)
function workerThreadsLine (threads) {
  const each = threads.map((t) => t.crashed
    ? `${t.thread}: stopped`
    : `${t.thread}: loop ${percent(t.eventLoopUtilization ?? 0)}${typeof t.onCpuShare === 'number' ? `, on a CPU ${percent(t.onCpuShare)}, waiting for one ${percent(t.cpuWaitShare ?? 0)}` : ''}`)
  return `worker threads: ${each.join('; ')}`
}

// One line for the busiest worker whose event loop (or thread) was nearly always busy.
function workerBusyWarning (threads, durationS) {
  if (!(durationS >= 2)) return null
  const busy = (t) => Math.max(t.eventLoopUtilization ?? 0, (t.onCpuShare ?? 0) + (t.cpuWaitShare ?? 0))
  const live = threads.filter((t) => !t.crashed)
  const worst = live.reduce((a, t) => busy(t) > busy(a) ? t : a, live[0])
  if (!worst || busy(worst) < SATURATED) return null
  return `warning: worker thread ${worst.thread} of ${threads.length} was saturated (busy ${percent(Math.min(1, busy(worst)))} of the run): the client, not the server, may be the bottleneck; more threads (-j) may help where cores are free`
}

/**
 * Per transaction type: count, tps and latency percentiles in ms.
 * @param {any} results
 */
export function formatPercentileTable (results) {
  const head = ['transaction type', 'count', 'failed', 'tps', 'p50', 'p90', 'p95', 'p99', 'p99.9', 'max']
  const rows = [head]
  for (const [name, t] of Object.entries(results.transactions)) {
    const l = t.latencyMs
    rows.push([name, String(t.count), String(t.failed), t.tps === null ? '-' : t.tps.toFixed(1), f3(l.p50), f3(l.p90), f3(l.p95), f3(l.p99), f3(l.p999), f3(l.max)])
  }
  const widths = head.map((_, i) => Math.max(...rows.map((r) => r[i].length)))
  const out = rows.map((r) => r.map((c, i) => i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])).join('  '))
  out.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '))
  return 'latency in milliseconds (from the intended start):\n' + out.join('\n')
}

const f6 = (v) => v === null || v === undefined ? '-' : v.toFixed(6)

/**
 * pgbench's per-script sections (with several scripts) and per-command lines (`-r`).
 * @param {any} results
 * @returns {string[]}
 */
export function formatScripts (results) {
  const lines = []
  const opts = results.run.options ?? {}
  const perCommand = Boolean(opts.workloadOptions?.reportPerCommand)
  const withRetries = opts.maxTries !== undefined && opts.maxTries !== 1
  const names = Object.keys(results.transactions)
  const several = names.length > 1
  const totalWeight = names.reduce((s, n) => s + (results.run.weights?.[n] ?? 1), 0)
  const all = results.summary.transactions + results.summary.skipped + results.summary.failed
  names.forEach((name, i) => {
    const t = results.transactions[name]
    const sc = results.script[name]
    if (several) {
      const weight = results.run.weights?.[name] ?? 1
      const mine = t.count + t.skipped + t.failed
      lines.push(`SQL script ${i + 1}: ${sc?.desc ?? name}`)
      lines.push(` - weight: ${weight} (targets ${(100 * weight / totalWeight).toFixed(1)}% of total)`)
      lines.push(` - ${mine} transactions (${(all > 0 ? 100 * mine / all : 0).toFixed(1)}% of total)`)
      lines.push(` - number of transactions actually processed: ${t.count} (tps = ${f6(t.tps)})`)
      lines.push(` - number of failed transactions: ${t.failed} (${pct(t.failed, mine)}%)`)
      if (withRetries) {
        lines.push(` - number of transactions retried: ${t.retried} (${pct(t.retried, mine)}%)`)
        lines.push(` - total number of retries: ${t.retries}`)
      }
      if (t.count > 0) {
        lines.push(` - latency average = ${f3(t.latencyMs.mean)} ms`)
        lines.push(` - latency stddev = ${f3(t.latencyMs.stddev)} ms`)
      }
    }
    if (perCommand && sc?.commands) {
      lines.push(`${several ? ' - ' : ''}statement latencies in milliseconds${withRetries ? ', failures and retries' : ' and failures'}:`)
      for (const c of sc.commands) {
        const first = String(c.text).split('\n')[0].slice(0, 127)
        lines.push(`   ${c.latencyMs.toFixed(3).padStart(11)}  ${String(c.failures).padStart(10)}${withRetries ? ' ' + String(c.retries).padStart(10) : ''} ${first}`)
      }
    }
  })
  return lines
}
