// A worker thread's workload, rebuilt from the run plan (workloads hold functions, which do not
// cross threads; the plan is plain data): the workload module's createWorkload on a connection of
// the thread's own, and the run's connections as the main thread would open them.

import { loadWorkload } from '../../workloads/index.js'
import { openConnection } from '../db/connection.js'
import { openLeanConnection } from '../db/lean-connection.js'
import { explainConnectError } from '../server/target/resolve-target.js'
import { runSeeds, workloadOptionsOf } from '../plan/workload-options.js'

/**
 * @param {{ plan: import('../plan/resolve.js').RunPlan, target: any, serverVersionNum: number, seed: bigint }} data
 * @param {{ thread: number, log: any }} ctx
 * @returns {Promise<{ workload: object, openConnection: () => Promise<any>, seeds: object }>}
 */
export async function buildPart ({ plan, target: sent, serverVersionNum, seed }, { thread, log }) {
  const target = receivedTarget(sent)
  const module = await loadWorkload(plan.workload)
  const conn = await openConnection(target, { protocol: 'simple' })
  let workload
  const seeds = runSeeds(plan, seed)
  try {
    const wctx = { conn, target, log, openConnection: (o) => openConnection(target, o) }
    workload = await module.createWorkload(wctx, workloadOptionsOf(plan, { seed, seeds, serverVersionNum, thread }))
  } finally {
    // closed now, while the server answers: a worker's workload reads the server only to be built
    // (the main thread's does what comes before and after the run), and a close after a stall
    // could wait for a server that no longer answers
    await conn.close().catch(() => {})
  }
  const open = plan.driver === 'pg' ? openConnection : openLeanConnection
  return {
    workload,
    async openConnection () {
      try {
        return await open(target, { protocol: plan.protocol })
      } catch (err) {
        throw explainConnectError(err, target)
      }
    },
    // the generators do not cross threads: derived here as on the main thread
    seeds
  }
}

/** The target as the main thread has it (see sendableTarget in create-run.js). @param {any} sent */
function receivedTarget (sent) {
  const ssl = sent.config?.ssl
  if (!ssl?.skipIdentityCheck) return sent
  const { skipIdentityCheck, ...rest } = ssl
  return { ...sent, config: { ...sent.config, ssl: { ...rest, checkServerIdentity: () => undefined } } }
}
