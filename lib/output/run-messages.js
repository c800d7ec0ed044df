// What `pgload run` tells the user while a benchmark runs and after it: the set-up phases, a
// run's errors and cancels (stderr, as pgbench words them), and the summary (stdout).

import { formatServerError } from '../errors.js'
import { attachProgress } from './run-progress.js'
import { formatSummary } from './summary.js'
import { formatServerStatsSummary } from './server-summary.js'
import { formatPoolerSummary } from './pooler-summary.js'
import { formatWaitsSummary } from './waits-summary.js'
import { formatSlowestSummary } from './slowest-summary.js'
import { shardPhaseMessage } from '../orchestration/shard-run.js'
import { plural } from '../format/plural.js'
import { thresholdActual, thresholdTally } from '../compare/format.js'

/**
 * The line for a phase of runBenchmark (its onPhase hook), or null for phases not shown.
 * @param {string} phase
 * @param {any} info
 * @param {{ warmupS?: number, rampUp?: { reason: string }, durationS?: number }} [plan] for the warm-up line
 * @returns {string|null}
 */
export function phaseMessage (phase, info, plan) {
  switch (phase) {
    case 'seed': return `pgload: setting random seed to ${info.seed}\n`
    case 'connected': return `pgload: ${info.embedded ? 'embedded ' : ''}PostgreSQL ${info.serverVersion.version} at ${info.target}${info.statementStats ? ' (pg_stat_statements on)' : ''}\n`
    case 'waiting-load': return `pgload: ${info.message}\n`
    case 'loading': return `pgload: the ${info.workload} tables are missing in the embedded server: loading them first (pgload init ${info.workload})\n`
    case 'loaded': return `pgload: loaded in ${info.steps.reduce((t, s) => t + s.seconds, 0).toFixed(2)} s (${info.steps.map((s) => `${s.name} ${s.seconds.toFixed(2)} s`).join(', ')})\n`
    case 'settled': return `pgload: vacuumed${info.checkpointed ? ' and checkpointed' : `; CHECKPOINT refused (${info.checkpointRefused}): the load's dirty pages may be written during the run`} in ${info.settleS.toFixed(2)} s before the run\n`
    case 'restarting': return `pgload: cold start: restarting ${info.method === 'embedded' ? 'the embedded server' : 'the server (--restart-command)'}\n`
    case 'cold': return `pgload: ${coldLine(info)}\n`
    case 'running': return `pgload: running ${plural(info.terminals, 'terminal')} on ${plural(info.connections, 'connection')}\n` +
      (plan?.warmupS > 0 ? `pgload: ${warmupLine(plan)}\n` : '')
    default: return shardPhaseMessage(phase, info)
  }
}

/**
 * `cold start: the server restarted in 2.1 s; OS page cache dropped after the stop, before the start`
 * @param {import('../server/cold/cold-start.js').ColdRecord} cold
 * @returns {string}
 */
export function coldLine (cold) {
  const cache = cold.pageCacheNote ?? (cold.pageCacheDropped ? 'dropped' : 'not dropped')
  return `cold start: the server restarted in ${cold.restartS.toFixed(1)} s; OS page cache ${cache}`
}

/** `ramp-up 40 s (every terminal finishes its first transaction), then measuring 10 min` */
function warmupLine ({ warmupS, rampUp, durationS }) {
  const first = rampUp ? `ramp-up ${seconds(warmupS)} (${rampUp.reason})` : `warm-up ${seconds(warmupS)}`
  return durationS ? `${first}, then measuring ${seconds(durationS)}` : `${first}, then measuring`
}

const seconds = (s) => s >= 60 && s % 60 === 0 ? `${s / 60} min` : `${Math.round(s * 10) / 10} s`

/**
 * Show a run's progress (every `progressS`) and what goes wrong in it.
 * @param {import('../engine/run-handle.js').RunHandle} run
 * @param {{ progressS: number, progressTimestamp?: boolean, rampUp?: boolean, err?: { write(s: string): any, isTTY?: boolean }, log: any, sampler?: any }} opts
 *   sampler: the server statistics sampler, for the server's line of each period (null: none)
 * @returns {{ close(): void }|null} the progress presenter
 */
