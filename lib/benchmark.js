// A whole benchmark, as a library call: reach the server, build the workload, run it with
// server statistics, and write the results document. `pgload run` and `pgload ab` use this.

import os from 'node:os'
import { openConnection } from './db/connection.js'
import { openLeanConnection } from './db/lean-connection.js'
import { warmDriver } from './engine/driver-warmup.js'
import { connectTarget } from './server/connect-target.js'
import { PgloadError } from './errors.js'
import { explainConnectError } from './server/target.js'
import { Run } from './engine/run.js'
import { parseDistribution } from './options/distribution.js'
import { parseRandomSeed, deriveSeeds, seedAsInt64 } from './random/seeding.js'
import { buildResults } from './results/build.js'
import { writeResults, ensureWritable, defaultResultsPath } from './results/write.js'
import { loadWorkload } from '../workloads/index.js'
import { TOOL_VERSION } from './version.js'
import { takeSettingsSnapshot } from './server/settings-snapshot.js'
import { silentLogger } from './log.js'

/**
 * @typedef {object} BenchmarkOptions
 * @property {string} workload built-in workload name (`tpcb`, `tpcc`) or `script` for files
 * @property {{ kind: 'file'|'builtin', name: string, weight: number, text?: string }[]} [scripts]
 * @property {string} [url]
 * @property {number} clients
 * @property {number} [connections]
 * @property {number} [durationS]
 * @property {number} [transactionsPerClient]
 * @property {number} [rate]
 * @property {number} [latencyLimitMs]
 * @property {string} [thinkTime] distribution text
 * @property {number} [warmupS]
 * @property {number} [intervalS]
 * @property {string} [seed] `time`, `rand` or an unsigned integer
 * @property {'simple'|'extended'|'prepared'} protocol
 * @property {'lean'|'pg'} [driver] run connections: pgload's lean protocol path (default) or node-postgres
 * @property {number} [maxTries]
 * @property {boolean} [exitOnAbort]
 * @property {boolean} [connect] pgbench -C: a new connection for every transaction
 * @property {boolean} [serverStats]
 * @property {boolean} [jitWarmup] warm pgload's code up against a stand-in server first (default true)
 * @property {string} [out]
 * @property {boolean} [writeFile] default true
 * @property {string} [command] the command line, for the record
 * @property {object} [workloadOptions] options of the workload module (scale, warehouses, ...)
 */

/**
 * Run one benchmark end to end. Results already measured are written even when the run
 * ends in errors or is interrupted.
 * @param {BenchmarkOptions} options
 * @param {{ log?: any, env?: Record<string, string|undefined>, onRun?: (run: Run) => void, onPhase?: (phase: string, info?: any) => void,
 *   onResults?: (results: object) => void }} [hooks] onResults may add sections to the document before its one write
 * @returns {Promise<{ results: object, file: string|null, exitCode: number }>}
 */
