// What a run does differently as one shard of a run (lib/benchmark.js calls these): its part of
// the terminals, connections and rate, the start barrier shared with the other shards, the
// shard's mark in its results, and server statistics sampled by the coordinator alone.

import { performance } from 'node:perf_hooks'
import { wholeRange, splitRange, checkParts, shareOf, rateShare } from '../plan/partition.js'
import { ShardBarrier } from '../shard/barrier.js'
import { derivedRunId, shardName } from '../plan/shard.js'
import { round3 } from '../format/round.js'

/**
 * A shard's part of the run, for the engine's RunOptions: its terminal range (global numbers
 * and seeds kept), its share of --connections and of --rate. Empty shards are refused in one line.
 * @param {import('../plan/resolve.js').RunPlan} plan
 * @param {{ terminals?: number, terminalGroup?: number }} workload
 * @returns {{ terminalRange: import('../plan/partition.js').TerminalRange, connections?: number, rate: number } | null}
 */
export function shardPart (plan, workload) {
  const shard = plan.shard
  if (!shard) return null
  const whole = wholeRange(workload.terminals ?? plan.clients)
  const group = workload.terminalGroup ?? 1
  checkParts(whole, shard.count, { group, what: `--shards ${shard.count}`, unit: group > 1 ? 'warehouses' : 'clients' })
  const ranges = Array.from({ length: shard.count }, (_, k) => splitRange(whole, shard.count, k, { group }))
  const terminalRange = ranges[shard.index]
  // parts are numbered over the whole run (shard by shard, then thread by thread): each draws
  // its own --rate arrivals, and terminals their own type choice and waits, as with threads
  const part = { terminalRange, rate: rateShare(plan.rate, terminalRange), part: shard.index * (plan.jobs ?? 1) }
  if (plan.connections !== undefined) part.connections = shareOf(plan.connections, ranges, shard.index)
  return part
}

/**
 * The name in a shard's default results file, so shards on one machine do not share a file:
 * `tpcb-shard-1-of-4`.
 * @param {import('../plan/resolve.js').RunPlan} plan
 */
export function shardResultName (plan) {
  return plan.shard ? `${plan.resultName}-shard-${plan.shard.index}-of-${plan.shard.count}` : plan.resultName
}

/**
 * Whether this process samples the server's statistics: always unsharded, else only shard 0
 * (they are server-wide: the merge takes them from the shard that sampled them).
 * @param {import('../plan/resolve.js').RunPlan} plan
 */
export function samplesServer (plan) {
  return plan.serverStats && (!plan.shard || plan.shard.index === 0)
}

/**
 * The start barrier of a sharded run, connected (clock offset measured); null unsharded.
 * @param {import('../plan/resolve.js').RunPlan} plan
 * @param {{ openConnection: (opts: { applicationName: string }) => Promise<any>, log?: any }} opts
 * @returns {Promise<ShardBarrier|null>}
 */
export async function openShardBarrier (plan, { openConnection, log }) {
  if (!plan.shard) return null
  const barrier = new ShardBarrier({ openConnection, shard: plan.shard, fingerprint: derivedRunId(plan, plan.shard.count), log })
  try {
    await barrier.connect()
  } catch (err) {
    await barrier.close()
    throw err
  }
  return barrier
}

/**
 * The engine's start gate: wait at the barrier, start at the common time, close the barrier.
 * `start` is filled in for the results (shardRecord).
 * @param {ShardBarrier} barrier
 * @param {(phase: string, info?: any) => void} onPhase
 */
export function shardGate (barrier, onPhase) {
  const gate = async (run) => {
    gate.clock = barrier.clock
    onPhase('shard-waiting', { shard: barrier.shard, clock: barrier.clock })
    try {
      gate.start = await barrier.meet({ stopped: () => run.status.state !== 'starting' })
    } finally {
      // not waited for: the terminals start now
      barrier.close()
    }
    if (gate.start) run.once('start', () => onPhase('shard-started', { shard: barrier.shard, start: startedAt(gate.start, run) }))
  }
  /** @type {import('../shard/barrier.js').ShardStart|null} */
  gate.start = null
  /** @type {{ offsetMs: number, rttMs: number }|null} */
  gate.clock = null
  return gate
}

/**
 * Mark a shard's results document: `run.shard`, and where its server statistics are.
 * @param {any} results the document, before it is written
 * @param {import('../plan/resolve.js').RunPlan} plan
 * @param {{ start: import('../shard/barrier.js').ShardStart|null, clock: { offsetMs: number, rttMs: number }|null }|null} gate
 * @param {import('../engine/run-handle.js').RunHandle} run when its terminals started
 */
export function markShardResults (results, plan, gate, run) {
  if (!plan.shard) return
  results.run.shard = shardRecord(plan, startedAt(gate?.start ?? null, run), gate?.clock)
  if (plan.serverStats && !samplesServer(plan) && results.serverStats) {
    results.serverStats.missing = [...(results.serverStats.missing ?? []), `server statistics: sampled by shard 0/${plan.shard.count} of the run only`]
  }
}

/**
 * The barrier's start with `startedLateMs` measured where the engine's terminals started (after
 * the barrier closed and the terminals were made), on the server's clock.
 * @param {import('../shard/barrier.js').ShardStart|null} start
 * @param {import('../engine/run-handle.js').RunHandle|null} run
 */
function startedAt (start, run) {
  const startUs = run?.status.startUs
  if (!start || !(startUs > 0)) return start
  const startedServerMs = performance.timeOrigin + startUs / 1000 + start.clockOffsetMs
  return { ...start, startedLateMs: round3(startedServerMs - start.scheduledStartMs) }
}

/**
 * The shard's mark (`run.shard`, docs/results-format.md).
 * @param {import('../plan/resolve.js').RunPlan} plan
 * @param {import('../shard/barrier.js').ShardStart|null} start null when stopped before the start
 * @param {{ offsetMs: number, rttMs: number }} [clock] the clock offset, measured in any case
 */
export function shardRecord (plan, start, clock) {
  const { index, count, runId } = plan.shard
  return {
    runId,
    index,
    count,
    serverStats: samplesServer(plan),
    clockOffsetMs: start?.clockOffsetMs ?? clock?.offsetMs ?? null,
    clockRttMs: start?.clockRttMs ?? clock?.rttMs ?? null,
    scheduledStart: start?.scheduledStart ?? null,
    startedLateMs: start?.startedLateMs ?? null,
    waitedMs: start?.waitedMs ?? null
  }
}

/**
 * The lines `pgload run` prints for the barrier's phases, or null for other phases.
 * @param {string} phase
 * @param {any} info
 */
export function shardPhaseMessage (phase, info) {
  const sign = (ms) => `${ms >= 0 ? '+' : ''}${ms.toFixed(3)} ms`
  if (phase === 'shard-waiting') {
    const { shard, clock } = info
    const stats = shard.index === 0 ? 'samples server statistics' : 'leaves server statistics to shard 0'
    return `pgload: ${shardName(shard)} of run ${shard.runId} (${stats}): clock offset to the server ${sign(clock.offsetMs)} (round trip ${clock.rttMs.toFixed(3)} ms); waiting up to ${shard.timeoutS} s for the other shards\n`
  }
  if (phase === 'shard-started') {
    const { start } = info
    return `pgload: ${info.shard.count === 1 ? 'the one shard' : `all ${info.shard.count} shards`} arrived after ${(start.waitedMs / 1000).toFixed(1)} s; started at ${start.scheduledStart} server time, ${start.startedLateMs.toFixed(3)} ms late\n`
  }
  return null
}