export function attachRunMessages (run, { progressS, progressTimestamp = false, rampUp = false, err = process.stderr, log, sampler = null }) {
  const progress = progressS > 0 ? attachProgress(run, { everyS: progressS, warmupLabel: rampUp ? 'ramp-up' : 'warm-up', sampler, ...(progressTimestamp ? timestamped(err) : { stream: err }) }) : null
  run.on('terminal-aborted', ({ error }) => err.write(`pgload: error: ${error.message}\n`))
  run.on('retryable-error', ({ terminalId, error, tries, maxTries, willRetry }) => {
    const where = error.commandIndex === undefined ? '' : ` in command ${error.commandIndex} (SQL) of script ${error.scriptIndex ?? 0}`
    err.write(`pgload: client ${terminalId} got an error${where}; ${formatServerError(error)}\n`)
    err.write(`pgload: client ${terminalId} ${willRetry ? 'repeats the transaction after the error' : 'ends the failed transaction'} (try ${tries}/${maxTries || 'unlimited'})\n`)
  })
  run.on('transaction-error', ({ terminalId, message }) => log.warn(`client ${terminalId}: ${message.split('\n')[0]}`))
  // as libpq's default notice processor: the server's text on stderr
  run.on('notice', (n) => err.write(`${formatServerError(n)}\n`))
  run.on('prepare-error', ({ error }) => err.write(`pgload: error: ${formatServerError(error)}\n`))
  let reported = false
  run.on('connection-error', ({ error }) => {
    if (!reported) err.write(`pgload: cannot reconnect to the server (${error.message.split('\n')[0]}); retrying for up to ${run.settings.serverLostUs / 1e6} s (--reconnect-window)\n`)
    reported = true
  })
  run.on('reconnected', ({ failedForMs }) => {
    // said once per outage: the first connection back after the line above
    if (reported) err.write(`pgload: reconnected to the server after ${(failedForMs / 1000).toFixed(1)} s\n`)
    reported = false
  })
  run.on('internal-error', (e) => err.write(`pgload: internal error: ${e.stack}\n`))
  run.on('cancelled', ({ reason, count, graceS }) => {
    if (reason === 'grace') err.write(`pgload: ${plural(count, 'transaction')} still running ${graceS} s after the end: cancelled\n`)
  })
  return progress
}

/**
 * What `pgload run` prints on stdout: the results document (--json), or the summary, the
 * server statistics and the --threshold verdicts.
 * @param {any} results
 * @param {{ json?: boolean }} [opts]
 * @returns {string}
 */
export function formatRunOutput (results, { json = false } = {}) {
  if (json) return JSON.stringify(results, null, 1) + '\n'
  let text = formatSummary(results)
  const server = formatServerStatsSummary(results.serverStats, results.run)
  if (server) text += '\n' + server + '\n'
  const pooler = formatPoolerSummary(results.pooler)
  if (pooler) text += (server ? '' : '\n') + pooler + '\n'
  const waits = formatWaitsSummary(results.waits, results)
  if (waits) text += (server || pooler ? '' : '\n') + waits + '\n'
  const slowest = formatSlowestSummary(results.slowest)
  if (slowest) text += (server || pooler || waits ? '' : '\n') + slowest + '\n'
  const thresholds = results.thresholds ?? []
  for (const t of thresholds) {
    text += `${t.pass ? '✓' : '✗'} ${t.expr}: ${t.actual === null ? 'no data' : thresholdActual(t)}${t.reason ? ` (${t.reason})` : ''}\n`
  }
  // the one line that says how they went (a failure is not said again on stderr)
  if (thresholds.length) text += `${thresholdTally(thresholds)}\n`
  return text
}

/** The stream for attachProgress, with the elapsed time replaced by Unix time (pgbench --progress-timestamp). */
function timestamped (err) {
  const stream = {
    isTTY: Boolean(err.isTTY),
    write: (s) => err.write(s.replace(/progress: [\d.]+ s/, `progress: ${(Date.now() / 1000).toFixed(3)} s`))
  }
  return { stream, isTTY: stream.isTTY }
}