export async function runBenchmark (options, { log = silentLogger, env = process.env, onRun, onPhase = () => {}, onResults } = {}) {
  const seed = parseRandomSeed(options.seed ?? 'time')
  if (options.seed !== undefined) onPhase('seed', { seed: seedAsInt64(seed).toString() })
  const file = options.writeFile === false ? null : (options.out ?? defaultResultsPath(options.resultName ?? options.workload))
  if (file) await ensureWritable(file)
  const thinkTime = options.thinkTime ? parseDistribution(options.thinkTime, '--think-time') : undefined
  const module = await loadWorkload(options.workload)
  if (!module) throw new PgloadError(`unknown workload ${JSON.stringify(options.workload)}`, { code: 'BAD_OPTION' })
  // Mistakes in the workload's options are reported before any server is started or reached.
  if (module.validateRunOptions) module.validateRunOptions(options.workloadOptions ?? {})

  const session = await connectTarget({ url: options.url, env, log })
  const { target } = session
  let sampler = null
  try {
    const conn = session.conn
    const serverVersion = await readServerVersion(conn)
    onPhase('connected', { target: target.display, embedded: session.embedded, serverVersion })
    const seeds = deriveSeeds(seed, options.clients, { drawDefaultSeed: !Object.hasOwn(options.workloadOptions?.define ?? {}, 'default_seed') })
    const wctx = { conn, target, log, openConnection: (o) => openConnection(target, o) }
    const workloadOptions = {
      ...options.workloadOptions,
      scripts: options.scripts,
      protocol: options.protocol,
      clients: options.clients,
      rate: options.rate,
      latencyLimitMs: options.latencyLimitMs,
      randomSeed: seed,
      defaultSeed: seeds.defaultSeed,
      seeds,
      serverVersionNum: serverVersion.num
    }
    let workload
    try {
      workload = await module.createWorkload(wctx, workloadOptions)
    } catch (err) {
      // The embedded server is pgload's own: load what is missing instead of refusing.
      if (err?.code !== 'NO_SCHEMA' || !session.embedded || !module.init) throw err
      onPhase('loading', { workload: module.name })
      const { createProgress } = await import('./output/progress.js')
      const loaded = await module.init({ ...wctx, progress: createProgress() }, { ...options.workloadOptions, force: false })
      onPhase('loaded', loaded)
      workload = await module.createWorkload(wctx, workloadOptions)
    }
    if (workload.prepare) await workload.prepare(conn, options)

    const open = options.driver === 'pg' ? openConnection : openLeanConnection
    // Before the clock: V8 optimizes the statement path on a stand-in server, not in the run.
    const jitWarmup = options.jitWarmup === false ? null : await warmDriver(workload, { open, target, protocol: options.protocol, log })
    if (jitWarmup) onPhase('jit-warmup', jitWarmup)
    const openRunConnection = async () => {
      try {
        return await open(target, { protocol: options.protocol })
      } catch (err) {
        throw explainConnectError(err, target)
      }
    }

    // What the server looked like: always recorded, even with --no-server-stats (A/B diffs need it).
    const snapshot = await takeSettingsSnapshot(conn, { tables: module.tables ?? [] })

    if (options.serverStats !== false) {
      const { StatsSampler } = await import('./server/stats-sampler.js')
      sampler = new StatsSampler({ openConnection: () => openConnection(target, { protocol: 'simple', applicationName: 'pgload-stats' }), tables: module.tables ?? [], log })
      try {
        await sampler.start()
      } catch (err) {
        log.warn({ err: err.message }, 'server statistics are not available')
        sampler = null
      }
    }

    const run = new Run(workload, {
      openConnection: openRunConnection,
      clients: options.clients,
      connections: options.connections,
      durationS: options.durationS,
      transactionsPerClient: options.transactionsPerClient,
      rate: options.rate,
      latencyLimitMs: options.latencyLimitMs,
      thinkTime,
      warmupS: options.warmupS,
      intervalS: options.intervalS,
      maxTries: options.maxTries,
      exitOnAbort: options.exitOnAbort,
      connectPerTransaction: options.connect,
      verboseErrors: options.verboseErrors,
      seed,
      seeds,
      log
    })
    if (sampler) {
      run.on('measuring', () => sampler.resetBaseline?.())
      run.on('tick', (e) => { if (!e.final) sampler.sample(e.elapsedS) })
    }
    onRun?.(run)
    onPhase('running', { terminals: run.terminalCount, connections: run.poolSize })
    const outcome = await run.execute()
    if (outcome.client) outcome.client.jitWarmup = jitWarmup

    let extra = null
    if (workload.afterRun) {
      try {
        extra = await workload.afterRun(conn, outcome)
      } catch (err) {
        log.warn({ err: err.message }, 'the workload could not compute its final figures')
      }
    }
    let serverStats = null
    if (sampler) {
      try {
        serverStats = await sampler.finish({ transactions: outcome.summary.transactions + outcome.summary.failed, durationS: outcome.durationS, backendPids: outcome.backendPids })
      } catch (err) {
        log.warn({ err: err.message }, 'server statistics could not be finished')
      }
      sampler = null
    }
    const results = buildResults({
      toolVersion: TOOL_VERSION,
      options: { ...options, url: undefined, seed: seedAsInt64(seed).toString() },
      workloadName: workload.name ?? options.workload,
      workload,
      target,
      embedded: session.embedded,
      serverVersion,
      host: { ...snapshot.host, arch: process.arch, hostname: os.hostname() },
      outcome,
      serverStats: { ...serverStats, settings: snapshot.settings, tableSizes: snapshot.tables, missing: [...(serverStats?.missing ?? []), ...snapshot.missing] },
      extra
    })
    try {
      onResults?.(results)
    } finally {
      if (file) await writeResults(file, results)
    }
    const exitCode = outcome.aborted ? 2 : 0
    return { results, file, exitCode, run }
  } finally {
    if (sampler) await sampler.finish({ transactions: 0, durationS: 0 }).catch(() => {})
    await session.release()
  }
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
