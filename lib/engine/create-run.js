// The one way to make a run: the plain Run on this thread's event loop for one job, worker
// threads (-j N) otherwise; both have the same events, methods and outcome.

import { Run } from './run.js'
import { ThreadedRun } from './threaded-run.js'

/**
 * @param {object} workload
 * @param {import('../plan/engine-settings.js').EngineSettings} settings engineSettings(plan, workload, part)
 * @param {import('./run.js').RunRuntime} runtime
 * @param {{ jobs?: number, source?: import('./threaded-run.js').PartSource, answerMs?: number, stallMs?: number }} [threads]
 *   source: how each worker rebuilds the workload (planSource for a plan); answerMs, stallMs:
 *   how long a worker may be silent (ThreadedRun)
 * @returns {import('./run-handle.js').RunHandle}
 */
export function createRun (workload, settings, runtime, { jobs = 1, source, ...waits } = {}) {
  jobs = threadsFor(workload, settings, jobs)
  if (jobs <= 1) return new Run(workload, settings, runtime)
  if (!source) throw new TypeError('worker threads need the source of the workload')
  return new ThreadedRun(workload, settings, runtime, { ...waits, jobs, source })
}

/**
 * The threads a run gets: as pgbench, no more than its terminals (`-c 1 -j 2` runs one thread);
 * a workload whose terminals go in groups (TPC-C's warehouses) refuses more threads than groups
 * (ThreadedRun), as its own option, not pgbench's, says how many there are.
 * @param {object} workload @param {import('../plan/engine-settings.js').EngineSettings} settings @param {number} jobs
 */
function threadsFor (workload, settings, jobs) {
  if ((workload.terminalGroup ?? 1) > 1) return jobs
  return Math.min(jobs, Math.max(1, settings.range.count))
}
