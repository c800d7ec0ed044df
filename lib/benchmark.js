// A whole benchmark: reach the server, build the workload, run it with server statistics, and
// build the results document. The run session (lib/session) runs it for every command.
// With the plan's `cold`, the server is restarted after the set-up, before the measured run.

import os from 'node:os'
import { openConnection } from './db/connection.js'
import { connectTarget } from './server/target/connect-target.js'
import { embeddedPaths, pgloadHome } from './server/embedded/home.js'
import { enableStatementStats } from './server/embedded/start-settings.js'
import { PgloadError } from './errors.js'
import { redact, resolveTarget } from './server/target/resolve-target.js'
import { MAIN_TARGET } from './plan/route-options.js'
import { targetsSection } from './results/targets.js'
import { keepCommits } from './failover/acknowledged-commits.js'
import { coldRestartMethod, coldStart } from './server/cold/cold-start.js'
import { closeWithin } from './db/close-within.js'
import { createRun } from './engine/create-run.js'
import { afterRunLimit, closeAfterRunMs } from './engine/after-run.js'
import { planSource } from './orchestration/thread-part.js'
import { runConnectionOpener, routeOpeners } from './orchestration/run-connections.js'
import { parseRandomSeed } from './random/seeding.js'
import { runSeeds, workloadOptionsOf } from './plan/workload-options.js'
import { resolvePlan, isPlan } from './plan/resolve.js'
import { recordedMetricsPush } from './plan/metrics-push-option.js'
import { engineSettings } from './plan/engine-settings.js'
import { buildResults } from './results/build.js'
import { ensureWritable, defaultResultsPath } from './results/write.js'
import { loadWorkload } from '../workloads/index.js'
import { withLoadLock, waitingForLoadMessage } from '../workloads/load-lock.js'
import { TOOL_VERSION } from './version.js'
import { takeSettingsSnapshot } from './server/stats/settings-snapshot.js'
import { openWaitSampling } from './waits/run-waits.js'
import { slowestSection } from './explain/slowest-section.js'
import { silentLogger } from './log.js'
import { coreShares } from './output/client-cpu.js'
import { shardPart, shardResultName, samplesServer, openShardBarrier, shardGate, markShardResults } from './orchestration/shard-run.js'

/**
 * Measure one benchmark end to end: its results document, built and not yet written. The run
 * session (lib/session) runs this and hands the document to its outputs, the plan's results file
 * and thresholds among them; `runBenchmark` (lib/session/run-benchmark.js) is the one-run call.
 * @param {import('./plan/resolve.js').RunPlan | Record<string, any>} planOrOptions a plan
 *   (lib/plan/resolve.js), or options that are resolved into one first (and checked as the command line's)
 * @param {{ log?: any, env?: Record<string, string|undefined>, onRun?: (run: import('./engine/run-handle.js').RunHandle, extras: { sampler: any, types: string[] }) => void, onPhase?: (phase: string, info?: any) => void, shardMet?: any }} [hooks]
 *   onRun: the run handle, before it starts (subscribe to its events; stop or abort it), with the
 *   server statistics sampler (null without one) and the workload's transaction types, for presenters;
 *   shardMet: a scenario run's shard start, no barrier here: the gate its terminals wait at (a
 *   function with `start` and `clock`), or `{ start, clock }` when its shards met before it
 * @returns {Promise<{ results: object, file: string|null, exitCode: number, run: import('./engine/run-handle.js').RunHandle, backendPids: number[] }>}
 *   file: where the plan's results go (checked writable before anything ran), null for none;
 *   backendPids: the run's connections' server processes
 */
