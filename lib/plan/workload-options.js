// What a workload module's createWorkload gets from the plan, in one place: the main thread and
// each worker thread (which rebuilds the workload from the plan) build it alike.

import { deriveSeeds } from '../random/seeding.js'

/**
 * The run's generators from its seed, in pgbench's order, for the plan's clients.
 * @param {import('./resolve.js').RunPlan} plan
 * @param {bigint} seed
 */
export function runSeeds (plan, seed) {
  return deriveSeeds(seed, plan.clients, { drawDefaultSeed: !Object.hasOwn(plan.workloadOptions.define ?? {}, 'default_seed') })
}

/**
 * What the workload module's createWorkload gets: its own options, and what the run decides.
 * @param {import('./resolve.js').RunPlan} plan
 * @param {{ seed: bigint, seeds: ReturnType<typeof deriveSeeds>, serverVersionNum: number, thread?: number, coordinator?: boolean }} run
 *   thread: a worker thread's index (its pgbench log file gets the thread's suffix, as pgbench's);
 *   coordinator: the main thread of a threaded run, whose workload runs no terminal (no log file)
 */
export function workloadOptionsOf (plan, { seed, seeds, serverVersionNum, thread, coordinator = false }) {
  return {
    ...plan.workloadOptions,
    scripts: plan.scripts,
    protocol: plan.protocol,
    clients: plan.clients,
    rate: plan.rate,
    latencyLimitMs: plan.latencyLimitMs,
    maxTries: plan.maxTries,
    failuresDetailed: plan.failuresDetailed,
    randomSeed: seed,
    defaultSeed: seeds.defaultSeed,
    seeds,
    serverVersionNum,
    // --failover: workloads that can keep what identifies each acknowledged commit do (the RPO check lists the missing)
    ...(plan.failover ? { recordCommits: true } : {}),
    ...(thread ? { thread } : {}),
    ...(coordinator ? { log: false } : {})
  }
}
