// `pgload capacity` as a library call: one --stages run through runBenchmark whose stages the
// CapacityController adds step by step; its results document is the run's (a stage per step),
// with a `capacity` section (the steps and the answer), written once at the end.

import { writeResults } from '../results/write.js'
import { CapacityController } from './controller.js'
import { capacityAnswer } from './answer.js'

// seconds the run is given beyond its longest search; the controller stops it before
const SPARE_S = 60

/**
 * The plan input of the capacity run: the user's run options, the first rate, a length no
 * search reaches (the controller stops the run), the results file written here.
 * @param {Record<string, any>} input plan input (lib/cli/run-argv.js)
 * @param {import('./controller.js').CapacitySettings} cap
 */
export function capacityPlanInput (input, cap) {
  const perStep = cap.stepS + cap.settleS
  // one stage at the first rate, on the interval grid; each next step is a stage the controller adds
  const intervals = Math.ceil((cap.search.maxSteps * perStep + SPARE_S) / cap.intervalS)
  const lengthS = Math.round(intervals * cap.intervalS * 1e6) / 1e6
  return {
    ...input,
    // from --rate to the same rate: the first step holds its rate from the start
    stages: `${lengthS}s:${cap.search.startRate}`,
    rate: cap.search.startRate,
    durationS: undefined,
    transactionsPerClient: undefined,
    intervalS: cap.intervalS,
    warmupS: 0,
    writeFile: false
  }
}

/**
 * Run the capacity search.
 * @param {import('../plan/resolve.js').RunPlan} plan from capacityPlanInput, resolved
 * @param {import('./controller.js').CapacitySettings} cap
 * @param {{ file: string|null, session: import('../session/run-session.js').RunSession, onStep?: (step: import('./step.js').StepRecord) => void }} io
 *   session: runs it, with its outputs and its interrupt policy
 * @returns {Promise<{ results: any, file: string|null, exitCode: number, answer: import('./answer.js').CapacityAnswer }>}
 */
export async function runCapacity (plan, cap, { file, session, onStep }) {
  let controller = null
  const outcome = await session.run(plan, {
    onRun (run) {
      controller = new CapacityController(run, cap)
      if (onStep) controller.on('step', onStep)
    }
  })
  const { results } = outcome
  const steps = controller?.steps ?? []
  const stopped = controller?.done ? controller.done.reason : (results.run.interrupted ? 'interrupted before the search ended' : 'the run ended before the search did')
  const answer = capacityAnswer(steps, { stopped })
  results.capacity = {
    until: cap.until.map(t => t.expr),
    stepS: cap.stepS,
    settleS: cap.settleS,
    behindMargin: cap.behindMargin,
    search: { ...cap.search, maxRate: Number.isFinite(cap.search.maxRate) ? cap.search.maxRate : null },
    steps,
    answer
  }
  if (file) await writeResults(file, results)
  return { results, file, exitCode: outcome.exitCode, answer }
}