export async function measureBenchmark (planOrOptions, { log = silentLogger, env = process.env, onRun, onPhase = () => {}, shardMet } = {}) {
  const plan = isPlan(planOrOptions) ? planOrOptions : await resolvePlan(planOrOptions)
  // A cold run without a way to restart its server stops here, before anything runs.
  const restart = plan.cold ? await coldRestartMethod({ url: plan.url, restartCommand: plan.restartCommand, env }) : null
  const seed = parseRandomSeed(plan.seed)
  if (plan.seedGiven) onPhase('seed', { seed: seed.toString() })
  const file = plan.writeFile ? (plan.out ?? defaultResultsPath(shardResultName(plan))) : null
  if (file) await ensureWritable(file)
  const module = await loadWorkload(plan.workload)

  const session = await connectTarget({ url: plan.url, env, log })
  const { target } = session
  let sampler = null
  let waits = null
  let run = null
  let barrier = null
  let targetStats = null
  let conn = session.conn
  try {
    const serverVersion = await readServerVersion(conn)
    // pgload's own server: its statements' figures on (the server preloads the library)
    const statementStats = session.embedded ? await enableStatementStats(conn) : undefined
    onPhase('connected', { target: target.display, embedded: session.embedded, serverVersion, statementStats })
    const seeds = runSeeds(plan, seed)
    const wctx = { conn, target, log, openConnection: (o) => openConnection(target, o) }
    const workloadOptions = workloadOptionsOf(plan, { seed, seeds, serverVersionNum: serverVersion.num, coordinator: plan.jobs > 1 })
    const { workload, afterLoad } = await createWorkload(module, wctx, { plan, workloadOptions, embedded: session.embedded, serverVersion, onPhase })
    const started = await startCold(restart, { plan, conn, target, env, onPhase })
    conn = started.conn
    if (workload.prepare) await workload.prepare(conn, plan)
    // one shard of a run: its part of the terminals, and the barrier where the shards meet
    const part = shardPart(plan, workload)

    // What the server looked like: always recorded, even with --no-server-stats (A/B diffs need it).
    const snapshot = await takeSettingsSnapshot(conn, { tables: module.tables ?? [] })

    if (samplesServer(plan)) sampler = await startSampler(target, module, { embedded: session.embedded, env, log, hostStats: plan.serverHostStats })
    targetStats = await prepareTargets(plan, target, { conn, env })
    barrier = shardMet ? null : await openShardBarrier(plan, { openConnection: (o) => openConnection(target, o), log })
    // a scenario's part in its run's shard start: a gate to pass, or the start already passed
    const gate = barrier ? shardGate(barrier, onPhase) : shardMet ?? null

    const settings = engineSettings(plan, workload, part ? { range: part.terminalRange, connections: part.connections, rate: part.rate } : undefined)
    waits = await openWaitSampling({ hz: plan.waitSamplingHz, jobs: plan.jobs, settings, workload, target, log })
    const runtime = { openConnection: runConnectionOpener(plan, target), routeOpeners: routeOpeners(plan, env), seed, seeds, part: part?.part, startGate: typeof gate === 'function' ? gate : undefined, log, activity: waits?.activity }
    run = createRun(workload, settings, runtime, {
      jobs: plan.jobs,
      source: planSource({ plan, target, serverVersionNum: serverVersion.num, seed })
    })
    followRun(run, workload, sampler, targetStats)
    waits?.follow(run)
    onRun?.(run, { sampler, types: workload.transactions.map((t) => t.name), waits: waits?.classes ?? null })
    onPhase('running', { terminals: run.terminalCount, connections: run.poolSize })
    const outcome = await run.execute()
    if (outcome.client) {
      // the share of one core too: per transaction means little at a few transactions per second
      Object.assign(outcome.client, coreShares(outcome.client, outcome.durationS, outcome.summary.transactions + outcome.summary.failed))
    }

    const { extra, serverStats, slowest, targetServers } = await readAfterRun(run, outcome, { plan, workload, conn, sampler, waits, serverVersion, targetStats, log })
    sampler = targetStats = null // finished
    const results = buildResults({
      toolVersion: TOOL_VERSION,
      options: recordedPlan(plan),
      workloadName: workload.name ?? plan.workload,
      workload,
      target,
      embedded: session.embedded,
      serverVersion,
      host: { ...snapshot.host, arch: process.arch, hostname: os.hostname() },
      outcome,
      serverStats: { ...serverStats, settings: snapshot.settings, tableSizes: snapshot.tables, missing: [...(serverStats?.missing ?? []), ...snapshot.missing] },
      extra
    })
    if (afterLoad) results.run.afterLoad = afterLoad
    addSections(results, { plan, target, settings, outcome, targetServers, workload, slowest })
    await waits?.addTo(results)
    markShardResults(results, plan, gate, run)
    if (started.cold) results.run.cold = started.cold
    const exitCode = outcome.aborted ? 2 : 0
    return { results, file, exitCode, run, backendPids: outcome.backendPids ?? [] }
  } finally {
    if (barrier) await barrier.close()
    if (sampler) sampler.abandon()
    targetStats?.abandon()
    waits?.abandon()
    const closeMs = closeAfterRunMs(run?.status)
    // after a cold start, the set-up connection is a new one
    if (conn !== session.conn) await closeWithin(conn, closeMs)
    await session.release({ timeoutMs: closeMs })
  }
}

