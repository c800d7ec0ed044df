// One benchmark as a library call: a session of one run, with the plan's own outputs (the
// results file, --threshold), no signal handling (the caller's process is its own), closed after.

import { RunSession } from './run-session.js'

/**
 * Run one benchmark end to end and write its results document (when the plan writes one); results
 * already measured are written even when the run ends in errors or is stopped through its handle.
 * @param {import('../plan/resolve.js').RunPlan | Record<string, any>} planOrOptions a plan
 *   (lib/plan/resolve.js), or options that are resolved into one first (and checked as the command line's)
 * @param {{ log?: any, env?: Record<string, string|undefined>, onRun?: (run: import('../engine/run-handle.js').RunHandle, extras: { sampler: any, types: string[] }) => void,
 *   onPhase?: (phase: string, info?: any) => void, outputs?: import('./output.js').Output[] }} [hooks]
 *   onRun: the run handle, before it starts (subscribe to its events; stop or abort it)
 * @returns {Promise<{ results: object, file: string|null, exitCode: number, run: import('../engine/run-handle.js').RunHandle }>}
 */
export async function runBenchmark (planOrOptions, { log, env = process.env, onRun, onPhase, outputs = [] } = {}) {
  const session = new RunSession({ signals: false, log, env, outputs })
  if (onPhase) session.on('phase', onPhase)
  try {
    const { terminated, ...outcome } = await session.run(planOrOptions, { onRun })
    return outcome
  } finally {
    await session.close()
  }
}
