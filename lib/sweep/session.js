// One sitting of a sweep: the server held up for all its runs (the embedded one is started once,
// not per run), each run through runBenchmark with its usual messages kept short, and a line on
// stderr before and after each run.

import { join } from 'node:path'
import { SweepRunner } from './runner.js'
import { prepareRun as realPrepareRun } from './prepare.js'
import { runPlan } from './spec.js'
import { sizeAxis } from './axes.js'
import { startLine, doneLine } from './format.js'
import { progressOutput } from '../output/run-outputs.js'
import { resolveTarget } from '../server/target/resolve-target.js'
import { givenOrEmbedded } from '../server/target/given-or-embedded.js'
import { silentLogger } from '../log.js'

/**
 * Run what is missing of a sweep.
 * @param {{ spec: import('./spec.js').SweepSpec, dir: string, doc: Record<string, any> }} sweep
 * @param {{ loadSize: (size: number, opts: { signal: AbortSignal }) => Promise<any>, log?: any,
 *   env?: Record<string, string|undefined>, err?: { write(s: string): any, isTTY?: boolean },
 *   onRunner?: (runner: SweepRunner) => void, prepareRun?: Function,
 *   runBenchmark: (plan: any, hooks: { log?: any, env?: any, onRun?: Function, outputs: import('../session/output.js').Output[] }) => Promise<any>,
 *   live?: { event(name: string, info: any, plan?: any): void, runOutput(): import('../session/output.js').Output }|null }} opts
 *   loadSize: load the workload's tables at a size; onRunner: told the runner (to interrupt it);
 *   runBenchmark: one run with these outputs (the command's session's run);
 *   live: the sweep's dashboard and metrics (lib/live/sweep-live.js), told the runner's events and each run
 * @returns {Promise<{ interrupted: boolean, ran: number, error: Error|null }>} error: a run that
 *   could not be run at all stopped the sweep (the document records it)
 */
export async function runSweep ({ spec, dir, doc }, { loadSize, log = silentLogger, env = process.env, err, onRunner, runBenchmark, prepareRun = realPrepareRun, live = null }) {
  if (doc.runs.every((r) => r.status === 'done')) return { interrupted: false, ran: 0, error: null }
  const server = await holdServer(spec.common.url, { env, log, err })
  const axis = sizeAxis(spec.workload)
  let refusedSaid = false
  const plans = new Map()
  const runner = new SweepRunner({
    dir,
    doc,
    plannedS: spec.plannedS,
    log,
    env,
    loadSize,
    planFor: async (run) => {
      const plan = await runPlan(spec, run.cell, { out: join(dir, run.file), label: doc.label })
      plans.set(run.order, plan)
      return plan
    },
    prepareRun: (plan) => prepareRun(plan, { env, log }),
    runBenchmark: (plan, hooks) => quietRun(runBenchmark, plan, hooks, { err, log, live }),
    onEvent (name, info) {
      live?.event(name, info, info.run ? plans.get(info.run.order) : undefined)
      if (name === 'load') err.write(`pgload sweep: loading ${axis} ${info.size} for its ${info.runs} run${info.runs === 1 ? '' : 's'}\n`)
      if (name === 'start') err.write(startLine(info, plans.get(info.run.order), axis))
      if (name === 'done') err.write(doneLine(info))
      if (name === 'checkpoint-refused' && !refusedSaid) {
        refusedSaid = true
        err.write(`pgload sweep: warning: CHECKPOINT before each run refused (${info.message}): a run may begin during a checkpoint\n`)
      }
    }
  })
  onRunner?.(runner)
  try {
    const { interrupted, ran } = await runner.run()
    return { interrupted, ran, error: null }
  } catch (error) {
    return { interrupted: runner.interrupted, ran: 0, error }
  } finally {
    await server?.stop().catch(() => {})
  }
}

/**
 * The embedded server, when the sweep uses it: started once for all the runs (each run would
 * otherwise start and stop it, and every run would begin cold), stopped at the end if this
 * sweep started it.
 */
async function holdServer (url, { env, log, err }) {
  const { embedded: server } = await givenOrEmbedded(resolveTarget({ url, env }), { env, log })
  if (!server) return null
  err.write(`pgload sweep: ${server.reused ? 'using' : 'started'} the embedded PostgreSQL at ${server.target.display}\n`)
  return server
}

/** One run with its warnings and --progress lines (and the live view), without its set-up chatter. */
function quietRun (runBenchmark, plan, hooks, { err, log, live }) {
  const outputs = [progressOutput(plan, { err, log, phases: false })]
  if (live) outputs.push(live.runOutput())
  return runBenchmark(plan, { ...hooks, outputs })
}