/**
 * The cold start of a cold run (restart, page cache, wait), after the set-up and before the
 * workload's own preparation; the set-up connection is then a new one.
 * @returns {Promise<{ cold: import('./server/cold/cold-start.js').ColdRecord|null, conn: any }>}
 */
async function startCold (restart, { plan, conn, target, env, onPhase }) {
  if (!restart) return { cold: null, conn }
  onPhase('restarting', { method: restart.method })
  const started = await coldStart(restart, { conn, target, env, keepPageCache: plan.keepPageCache })
  onPhase('cold', started.cold)
  return started
}

/** What follows the run as it goes: the workload's counters, the server statistics sampler, the routed servers'. */
function followRun (run, workload, sampler, targetStats) {
  // the workload's own counters at the opening of the measured window (TPC-C's NOPM)
  if (workload.measuringStarted) run.on('measuring', () => workload.measuringStarted())
  if (sampler) {
    run.on('measuring', () => sampler.resetBaseline?.())
    run.on('interval', (e) => { if (!e.final) sampler.sample(e.elapsedS) })
  }
  if (targetStats) {
    run.on('measuring', () => targetStats.sample(0, true))
    run.on('interval', (e) => { if (!e.final) targetStats.sample(e.elapsedS) })
  }
}

/**
 * The workload module's workload; on the embedded server, the tables are loaded first when
 * they are missing (pgload's own server: load instead of refusing), and the results say so.
 */
async function createWorkload (module, wctx, { plan, workloadOptions, embedded, serverVersion, onPhase }) {
  try {
    return { workload: await module.createWorkload(wctx, workloadOptions), afterLoad: null }
  } catch (err) {
    if (err?.code !== 'NO_SCHEMA' && err?.code !== 'INCOMPLETE_LOAD') throw err
  }
  // Missing or half-made tables may be another command's load in progress: look again once no
  // load runs, and load them here (under the same lock) if they are still missing.
  return withLoadLock(wctx.conn, module.name, () => createOrLoad(module, wctx, { plan, workloadOptions, embedded, serverVersion, onPhase }), {
    onWait: () => onPhase('waiting-load', { workload: module.name, message: waitingForLoadMessage(module.name) })
  })
}

async function createOrLoad (module, wctx, { plan, workloadOptions, embedded, serverVersion, onPhase }) {
  try {
    return { workload: await module.createWorkload(wctx, workloadOptions), afterLoad: null }
  } catch (err) {
    if (err?.code !== 'NO_SCHEMA' || !embedded || !module.init) throw err
  }
  onPhase('loading', { workload: module.name })
  const { createProgress } = await import('./output/progress.js')
  const loaded = await module.init({ ...wctx, progress: createProgress() }, { ...plan.workloadOptions, force: false })
  onPhase('loaded', loaded)
  const { settleAfterLoad } = await import('./server/stats/after-load.js')
  const afterLoad = await settleAfterLoad(wctx.conn, module.tables ?? [], { serverVersionNum: serverVersion.num, loadS: loaded?.steps?.reduce((t, s) => t + s.seconds, 0) ?? null })
  onPhase('settled', afterLoad)
  return { workload: await module.createWorkload(wctx, workloadOptions), afterLoad }
}

/**
 * The server statistics sampler, started; null when the server does not let it read them.
 * @param {any} target @param {{ tables?: any[] }} module whose tables it follows
 * @param {{ embedded: boolean, env: Record<string, string|undefined>, log: any, hostStats?: boolean }} opts
 */
export async function startSampler (target, module, { embedded, env, log, hostStats = embedded }) {
  const { StatsSampler } = await import('./server/stats/sampler.js')
  // The embedded server's log is on this machine: checkpoint times from its lines.
  const serverLog = embedded ? (await embeddedPaths(pgloadHome({ env }))).log : null
  const sampler = new StatsSampler({ openConnection: () => openConnection(target, { protocol: 'simple', applicationName: 'pgload-stats' }), tables: module.tables ?? [], log, serverLog, hostStats: hostStats ? { embedded, host: target.config.host } : null })
  try {
    await sampler.start()
    return sampler
  } catch (err) {
    log.warn({ err: err.message }, 'server statistics are not available')
    return null
  }
}

/**
 * The wait sampler's last read, the workload's final figures, the server statistics and the
 * slowest transactions replayed under EXPLAIN (--explain-slowest), after the run. Bounded: a server that stopped answering (transactions had to be cancelled) gets
 * a short while, Ctrl-C twice none.
 */
