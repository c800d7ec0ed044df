// The results document of a scenario run: each scenario's own document reduced to its section
// under `scenarios.NAME`, and the run's `summary`, `transactions` and `intervals` the totals over
// all of them, added with the code that merges the partitions of one run (lib/results/merge-*):
// counters summed and histograms merged, so the scenarios add up to the totals exactly.

import { mergeTransactions, mergeSummary } from '../results/merge-totals.js'
import { mergeIntervals, measuredStartMs } from '../results/merge-series.js'
import { round3 } from '../format/round.js'

/** The type names of the totals: every type under its scenario's name, `checkout/tpcb-like`. */
export const typeInScenario = (scenario, type) => `${scenario}/${type}`

/**
 * @param {{ seed: string, durationS: number, warmupS: number, intervalS: number, file: string, command?: string, label?: string }} run
 *   the scenario run's own plan
 * @param {{ scenario: import('./scenario-plans.js').ScenarioPlan, results: any }[]} measured each scenario's document, in the file's order
 * @returns {any} the results document
 */
export function scenarioResults (run, measured) {
  const named = measured.map(({ scenario, results }) => withScenarioTypes(results, scenario.name))
  const intervals = mergeIntervals(named, run.intervalS)
  const durationS = intervals.length ? intervals[intervals.length - 1].t : run.durationS
  const typeOrder = named.flatMap((d) => d.run.transactionTypes ?? Object.keys(d.transactions))
  const first = measured[0].results
  const runs = measured.map((m) => m.results.run)
  const startMs = Math.min(...measured.map((m) => measuredStartMs(m.results) ?? Infinity))
  const doc = {
    schemaVersion: first.schemaVersion,
    tool: first.tool,
    run: {
      ...first.run,
      workload: 'scenarios',
      label: run.label ?? null,
      command: run.command ?? null,
      options: { scenarios: run.file, durationS: run.durationS, warmupS: run.warmupS, intervalS: run.intervalS, seed: run.seed },
      seed: run.seed,
      startTime: earliest(runs.map((r) => r.startTime)),
      endTime: latest(runs.map((r) => r.endTime)),
      durationS,
      warmupS: run.warmupS,
      clients: sum(runs, 'clients'),
      terminals: sum(runs, 'terminals'),
      connections: sum(runs, 'connections'),
      paced: runs.some((r) => r.paced),
      scale: null,
      rate: null,
      transactionTypes: [...new Set(typeOrder)],
      weights: Object.fromEntries(named.flatMap((d) => Object.entries(d.run.weights ?? {}))),
      aborted: runs.some((r) => r.aborted),
      abortedClients: sum(runs, 'abortedClients'),
      abortReason: runs.find((r) => r.abortReason)?.abortReason ?? null,
      interrupted: runs.some((r) => r.interrupted)
    },
    server: first.server,
    host: first.host,
    client: processClient(measured.map((m) => m.results)),
    summary: mergeSummary(named, { durationS, intervals, stepS: run.intervalS }),
    transactions: mergeTransactions(named, durationS, typeOrder),
    intervals,
    // the settings and table sizes when the first scenario started (no statistics are sampled)
    ...(first.serverStats ? { serverStats: first.serverStats } : {}),
    scenarios: Object.fromEntries(measured.map((m) => [m.scenario.name, scenarioSection(m, startMs)]))
  }
  delete doc.run.cancelled
  return doc
}

/**
 * One scenario's section: its own figures, types unprefixed, in the shapes of the run's, and its
 * window on the run's measured clock (its planned start, and its end from its measured duration).
 */
function scenarioSection ({ scenario, results }, runStartMs) {
  const section = {
    workload: results.run.workload,
    startS: scenario.startS,
    endS: round3(scenario.startS + results.run.durationS),
    tags: scenario.tags,
    options: results.run.options,
    clients: results.run.clients,
    connections: results.run.connections,
    summary: results.summary,
    transactions: results.transactions,
    intervals: results.intervals
  }
  // where its measured window really opened: the planned start plus the time to reach the server
  const openedMs = measuredStartMs(results)
  if (openedMs !== null && Number.isFinite(runStartMs)) section.openedS = round3((openedMs - runStartMs) / 1000)
  if (results.stages) section.stages = results.stages
  // where its transactions spent their time on the server (--wait-sampling): each scenario samples its own backends
  if (results.waits) section.waits = results.waits
  return section
}

/** A scenario's document with its types named in the scenario: the totals keep them apart. */
function withScenarioTypes (doc, name) {
  const rename = (map) => map && Object.fromEntries(Object.entries(map).map(([type, v]) => [typeInScenario(name, type), v]))
  return {
    ...doc,
    run: {
      ...doc.run,
      transactionTypes: (doc.run.transactionTypes ?? []).map((t) => typeInScenario(name, t)),
      weights: rename(doc.run.weights)
    },
    transactions: rename(doc.transactions),
    intervals: doc.intervals.map((iv) => ({ ...iv, count: rename(iv.count), histograms: rename(iv.histograms) }))
  }
}

/**
 * pgload's own cost: the process's, read over the longest scenario's window (every scenario's
 * reading covers the whole process); per transaction it would divide by one scenario's count only.
 */
function processClient (docs) {
  const longest = docs.reduce((a, d) => (d.run.durationS > a.run.durationS ? d : a), docs[0])
  if (!longest.client) return undefined
  const client = { ...longest.client }
  for (const k of ['cpuUsPerTxn', 'userUsPerTxn', 'systemUsPerTxn', 'cpuWaitUsPerTxn']) if (k in client) client[k] = null
  return client
}

const sum = (list, key) => list.reduce((a, r) => a + (r[key] ?? 0), 0)
const earliest = (times) => times.filter(Boolean).sort()[0] ?? null
const latest = (times) => times.filter(Boolean).sort().at(-1) ?? null
