// Runs for unit tests, made as runBenchmark makes them: options with the plan's names (defaults
// from lib/plan/defaults.js for the rest) turned into EngineSettings, and the runtime apart.

import { DEFAULTS } from '../../../lib/plan/defaults.js'
import { engineSettings } from '../../../lib/plan/engine-settings.js'
import { Run } from '../../../lib/engine/run.js'
import { createRun } from '../../../lib/engine/create-run.js'

const RUNTIME = ['openConnection', 'routeOpeners', 'seed', 'seeds', 'part', 'startGate', 'log', 'nowUs']

/**
 * @param {object} workload
 * @param {Record<string, any>} opts plan names (clients, durationS, graceS, ...), `terminalRange`
 *   for a part, and the runtime's (openConnection, seed, ...)
 */
export function testRunArgs (workload, opts) {
  const plan = { ...DEFAULTS }
  const runtime = {}
  let range
  for (const [k, v] of Object.entries(opts)) {
    if (RUNTIME.includes(k)) runtime[k] = v
    else if (k === 'terminalRange') range = v
    else if (k === 'thinkTime') plan.thinkTime = v?.spec ?? v
    else if (k === 'connectPerTransaction') plan.connect = v
    else plan[k] = v
  }
  if (opts.durationS !== undefined && opts.transactionsPerClient === undefined) plan.transactionsPerClient = undefined
  const settings = engineSettings(plan, workload, range ? { range, connections: opts.connections, rate: opts.rate } : undefined)
  return { settings, runtime }
}

/** A plain Run. @param {object} workload @param {Record<string, any>} opts */
export function newRun (workload, opts) {
  const { settings, runtime } = testRunArgs(workload, opts)
  return new Run(workload, settings, runtime)
}

/** createRun: one thread or worker threads. @param {object} workload @param {Record<string, any>} opts @param {any} threads */
export function newRunOn (workload, opts, threads) {
  const { settings, runtime } = testRunArgs(workload, opts)
  return createRun(workload, settings, runtime, threads)
}
