// A whole benchmark, as a library call: reach the server, build the workload, run it with
// server statistics, and write the results document. `pgload run` and `pgload ab` use this.

import os from 'node:os'
import { openConnection } from './db/connection.js'
import { openLeanConnection } from './db/lean-connection.js'
import { connectTarget } from './server/connect-target.js'
import { embeddedPaths, pgloadHome } from './server/embedded.js'
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
import { coreShares } from './output/client-cpu.js'

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
 * @property {number} [graceS] once the run stops, transactions in flight get this long, then are cancelled (default 10)
 * @property {number} [transactionTimeoutS] cancel any transaction running longer than this (default: never)
 * @property {boolean} [serverStats]
 * @property {string} [out]
 * @property {boolean} [writeFile] default true
 * @property {string} [command] the command line, for the record
 * @property {object} [workloadOptions] options of the workload module (scale, warehouses, ...)
 */

/**
 * Run one benchmark end to end. Results already measured are written even when the run
 * ends in errors or is interrupted.
 * @param {BenchmarkOptions} options
 * @param {{ log?: any, env?: Record<string, string|undefined>, onRun?: (run: Run) => void, onPhase?: (phase: string, info?: any) => void }} [hooks]
 * @returns {Promise<{ results: object, file: string|null, exitCode: number }>}
 */
export async function runBenchmark (options, { log = silentLogger, env = process.env, onRun, onPhase = () => {} } = {}) {
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
  let run = null
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
    let afterLoad = null // set when the tables were loaded first: the results say so
    try {
      workload = await module.createWorkload(wctx, workloadOptions)
    } catch (err) {
      // The embedded server is pgload's own: load what is missing instead of refusing.
      if (err?.code !== 'NO_SCHEMA' || !session.embedded || !module.init) throw err
      onPhase('loading', { workload: module.name })
      const { createProgress } = await import('./output/progress.js')
      const loaded = await module.init({ ...wctx, progress: createProgress() }, { ...options.workloadOptions, force: false })
      onPhase('loaded', loaded)
      const { settleAfterLoad } = await import('./server/stats/after-load.js')
      afterLoad = await settleAfterLoad(conn, module.tables ?? [], { serverVersionNum: serverVersion.num, loadS: loaded?.steps?.reduce((t, s) => t + s.seconds, 0) ?? null })
      onPhase('settled', afterLoad)
      workload = await module.createWorkload(wctx, workloadOptions)
    }
    if (workload.prepare) await workload.prepare(conn, options)

    const open = options.driver === 'pg' ? openConnection : openLeanConnection
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
      // The embedded server's log is on this machine: checkpoint times from its lines.
      const serverLog = session.embedded ? (await embeddedPaths(pgloadHome({ env }))).log : null
      sampler = new StatsSampler({ openConnection: () => openConnection(target, { protocol: 'simple', applicationName: 'pgload-stats' }), tables: module.tables ?? [], log, serverLog })
      try {
        await sampler.start()
      } catch (err) {
        log.warn({ err: err.message }, 'server statistics are not available')
        sampler = null
      }
    }

    run = new Run(workload, {
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
      graceS: options.graceS,
      transactionTimeoutS: options.transactionTimeoutS,
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
    if (outcome.client) {
      // the share of one core too: per transaction means little at a few transactions per second
      Object.assign(outcome.client, coreShares(outcome.client, outcome.durationS, outcome.summary.transactions + outcome.summary.failed))
    }

    // What is read from the server after the run is bounded: a server that stopped answering
    // (transactions had to be cancelled) gets a short while, Ctrl-C twice none at all.
    const s = outcome.summary
    const limit = afterRunLimit(run, s.unfinished + s.outcomeUnknown > 0)
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
      sampler = null
    }
    limit.done()
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
    if (afterLoad) results.run.afterLoad = afterLoad
    if (file) await writeResults(file, results)
    const exitCode = outcome.aborted ? 2 : 0
    return { results, file, exitCode, run }
  } finally {
    if (sampler) sampler.abandon()
    const stalled = run?.canceller.cancelled.grace > 0
    await session.release({ timeoutMs: run?.hurry ? 0 : stalled ? 250 : undefined })
  }
}

// ms the server readings after the run may take, when it answers (afterRun, the final statistics)
const AFTER_RUN_MS = 30_000
// ms when transactions had to be cancelled: the server may not be answering at all
const AFTER_STALL_MS = 1500

/**
 * The bound on what is read from the server after the run: `within(promise, onLate)` settles
 * with the promise, or with null past the bound or at Ctrl-C twice (then onLate() runs).
 */
function afterRunLimit (run, stalled) {
  let hurry
  const hurried = new Promise((resolve) => { hurry = resolve })
  if (run.hurry) hurry()
  const onAbort = () => hurry()
  run.on('abort', onAbort)
  let timer
  const late = new Promise((resolve) => { timer = setTimeout(resolve, stalled ? AFTER_STALL_MS : AFTER_RUN_MS).unref() })
  const LATE = Symbol('late')
  return {
    async within (promise, onLate) {
      promise.catch(() => {}) // settles later, once abandoned
      const first = await Promise.race([promise, late.then(() => LATE), hurried.then(() => LATE)])
      if (first !== LATE) return first
      onLate()
      return null
    },
    done () { clearTimeout(timer); run.off('abort', onAbort) }
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
