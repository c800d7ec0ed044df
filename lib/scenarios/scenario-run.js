// Running a scenario file: every scenario is a run of its own (measureBenchmark with its plan: its
// workload, connections and seed), started at its offset and stopped at its window's end, all on
// this thread. ScenarioRuns is the handle the run session holds: a signal stops or aborts them all.

import { EventEmitter } from 'node:events'
import { measureBenchmark } from '../benchmark.js'
import { ensureWritable, defaultResultsPath } from '../results/write.js'
import { PLAN_VERSION } from '../plan/resolve.js'
import { scenarioResults } from './scenario-results.js'

/**
 * @typedef {object} ScenarioRunPlan
 * @property {number} planVersion PLAN_VERSION: the run session takes it as resolved
 * @property {string} file
 * @property {number} durationS
 * @property {number} warmupS
 * @property {number} intervalS
 * @property {string} seed
 * @property {import('./scenario-plans.js').ScenarioPlan[]} scenarios
 * @property {any[]} thresholds parsed
 * @property {string} [out]
 * @property {boolean} writeFile
 * @property {string} [command]
 * @property {string} [label]
 * @property {number} progressS
 */

/**
 * The scenario run's plan, in the shape the run session reads (its results file, thresholds).
 * @param {Omit<ScenarioRunPlan, 'planVersion'|'intervalS'|'progressS'>} parts
 * @returns {ScenarioRunPlan}
 */
export function scenarioRunPlan (parts) {
  return { planVersion: PLAN_VERSION, intervalS: 1, progressS: 0, ...parts }
}

/**
 * Measure every scenario and build the run's results document, unwritten: the run session's
 * `runBenchmark` for `pgload run --scenarios`.
 * @param {ScenarioRunPlan} plan
 * @param {{ log?: any, env?: Record<string, string|undefined>, onRun?: (run: any, extras: any) => void, onPhase?: (phase: string, info?: any) => void }} [hooks]
 * @returns {Promise<{ results: any, file: string|null, exitCode: number, run: ScenarioRuns }>}
 */
export async function measureScenarios (plan, { log, env, onRun, onPhase = () => {} } = {}) {
  const file = plan.writeFile ? (plan.out ?? defaultResultsPath('scenarios')) : null
  if (file) await ensureWritable(file)
  const handle = new ScenarioRuns()
  onRun?.(handle, { sampler: null, types: [] })
  onPhase('scenarios', { count: plan.scenarios.length })
  const settled = await Promise.allSettled(plan.scenarios.map((s) => runScenario(s, handle, { log, env })))
  const failed = settled.find((r) => r.status === 'rejected')
  // one scenario that could not run ends the others: the run is not what the file asked for
  if (failed) throw failed.reason
  const measured = settled.map((r, i) => ({ scenario: plan.scenarios[i], ...r.value }))
  const results = scenarioResults(plan, measured)
  const exitCode = measured.some((m) => m.exitCode !== 0) ? 2 : 0
  return { results, file, exitCode, run: handle }
}

/** One scenario: wait for its start, run it, stop it at its window's end. */
async function runScenario (s, handle, { log, env }) {
  await handle.wait(s.launchS * 1000)
  try {
    return await measureBenchmark(s.plan, {
      log,
      env,
      onRun: (run, extras) => {
        handle.add(run, s.plan.durationS === undefined || s.plan.transactionsPerClient !== undefined ? s.durationS : null)
        handle.emit('scenario', { name: s.name, run, types: extras?.types ?? [] })
      }
    })
  } catch (err) {
    handle.stop('aborted')
    throw err
  }
}

/**
 * The scenarios' runs as one handle: stop and abort reach every one, started or still waiting.
 * Emits 'scenario' ({ name, run, types }) as each scenario's run is made, before it starts.
 */
export class ScenarioRuns extends EventEmitter {
  #runs = new Set()
  #waits = new Set()
  #stop = null

  /**
   * A scenario's run, before it starts; one bounded by transactions is also stopped after `limitS`
   * of measuring, at its window's end.
   * @param {any} run @param {number|null} limitS
   */
  add (run, limitS) {
    this.#runs.add(run)
    if (this.#stop) return run[this.#stop.how](this.#stop.reason)
    if (limitS !== null) {
      run.on('measuring', () => {
        const timer = setTimeout(() => run.stop('duration'), limitS * 1000)
        timer.unref()
        run.on('status', (st) => { if (st.state === 'finished') clearTimeout(timer) })
      })
    }
  }

  /** Resolves after `ms`, or at once when the scenarios are stopped. */
  wait (ms) {
    if (ms <= 0 || this.#stop) return Promise.resolve()
    return new Promise((resolve) => {
      const entry = { resolve, timer: setTimeout(() => { this.#waits.delete(entry); resolve() }, ms) }
      this.#waits.add(entry)
    })
  }

  /** @param {string} [reason] */
  stop (reason = 'stopped') { this.#end('stop', reason) }
  /** @param {string} [reason] */
  abort (reason = 'aborted') { this.#end('abort', reason) }

  get status () {
    const started = [...this.#runs].map((r) => r.status).find((s) => s.startUs !== undefined)
    return { state: this.#stop ? 'stopping' : 'running', startUs: started?.startUs, reason: this.#stop?.reason ?? null }
  }

  #end (how, reason) {
    if (!this.#stop || how === 'abort') this.#stop = { how, reason }
    for (const entry of this.#waits) { clearTimeout(entry.timer); entry.resolve() }
    this.#waits.clear()
    for (const run of this.#runs) run[how](reason)
  }
}
