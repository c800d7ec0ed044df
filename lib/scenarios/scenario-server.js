// What a scenario run does once for the whole run, on the run's own server: the shards' start
// barrier (every scenario of a shard then starts from the common start, at its offset), and one
// server statistics sampler over the run's window, not one per scenario.

import { openConnection } from '../db/connection.js'
import { connectTarget } from '../server/target/connect-target.js'
import { ShardBarrier } from '../shard/barrier.js'
import { derivedRunId } from '../plan/shard.js'
import { loadWorkload } from '../../workloads/index.js'
import { startSampler } from '../benchmark.js'

/**
 * @typedef {object} ScenarioServer
 * @property {(s: import('./scenario-plans.js').ScenarioPlan) => any} shardMet a scenario's part in the
 *   shards' start (measureBenchmark's `shardMet`): the start gate of the scenarios that start with
 *   the run, the common start for the later ones; undefined unsharded
 * @property {Promise<void>} started resolves at the shards' common start (at once unsharded)
 * @property {() => void} giveUpStart a scenario failed: no shard start is waited for any more
 * @property {any} sampler the run's server statistics sampler, null without one
 * @property {(run: import('node:events').EventEmitter) => void} follow a scenario's run: the first
 *   measured window opened starts the sampling
 * @property {(runInfo: { transactions: number, durationS: number, backendPids: number[] }) => Promise<object|null>} finish
 *   the sampled statistics (null without a sampler)
 * @property {() => Promise<void>} close
 */

/**
 * Connect to the run's server, meet the other shards, start the sampler.
 * @param {import('./scenario-run.js').ScenarioRunPlan} plan
 * @param {{ log: any, env: Record<string, string|undefined>, onPhase: (phase: string, info?: any) => void, stopped: () => boolean }} opts
 * @returns {Promise<ScenarioServer>}
 */
export async function openScenarioServer (plan, { log, env, onPhase, stopped }) {
  const session = await connectTarget({ url: plan.url, env, log })
  const { target } = session
  let sampler = null
  let timer = null
  try {
    const shards = plan.shard ? await shardStart(plan, { target, log, onPhase, stopped }) : null
    if (plan.serverStats && (!plan.shard || plan.shard.index === 0)) {
      const tables = await scenarioTables(plan)
      sampler = await startSampler(target, { tables }, { embedded: session.embedded, env, log, hostStats: plan.serverHostStats ?? session.embedded })
    }
    return {
      shardMet: (sc) => shards ? (sc.launchS === 0 ? shards.gate : shards.gate.met) : undefined,
      started: shards ? shards.started : Promise.resolve(),
      giveUpStart: () => shards?.giveUp(),
      sampler,
      follow (run) {
        if (!sampler) return
        run.once('measuring', () => {
          if (timer) return
          let tick = 0
          sampler.resetBaseline()
          // the run-wide tick: the scenarios' own ticks start and stop with each of them
          timer = setInterval(() => { sampler.sample(++tick * plan.intervalS) }, plan.intervalS * 1000)
          timer.unref()
        })
      },
      async finish (runInfo) {
        clearInterval(timer)
        if (!sampler) return null
        const stats = await sampler.finish(runInfo)
        sampler = null
        return stats
      },
      async close () {
        clearInterval(timer)
        await shards?.giveUp()
        sampler?.abandon()
        await session.release()
      }
    }
  } catch (err) {
    sampler?.abandon()
    await session.release()
    throw err
  }
}

/**
 * The shards' one start: the barrier connected now; the scenarios that start with the run pass
 * the gate once all of them are set up (connections open), and the shards meet there, so that
 * the set-up of no shard delays the start; later scenarios start from it at their offsets.
 */
async function shardStart (plan, { target, log, onPhase, stopped }) {
  const barrier = new ShardBarrier({ openConnection: (o) => openConnection(target, o), shard: plan.shard, fingerprint: scenarioFingerprint(plan), log })
  try {
    await barrier.connect()
  } catch (err) {
    await barrier.close()
    throw err
  }
  let done
  const started = new Promise((resolve) => { done = resolve })
  let expected = plan.scenarios.filter((s) => s.launchS === 0).length
  let meeting = null
  const meet = () => {
    meeting ??= (async () => {
      onPhase('shard-waiting', { shard: plan.shard, clock: barrier.clock })
      try {
        const start = await barrier.meet({ stopped })
        gate.met.start = gate.start = start
        if (start) onPhase('shard-started', { shard: plan.shard, start })
      } finally {
        await barrier.close()
        done()
      }
    })()
    return meeting
  }
  // the engine's start gate of the scenarios that start with the run: the last one set up meets the shards
  const gate = async () => {
    if (--expected <= 0) meet()
    await started
  }
  gate.clock = barrier.clock
  gate.start = null
  /** the common start, for the scenarios that start later: no gate of their own */
  gate.met = { start: null, clock: barrier.clock }
  if (expected === 0) meet()
  return {
    gate,
    started,
    async giveUp () {
      if (meeting) return meeting
      await barrier.close()
      done()
    }
  }
}

/** What the shards run, for the barrier: shards of one run id that run different files are refused. */
function scenarioFingerprint (plan) {
  const scenarios = plan.scenarios.map((s) => ({ name: s.name, startS: s.startS, durationS: s.durationS, workload: s.plan.workload, clients: s.plan.clients, rate: s.plan.rate }))
  return derivedRunId({ durationS: plan.durationS, warmupS: plan.warmupS, seed: plan.seed, seedGiven: true, scenarios }, plan.shard.count)
}

/** The tables of every scenario's workload, each once: the sampler follows them all. */
async function scenarioTables (plan) {
  const byName = new Map()
  for (const name of new Set(plan.scenarios.map((s) => s.plan.workload))) {
    for (const t of (await loadWorkload(name)).tables ?? []) byName.set(typeof t === 'string' ? t : JSON.stringify(t), t)
  }
  return [...byName.values()]
}
