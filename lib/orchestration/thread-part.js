// A worker thread's part of a run plan: the source the main thread hands to ThreadedRun
// (planSource), and what each worker builds from it (buildPart): the workload, rebuilt from the
// plan (workloads hold functions, which do not cross threads; the plan is plain data) by the
// workload module's createWorkload on a connection of the thread's own, and the run's connections
// as the main thread would open them. It sits above the engine: the engine never imports a
// workload, and gets this module only as the URL in the source.

import { loadWorkload } from '../../workloads/index.js'
import { openConnection } from '../db/connection.js'
import { runConnectionOpener, routeOpeners } from './run-connections.js'
import { runSeeds, workloadOptionsOf } from '../plan/workload-options.js'

const THREAD_PART = import.meta.url

/**
 * Workers rebuild a plan's workload (buildPart below) on the same server.
 * @param {{ plan: object, target: any, serverVersionNum: number, seed: bigint }} p
 * @returns {import('../engine/threaded-run.js').PartSource}
 */
export function planSource ({ plan, target, serverVersionNum, seed }) {
  return { module: THREAD_PART, data: { plan, target: sendableTarget(target), serverVersionNum, seed } }
}

/**
 * The target as data: TLS's verify-ca turns off the host name check with a function, which does
 * not cross threads; the worker puts it back (receivedTarget).
 * @param {any} target
 */
function sendableTarget (target) {
  const ssl = target.config?.ssl
  if (!ssl || typeof ssl.checkServerIdentity !== 'function') return target
  const { checkServerIdentity, ...rest } = ssl
  return { ...target, config: { ...target.config, ssl: { ...rest, skipIdentityCheck: true } } }
}

/**
 * @param {{ plan: import('../plan/resolve.js').RunPlan, target: any, serverVersionNum: number, seed: bigint }} data
 * @param {{ thread: number, log: any }} ctx
 * @returns {Promise<{ workload: object, openConnection: () => Promise<any>, routeOpeners: (() => Promise<any>)[], seeds: object }>}
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
  return {
    workload,
    openConnection: runConnectionOpener(plan, target),
    routeOpeners: routeOpeners(plan),
    // the generators do not cross threads: derived here as on the main thread
    seeds
  }
}

/** The target as the main thread has it (see sendableTarget). @param {any} sent */
function receivedTarget (sent) {
  const ssl = sent.config?.ssl
  if (!ssl?.skipIdentityCheck) return sent
  const { skipIdentityCheck, ...rest } = ssl
  return { ...sent, config: { ...sent.config, ssl: { ...rest, checkServerIdentity: () => undefined } } }
}