async function readAfterRun (run, outcome, { plan, workload, conn, sampler, waits, serverVersion, targetStats, log }) {
  const s = outcome.summary
  const stalled = s.unfinished + s.outcomeUnknown > 0
  const limit = afterRunLimit(run, stalled)
  await waits?.finish(limit)
  let extra = null
  if (workload.afterRun) {
    try {
      extra = await limit.within(workload.afterRun(conn, outcome), () => conn.destroy())
    } catch (err) {
      log.warn({ err: err.message }, 'the workload could not compute its final figures')
    }
  }
  let serverStats = null
  if (sampler) {
    const finishing = sampler.finish({ transactions: s.transactions + s.failed, durationS: outcome.durationS, backendPids: outcome.backendPids })
    try {
      serverStats = await limit.within(finishing, () => sampler.abandon())
    } catch (err) {
      log.warn({ err: err.message }, 'server statistics could not be finished')
    }
  }
  const targetServers = targetStats ? await finishTargets(targetStats, limit, log) : undefined
  // last: the replay's own reads and writes stay out of the server statistics
  const slowest = await slowestSection({ perType: plan.explainSlowest, outcome, workload, conn, serverVersionNum: serverVersion.num, run, stalled, limit, tags: waits?.slowTags() ?? null })
  limit.done()
  return { extra, serverStats, slowest, targetServers }
}

/** --route: each server's counters after the run, within the after-run limit. */
async function finishTargets (targetStats, limit, log) {
  try {
    return await limit.within(targetStats.finish(), () => targetStats.abandon())
  } catch (err) {
    log.warn({ err: err.message }, 'the routed servers\' statistics could not be read')
  }
}

/**
 * The sections read after the run: --explain-slowest's `slowest`; --route's `targets`
 * (lib/results/targets.js); --failover: the commits the workload kept, for the RPO check's list
 * (lib/failover/acknowledged-commits.js).
 */
function addSections (results, { plan, target, settings, outcome, targetServers, workload, slowest }) {
  if (slowest) results.slowest = slowest
  keepCommits(results, workload.acknowledgedCommits?.())
  const targets = targetsSection(plan, results.transactions, { mainName: MAIN_TARGET, mainServer: target.display, types: results.run.transactionTypes, typeTargets: settings.typeTargets, durationS: outcome.durationS, server: targetServers })
  if (targets) results.targets = targets
}

/**
 * --route: the table --staleness stamps, and each server's own counters over the run
 * (lib/server/stats/target-stats.js), started; null without routes or server statistics.
 */
async function prepareTargets (plan, target, { conn, env }) {
  if (plan.staleness) await (await import('./engine/staleness-table.js')).ensureStalenessTable(conn)
  if (!plan.routeTargets?.length || !plan.serverStats) return null
  const { TargetStats } = await import('./server/stats/target-stats.js')
  const stats = new TargetStats([{ name: MAIN_TARGET, target }, ...plan.routeTargets.map((t) => ({ name: t.name, target: resolveTarget({ url: t.url, env }) }))])
  await stats.start()
  return stats
}

/** The plan as the results document records it: no server addresses (they may hold a password). */
function recordedPlan (plan) {
  const { planVersion, seedGiven, url, resultsUrl, poolerAdmin, ...options } = plan
  if (options.restartCommand !== undefined) options.restartCommand = redact(options.restartCommand)
  if (options.trigger !== undefined) options.trigger = redact(options.trigger)
  if (options.routeTargets !== undefined) options.routeTargets = options.routeTargets.map((t) => ({ name: t.name, url: redact(t.url) }))
  if (options.metricsPush !== undefined) options.metricsPush = recordedMetricsPush(options.metricsPush)
  // the plan holds the seed as pgbench's signed random_seed; the user gives and reads it unsigned
  options.seed = parseRandomSeed(plan.seed).toString()
  return options
}

/**
 * @param {import('./db/connection.js').PgConnection} conn
 * @returns {Promise<{ version: string, num: number }>}
 */
async function readServerVersion (conn) {
  const r = await conn.simpleQuery("select current_setting('server_version'), current_setting('server_version_num')")
  const num = Number(r.rows[0][1])
  if (num < 130000) {
    throw new PgloadError(`PostgreSQL ${r.rows[0][0]} is not supported: pgload needs PostgreSQL 13 or later`, { code: 'SERVER_VERSION' })
  }
  return { version: r.rows[0][0], num }
}
