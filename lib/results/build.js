// Assemble the results document (docs/architecture.md, "Results document") from a finished run.

import { SCHEMA_VERSION } from './read.js'
import { timeToSteadyState, throughputSeries } from '../metrics/steady-state.js'

const SECRET_KEYS = /pass(word)?|secret|token/i

/**
 * Options as recorded: no secrets, no functions, no undefined values.
 * @param {Record<string, any>} options
 */
export function recordedOptions (options) {
  const out = {}
  for (const [k, v] of Object.entries(options)) {
    if (v === undefined || typeof v === 'function' || SECRET_KEYS.test(k)) continue
    if (k === 'scripts' && Array.isArray(v)) {
      out.scripts = v.map((s) => ({ kind: s.kind, name: s.name, weight: s.weight }))
      continue
    }
    out[k] = v
  }
  return out
}

/**
 * The summary figures that come from the interval series (time to steady state); the merge of
 * partitions re-derives them with this same function.
 * @param {any[]} intervals results `intervals[]`
 * @param {number} [intervalS] the run's interval length
 */
export function seriesFigures (intervals, intervalS) {
  return { steadyState: timeToSteadyState(throughputSeries(intervals, intervalS ?? 1)) }
}

/**
 * @param {object} p
 * @param {string} p.toolVersion
 * @param {Record<string, any>} p.options
 * @param {string} p.workloadName
 * @param {any} p.workload
 * @param {{ display: string }} p.target
 * @param {boolean} p.embedded
 * @param {{ version: string, num: number }} p.serverVersion
 * @param {object} p.host
 * @param {any} p.outcome what Run#execute returned
 * @param {object|null} p.serverStats
 * @param {Record<string, any>|null} p.extra the workload's afterRun figures, keyed by section
 */
export function buildResults ({ toolVersion, options, workloadName, workload, target, embedded, serverVersion, host, outcome, serverStats, extra }) {
  const doc = {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: 'pgload', version: toolVersion, node: process.version },
    run: {
      workload: workloadName,
      label: options.label ?? null,
      command: options.command ?? null,
      options: recordedOptions(options),
      seed: options.seed,
      startTime: outcome.startTime,
      endTime: outcome.endTime,
      durationS: outcome.durationS,
      warmupS: options.warmupS ?? 0,
      clients: outcome.terminals,
      terminals: outcome.terminals,
      connections: outcome.connections,
      // worker threads (-j), each with its own event loop
      threads: outcome.threads ?? 1,
      protocol: options.protocol,
      paced: outcome.paced,
      scale: workload.scale ?? options.workloadOptions?.scale ?? null,
      rate: options.rate ?? null,
      transactionTypes: workload.transactions.map((t) => t.name),
      weights: Object.fromEntries(workload.transactions.map((t) => [t.name, t.weight ?? 1])),
      aborted: outcome.aborted,
      abortedClients: outcome.abortedClients,
      abortReason: outcome.abortReason,
      interrupted: outcome.interrupted,
      // transactions cancelled: the grace after the run's end was over, Ctrl-C twice, --transaction-timeout
      cancelled: outcome.cancelled ?? null
    },
    server: {
      version: serverVersion.version,
      versionNum: serverVersion.num,
      embedded,
      target: target.display
    },
    host,
    client: outcome.client,
    summary: { ...outcome.summary, ...seriesFigures(outcome.intervals, options.intervalS) },
    transactions: outcome.transactions,
    intervals: outcome.intervals
  }
  // --stages, --clients-stages: each stage a window of the run (docs/results-format.md, "stages[]")
  if (outcome.stages) doc.stages = outcome.stages
  if (serverStats) doc.serverStats = serverStats
  // --staleness (lib/engine/staleness.js)
  if (outcome.staleness) doc.staleness = outcome.staleness
  if (extra && typeof extra === 'object') {
    // afterRun returns its sections keyed ({ script: ... }) or its own figures (under the workload's name)
    if (extra[workloadName] !== undefined || extra.script !== undefined) Object.assign(doc, extra)
    else doc[workloadName] = extra
  }
  return doc
}
