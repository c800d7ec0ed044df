// The one way to make a run: the plain Run on this thread's event loop for one job, worker
// threads (-j N) otherwise; both have the same events, methods and outcome.

import { Run } from './run.js'
import { ThreadedRun } from './threaded-run.js'

/**
 * @param {object} workload
 * @param {import('./run.js').RunOptions} runOptions
 * @param {{ jobs?: number, source?: import('./threaded-run.js').PartSource }} [threads]
 *   source: how each worker rebuilds the workload (planSource for a plan)
 * @returns {Run|ThreadedRun}
 */
export function createRun (workload, runOptions, { jobs = 1, source } = {}) {
  jobs = threadsFor(workload, runOptions, jobs)
  if (jobs <= 1) return new Run(workload, runOptions)
  if (!source) throw new TypeError('worker threads need the source of the workload')
  return new ThreadedRun(workload, runOptions, { jobs, source })
}

/**
 * The threads a run gets: as pgbench, no more than its terminals (`-c 1 -j 2` runs one thread);
 * a workload whose terminals go in groups (TPC-C's warehouses) refuses more threads than groups
 * (ThreadedRun), as its own option, not pgbench's, says how many there are.
 * @param {object} workload @param {import('./run.js').RunOptions} runOptions @param {number} jobs
 */
function threadsFor (workload, runOptions, jobs) {
  if ((workload.terminalGroup ?? 1) > 1) return jobs
  const count = runOptions.terminalRange?.count ?? workload.terminals ?? runOptions.clients
  return Math.min(jobs, Math.max(1, count))
}
