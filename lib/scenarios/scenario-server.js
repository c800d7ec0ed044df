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
 * @property {{ start: import('../shard/barrier.js').ShardStart|null, clock: any }|null} shardMet
 *   the shards' common start (null start: stopped before it), null unsharded
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
    const shardMet = plan.shard ? await meetShards(plan, { target, log, onPhase, stopped }) : null
    if (plan.serverStats && (!plan.shard || plan.shard.index === 0)) {
      const tables = await scenarioTables(plan)
      sampler = await startSampler(target, { tables }, { embedded: session.embedded, env, log, hostStats: plan.serverHostStats ?? session.embedded })
    }
    return {
      shardMet,
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

/** The shards' start: every shard's scenario run waits here, then all start together. */
async function meetShards (plan, { target, log, onPhase, stopped }) {
  const barrier = new ShardBarrier({ openConnection: (o) => openConnection(target, o), shard: plan.shard, fingerprint: scenarioFingerprint(plan), log })
  try {
    const clock = await barrier.connect()
    onPhase('shard-waiting', { shard: plan.shard, clock })
    const start = await barrier.meet({ stopped })
    if (start) onPhase('shard-started', { shard: plan.shard, start })
    return { start, clock }
  } finally {
    await barrier.close()
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
