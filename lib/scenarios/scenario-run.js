// Running a scenario file: every scenario is a run of its own (measureBenchmark with its plan: its
// workload, connections and seed), started at its offset and stopped at its window's end, all on
// this thread. ScenarioRuns is the handle the run session holds: a signal stops or aborts them all.

import { EventEmitter } from 'node:events'
import { measureBenchmark } from '../benchmark.js'
import { ensureWritable, defaultResultsPath } from '../results/write.js'
import { PLAN_VERSION } from '../plan/resolve.js'
import { scenarioResults } from './scenario-results.js'
import { openScenarioServer } from './scenario-server.js'

/**
 * @typedef {object} ScenarioRunPlan
 * @property {number} planVersion PLAN_VERSION: the run session takes it as resolved
 * @property {string} file
 * @property {number} durationS
 * @property {number} warmupS
 * @property {number} intervalS
 * @property {string} seed
 * @property {import('./scenario-plans.js').ScenarioPlan[]} scenarios
 * @property {string} [url] the run's server: its shards' barrier and its statistics
 * @property {number} [jobs] -j as given (each scenario's plan has its own)
 * @property {import('../plan/shard.js').ShardPlan|null} [shard] this process runs one shard of the run
 * @property {boolean} [serverStats] sample the server's statistics over the run (default on)
 * @property {boolean} [serverHostStats]
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
  const server = await openScenarioServer(plan, { log, env, onPhase, stopped: () => handle.status.state !== 'running' })
  try {
    // the run's sampler for the live outputs (the dashboard's server charts, /metrics)
    onRun?.(handle, { sampler: server.sampler, types: [] })
    // stopped before the shards' start: the scenarios waiting at it go on to stop
    handle.once('stopping', () => server.giveUpStart())
    onPhase('scenarios', { count: plan.scenarios.length })
    const hooks = { log, env, server }
    const settled = await Promise.allSettled(plan.scenarios.map((s) => runScenario(s, handle, hooks)))
    const failed = settled.find((r) => r.status === 'rejected')
    // one scenario that could not run ends the others: the run is not what the file asked for
    if (failed) throw failed.reason
    const measured = settled.map((r, i) => ({ scenario: plan.scenarios[i], ...r.value }))
    const results = scenarioResults(plan, measured)
    // -j as given; each scenario's threads are in its options
    results.run.options.jobs = plan.jobs ?? 1
    const s = results.summary
    const sampled = await server.finish({ transactions: s.transactions + (s.failed ?? 0), durationS: results.run.durationS, backendPids: measured.flatMap((m) => m.backendPids ?? []) })
    addRunServerStats(results, plan, sampled)
    markRunShard(results, plan, measured)
    const exitCode = measured.some((m) => m.exitCode !== 0) ? 2 : 0
    return { results, file, exitCode, run: handle }
  } finally {
    await server.close()
  }
}

/**
 * The run's server statistics: the one sampler's figures beside the settings and table sizes
 * recorded when the first scenario started; a shard other than 0 says where they are.
 */
function addRunServerStats (results, plan, sampled) {
  const snapshot = results.serverStats ?? {}
  const missing = [...(sampled?.missing ?? []), ...(snapshot.missing ?? [])]
  if (plan.shard && plan.shard.index !== 0 && plan.serverStats !== false) missing.push(`server statistics: sampled by shard 0/${plan.shard.count} of the run only`)
  if (!sampled && !results.serverStats) return
  results.serverStats = { ...(sampled ?? {}), settings: snapshot.settings, tableSizes: snapshot.tableSizes, missing }
}

/**
 * A shard's mark on the run (`run.shard`): the run's, with its server statistics sampled by shard 0,
 * and started as late as its earliest scenario (the merge aligns the shards on it).
 */
function markRunShard (results, plan, measured) {
  if (!plan.shard) return
  const marks = measured.map((m) => m.results.run.shard).filter(Boolean)
  const late = marks.map((m) => m.startedLateMs).filter((v) => typeof v === 'number')
  results.run.shard = { ...marks[0], serverStats: plan.serverStats !== false && plan.shard.index === 0, startedLateMs: late.length ? Math.min(...late) : null }
}

/** One scenario: wait for its start, run it, stop it at its window's end. */
async function runScenario (s, handle, { log, env, server }) {
  if (s.launchS > 0) {
    await server.started
    await handle.wait(s.launchS * 1000)
  }
  try {
    return await measureBenchmark(s.plan, {
      log,
      env,
      shardMet: server.shardMet(s),
      onRun: (run, extras) => {
        server.follow(run)
        handle.add(run, s.plan.durationS === undefined || s.plan.transactionsPerClient !== undefined ? s.durationS : null)
        handle.emit('scenario', { name: s.name, run, types: extras?.types ?? [] })
      }
    })
  } catch (err) {
    handle.stop('aborted')
    server.giveUpStart()
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
    const first = !this.#stop
    if (!this.#stop || how === 'abort') this.#stop = { how, reason }
    if (first) this.emit('stopping')
    for (const entry of this.#waits) { clearTimeout(entry.timer); entry.resolve() }
    this.#waits.clear()
    for (const run of this.#runs) run[how](reason)
  }
}
