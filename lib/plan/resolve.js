// The run plan: every option of a run resolved once (defaults, precedence, validation) into
// frozen, JSON-serialisable data that the command line, `ab`, the library entry and the engine share.

import { PgloadError } from '../errors.js'
import { thinkTimeDistribution } from './think-time.js'
import { parseDurationS, parseInteger, parseNumber } from '../options/parse.js'
import { rangeOf } from '../options/ranges.js'
import { parseRandomSeed, seedAsInt64 } from '../random/seeding.js'
import { PROTOCOLS } from '../db/connection.js'
import { loadWorkload, workloadNames } from '../../workloads/index.js'
import { DEFAULTS, precedence } from './defaults.js'
import { loadScripts, checkScripts } from './scripts.js'
import { resolveShard, shardSeed } from './shard.js'
import { liveOptions } from './live-options.js'
import { failoverOptions } from './failover-options.js'
import { routeOptions } from './route-options.js'
import { waitSamplingHz } from './wait-sampling-option.js'
import { booleanOption, checkLogOptions, optionalInteger, samplingRate, scriptVariables } from './checks.js'
import { shownValue } from '../options/shown.js'
import { profileLength, profileChecks } from './profile.js'
import { hostLimits, checkJobs, checkOpenFiles } from './host-limits.js'
import { record } from './record-options.js'

/** Marks a resolved plan; a plan that comes back (e.g. through JSON) is taken as it is. */
export const PLAN_VERSION = 1
export { resultsStore } from './record-options.js'
export const DRIVERS = ['lean', 'pg']

/** What a caller may give: the plan's own names, values typed or as typed on a command line. */
const INPUT_KEYS = new Set(['workload', 'scripts', 'url', 'clients', 'connections', 'durationS', 'transactionsPerClient',
  'rate', 'latencyLimitMs', 'thinkTime', 'warmupS', 'intervalS', 'progressS', 'progressTimestamp', 'seed', 'protocol',
  'driver', 'maxTries', 'exitOnAbort', 'graceS', 'failover', 'trigger', 'triggerAtS', 'reconnectWindowS', 'transactionTimeoutS', 'connect', 'verboseErrors', 'failuresDetailed',
  'serverStats', 'serverHostStats', 'out', 'writeFile', 'label', 'thresholds', 'command', 'jobs', 'workloadOptions', 'store', 'resultsUrl', 'poolerAdmin',
  'shard', 'shards', 'shardIndex', 'runId', 'shardTimeout', 'cold', 'restartCommand', 'keepPageCache',
  'dashboard', 'dashboardOut', 'metrics', 'metricsPush', 'metricsPushHeaders', 'progressServer', 'stages', 'clientsStages', 'maxQueue', 'rampS', 'waitSamplingHz', 'explainSlowest',
  'routes', 'routeTargets', 'staleness'])
/** Workload options of script runs (tpcb); a workload module adds its own `runOptions`. */
const SCRIPT_OPTIONS = ['define', 'scale', 'noVacuum', 'vacuumAccounts', 'reportPerCommand', 'log', 'aggregateIntervalS', 'logPrefix', 'samplingRate']
/** Keys a plan has that are not input. */
const PLAN_ONLY = ['planVersion', 'resultName', 'seedGiven']

const bad = (message) => new PgloadError(message, { code: 'BAD_OPTION' })

/**
 * @typedef {object} RunPlan
 * @property {number} planVersion
 * @property {'tpcb'|'tpcc'} workload the workload module
 * @property {string} resultName the name results files and reports use: the workload, or `script`
 * @property {import('./scripts.js').PlanScript[]} scripts script runs: built-ins by name, files with their text
 * @property {string} [url] the server; absent: PG* variables, else the embedded server
 * @property {number} clients
 * @property {number} [connections] absent: the workload's choice, else one per client
 * @property {number} [durationS] measured duration; absent with transactionsPerClient
 * @property {number} [transactionsPerClient]
 * @property {number} rate transactions per second, 0 = unthrottled
 * @property {number} latencyLimitMs 0 = none
 * @property {string} [thinkTime] distribution spec (lib/options/distribution.js)
 * @property {number} warmupS
 * @property {{ reason: string }} [rampUp] the warm-up is the workload's default ramp-up, and why it lasts that long
 * @property {number} intervalS
 * @property {number} progressS 0 = no progress lines
 * @property {boolean} progressTimestamp
 * @property {string} seed the resolved random seed, a signed 64-bit decimal
 * @property {boolean} seedGiven whether the caller chose the seed (pgbench then prints it)
 * @property {'simple'|'extended'|'prepared'} protocol
 * @property {'lean'|'pg'} driver
 * @property {number} maxTries 0 = unlimited
 * @property {number} graceS
 * @property {number} reconnectWindowS seconds a run goes on while no connection can be re-opened
 * @property {boolean} failover measure a failover during the run (lib/failover)
 * @property {number} transactionTimeoutS 0 = never
 * @property {boolean} exitOnAbort
 * @property {boolean} connect
 * @property {boolean} verboseErrors
 * @property {boolean} failuresDetailed
 * @property {boolean} serverStats
 * @property {boolean} [serverHostStats] the server host's CPU and disk from this machine's /proc; absent: on for the embedded server only
 * @property {boolean} cold restart the server before the measured run (lib/server/cold/cold-start.js)
 * @property {string} [restartCommand] with cold: the shell command that restarts a server that is not the embedded one
 * @property {boolean} keepPageCache with cold: do not drop the OS page cache
 * @property {string} [out] results file
 * @property {boolean} writeFile
 * @property {string} [label]
 * @property {string[]} thresholds checked at the end of the run, before the results are written
 * @property {string} [command] the command line, passwords redacted
 * @property {boolean} store store the run in the results database once its file is written (lib/store)
 * @property {string} [resultsUrl] the results database; absent: `pgload_results` on the embedded server
 * @property {string} [poolerAdmin] the PgBouncer admin console to read, or 'off'; absent: looked for on the target
 * @property {Record<string, any>} workloadOptions
 * @property {import('./shard.js').ShardPlan} [shard] this process runs one shard of a run (--shard, --shards)
 * @property {{ host: string, port: number }} [dashboard] serve the live dashboard here during the run (lib/live)
 * @property {string} [dashboardOut] with dashboard: save its final page to this file
 * @property {{ host: string, port: number }} [metrics] serve Prometheus metrics here during the run (lib/live)
 * @property {import('./metrics-push-option.js').MetricsPush} [metricsPush] push them to this remote-write receiver at each interval (lib/live)
 * @property {boolean} progressServer the progress line's server part (--progress-server off: false)
 * @property {import('../options/stages.js').StageSpec[]} [stages] --stages: arrival rates (lib/plan/profile.js)
 * @property {import('../options/stages.js').StageSpec[]} [clientsStages] --clients-stages: active terminals
 * @property {number} [maxQueue] with stages: arrivals that may wait for a free terminal
 * @property {number} [rampS] --ramp: closed-model terminals start evenly over this long
 * @property {number} waitSamplingHz --wait-sampling: reads of the run's backends' wait events per second, 0: off
 * @property {number} explainSlowest --explain-slowest: transactions per type replayed under EXPLAIN after the run, 0: none
 */

/**
 * Resolve a run plan. The input uses the plan's names; values may be typed (`durationS: 30`) or
 * as typed on a command line (`durationS: '30s'`). Errors name the command-line flag.
 * @param {Record<string, any>} input
 * @param {{ config?: Record<string, any>, readStdin?: () => Promise<Buffer>,
 *   checks?: { afterValues?: () => void, afterOptions?: () => void }, host?: import('./host-limits.js').HostLimits }} [opts]
 *   config: options below the input and above the workload's defaults; checks: the caller's own
 *   checks, in pgbench's order: after the values (its mode checks), after the run options (the server);
 *   host: this machine's cores and open-file limit (hostLimits())
 * @returns {Promise<Readonly<RunPlan>>}
 */
export async function resolvePlan (input, { config, readStdin, checks = {}, host } = {}) {
  for (const layer of [input, config]) {
    for (const key of Object.keys(layer ?? {})) if (!INPUT_KEYS.has(key)) throw bad(`unknown run option ${JSON.stringify(key)}`)
  }
  const name = workloadName(input.workload ?? config?.workload)
  const module = await loadWorkload(name)
  const opt = precedence([input, config, module.runDefaults])
  const w = mergeGiven(config?.workloadOptions, input.workloadOptions)
  const scripts = await planScripts(name, opt('scripts'), readStdin)
  const plan = {
    planVersion: PLAN_VERSION,
    workload: name,
    resultName: name === 'tpcb' && !scripts.every((s) => s.kind === 'builtin') ? 'script' : name,
    scripts
  }
  // Values first, then combinations, in pgbench's order (it checks values while parsing).
  if (module.fixedTerminals && opt('clients') !== undefined) {
    throw new PgloadError(`-c/--clients does not apply to ${name}: it drives ${module.fixedTerminals.what}`, { code: 'BAD_OPTION', hint: module.fixedTerminals.hint })
  }
  plan.clients = opt('clients') === undefined ? DEFAULTS.clients : parseInteger(opt('clients'), '--clients', rangeOf('--clients'))
  Object.assign(plan, runLength(opt))
  Object.assign(plan, profileLength(opt, plan, input.durationS ?? config?.durationS))
  const logOptions = {
    scale: optionalInteger(w.scale, '--scale', rangeOf('--scale')),
    samplingRate: samplingRate(w.samplingRate),
    aggregateIntervalS: optionalInteger(w.aggregateIntervalS, '--aggregate-interval', rangeOf('--aggregate-interval')),
    log: booleanOption(w.log, '--log', false),
    logPrefix: w.logPrefix ?? undefined
  }
  checks.afterValues?.()
  if (plan.durationS !== undefined && plan.transactionsPerClient !== undefined) throw bad('specify either a number of transactions (--transactions/-t) or a duration (--duration/-T), not both')
  checkLogOptions(logOptions, plan.durationS)
  if (opt('progressTimestamp') && opt('progressS') === undefined) throw bad('--progress-timestamp is allowed only under --progress')
  if (plan.durationS === undefined && plan.transactionsPerClient === undefined) plan.transactionsPerClient = DEFAULTS.transactionsPerClient
  Object.assign(plan, pacing(opt))
  plan.protocol = oneOf(opt('protocol') ?? DEFAULTS.protocol, PROTOCOLS, '--protocol')
  await checkScripts(scripts, plan.protocol)
  plan.driver = oneOf(opt('driver') ?? DEFAULTS.driver, DRIVERS, '--driver')
  plan.maxTries = opt('maxTries') === undefined ? DEFAULTS.maxTries : parseInteger(opt('maxTries'), '--max-tries', rangeOf('--max-tries'))
  if (plan.maxTries === 0 && !plan.latencyLimitMs && plan.durationS === undefined) throw bad('an unlimited number of transaction tries (--max-tries 0) needs --latency-limit or --duration')
  Object.assign(plan, timing(opt))
  Object.assign(plan, profileChecks(opt, plan, opt('clients') !== undefined))
  Object.assign(plan, switches(opt))
  Object.assign(plan, serverHostStats(opt, plan.serverStats))
  Object.assign(plan, coldStart(opt))
  Object.assign(plan, failoverOptions(opt, plan))
  Object.assign(plan, routeOptions(opt))
  Object.assign(plan, liveOptions(opt))
  plan.waitSamplingHz = waitSamplingHz(opt('waitSamplingHz'), DEFAULTS.waitSamplingHz)
  plan.explainSlowest = opt('explainSlowest') === undefined ? DEFAULTS.explainSlowest : parseInteger(opt('explainSlowest'), '--explain-slowest', rangeOf('--explain-slowest'))
  plan.workloadOptions = workloadOptions(module, w, logOptions)
  Object.assign(plan, workloadWarmup(module, plan, opt('warmupS')))
  checks.afterOptions?.()
  Object.assign(plan, await record(opt))
  plan.seed = seedAsInt64(parseRandomSeed(opt('seed') ?? DEFAULTS.seed)).toString()
  plan.seedGiven = opt('seed') !== undefined
  Object.assign(plan, sharding(opt, plan))
  if (plan.shard && plan.cold) throw bad('--cold does not go with shards: each shard would restart the server under the others; restart it before starting them')
  if (plan.shard && plan.trigger !== undefined) throw bad('--trigger does not go with shards: each shard would run it; run it from one place')
  if (plan.staleness && (plan.shard || plan.jobs > 1)) throw bad('--staleness is measured in one process: run it without --shard(s) and with -j 1')
  if (plan.shard && plan.store) throw bad('--store goes with whole runs: merge the shards\' files (pgload merge) and store the merged one (pgload store merged.json)')
  checkHost(plan, module, host ?? hostLimits())
  return deepFreeze(withoutUndefined(plan))
}

/**
 * Whether a value is a resolved plan (also after a JSON round trip).
 * @param {unknown} value
 * @returns {value is RunPlan}
 */
export function isPlan (value) {
  return typeof value === 'object' && value !== null && value.planVersion === PLAN_VERSION
}

/**
 * A new plan from a plan and a few changed options (ab: the server, results file and label of
 * each run), resolved and checked as any plan. A seed the caller did not choose is drawn anew.
 * @param {RunPlan} plan
 * @param {Record<string, any>} changes
 * @returns {Promise<Readonly<RunPlan>>}
 */
export function replan (plan, changes) {
  const input = { ...plan }
  for (const k of PLAN_ONLY) delete input[k]
  if (isPlan(plan) && !plan.seedGiven) delete input.seed
  // Defaults are applied again, not given: some (rate 0, no progress) are no value a caller may give.
  for (const [k, v] of Object.entries(DEFAULTS)) if (input[k] === v) delete input[k]
  return resolvePlan({ ...input, ...changes })
}

function workloadName (workload) {
  const name = workload ?? 'tpcb'
  if (name === 'script') return 'tpcb'
  if (typeof name !== 'string' || !workloadNames.includes(name)) {
    throw bad(`unknown workload ${JSON.stringify(name)}: valid workloads are ${workloadNames.join(', ')}, or script files ending in .sql`)
  }
  return name
}

async function planScripts (name, scripts, readStdin) {
  if (scripts !== undefined && !Array.isArray(scripts)) throw bad('scripts must be a list of { kind, spec } or { kind, name, weight }')
  if (name !== 'tpcb') {
    if (scripts?.length) throw bad(`--file and --builtin go with tpcb or script files, not with ${name}`)
    return []
  }
  return loadScripts(scripts ?? [], { readStdin })
}

/** --duration or --transactions, as given (the default count is applied after the combination checks). */
function runLength (opt) {
  const out = {}
  const duration = opt('durationS')
  if (duration !== undefined) {
    out.durationS = parseDurationS(duration, '--duration', rangeOf('--duration'))
    if (out.durationS <= 0) throw bad(`--duration must be positive, got ${shownValue(duration)}`)
  }
  out.transactionsPerClient = optionalInteger(opt('transactionsPerClient'), '--transactions', rangeOf('--transactions'))
  return out
}

/** When transactions start: --rate, --latency-limit, --think-time. */
function pacing (opt) {
  const rate = opt('rate') === undefined ? DEFAULTS.rate : parseNumber(opt('rate'), '--rate', rangeOf('--rate'))
  const latencyLimitMs = opt('latencyLimitMs') === undefined ? DEFAULTS.latencyLimitMs : parseNumber(opt('latencyLimitMs'), '--latency-limit', rangeOf('--latency-limit'))
  if (latencyLimitMs > 0 && rate === 0) throw bad('--latency-limit needs --rate: the limit is measured against the schedule that --rate sets')
  const thinkTime = opt('thinkTime') === undefined ? undefined : String(opt('thinkTime'))
  thinkTimeDistribution(thinkTime)
  if (thinkTime !== undefined && rate > 0) throw bad('--think-time and --rate cannot be combined: --rate already sets when each transaction starts')
  return { rate, latencyLimitMs, thinkTime }
}

/** Pool size, progress, warm-up, series interval, grace, reconnect window and timeout. */
function timing (opt) {
  const duration = (key, flag) => opt(key) === undefined ? DEFAULTS[key] : parseDurationS(opt(key), flag, rangeOf(flag))
  const out = {
    connections: optionalInteger(opt('connections'), '--connections', rangeOf('--connections')),
    progressS: opt('progressS') === undefined ? DEFAULTS.progressS : parseInteger(opt('progressS'), '--progress', rangeOf('--progress')),
    warmupS: duration('warmupS', '--warmup'),
    intervalS: opt('intervalS') === undefined ? DEFAULTS.intervalS : parseDurationS(opt('intervalS'), '--interval', rangeOf('--interval')),
    graceS: duration('graceS', '--grace'),
    reconnectWindowS: duration('reconnectWindowS', '--reconnect-window'),
    transactionTimeoutS: duration('transactionTimeoutS', '--transaction-timeout'),
    jobs: opt('jobs') === undefined ? DEFAULTS.jobs : parseInteger(opt('jobs'), '--jobs', rangeOf('--jobs'))
  }
  if (opt('transactionTimeoutS') !== undefined && out.transactionTimeoutS <= 0) throw bad(`--transaction-timeout must be positive, got ${shownValue(opt('transactionTimeoutS'))}`)
  return out
}

/** -j within this machine's cores; the connections open at once within its open-file limit. */
function checkHost (plan, module, limits) {
  checkJobs(plan.jobs, limits)
  // a workload whose terminals cannot be cut into parts (CH-benCHmark's streams) says why
  if (module.oneThread && (plan.jobs > 1 || plan.shard)) {
    throw new PgloadError(`${plan.jobs > 1 ? `-j ${plan.jobs}` : '--shard'} does not apply to ${plan.workload}: ${module.oneThread}`, { code: 'BAD_OPTION' })
  }
  // -C: each client holds its own connection while its transaction runs; without think time a
  // client is a connection unless --connections says; a workload with its own terminals decides.
  // A shard opens its share.
  const check = (sockets, flag) => checkOpenFiles({ sockets: Math.ceil(sockets / (plan.shard?.count ?? 1)), flag, jobs: plan.jobs }, limits)
  if (plan.connect) return check(plan.clients, '--clients')
  if (plan.connections !== undefined) return check(plan.connections, '--connections')
  if (!plan.thinkTime && !module.fixedTerminals) check(plan.clients, '--clients')
}

function switches (opt) {
  const flags = { exitOnAbort: '--exit-on-abort', connect: '--connect', verboseErrors: '--verbose-errors', failuresDetailed: '--failures-detailed', serverStats: '--server-stats', writeFile: 'writeFile', progressTimestamp: '--progress-timestamp' }
  return Object.fromEntries(Object.entries(flags).map(([key, flag]) => [key, booleanOption(opt(key), flag, DEFAULTS[key] ?? false)]))
}

/** --server-host-stats: given or not (absent: the embedded server's default, decided where the server is known). */
function serverHostStats (opt, serverStats) {
  const on = booleanOption(opt('serverHostStats'), '--server-host-stats', undefined)
  if (on && !serverStats) throw bad('--server-host-stats goes with the server statistics: --no-server-stats turns them off')
  return on === undefined ? {} : { serverHostStats: on }
}

/** --cold, --restart-command and --keep-page-cache: the last two only go with the first. */
function coldStart (opt) {
  const cold = booleanOption(opt('cold'), '--cold', DEFAULTS.cold)
  const keepPageCache = booleanOption(opt('keepPageCache'), '--keep-page-cache', DEFAULTS.keepPageCache)
  const restartCommand = opt('restartCommand')
  if (restartCommand !== undefined && (typeof restartCommand !== 'string' || restartCommand.trim() === '')) {
    throw bad(`--restart-command needs a shell command, got ${shownValue(restartCommand)}`)
  }
  if (!cold && restartCommand !== undefined) throw bad('--restart-command goes with --cold: it restarts the server before the measured run')
  if (!cold && keepPageCache) throw bad('--keep-page-cache goes with --cold')
  return { cold, keepPageCache, restartCommand }
}

/**
 * A workload's own default warm-up (TPC-C's ramp-up when paced), for a run of a duration when
 * --warmup is not given; `rampUp.reason` says why it lasts that long.
 */
function workloadWarmup (module, plan, givenWarmup) {
  // A cold start is about the ramp-up: measured from the start unless --warmup says otherwise.
  // A load profile is its own ramp: its stages start where they say.
  if (givenWarmup !== undefined || plan.durationS === undefined || plan.cold || plan.stages || plan.clientsStages) return {}
  const ramp = module.defaultWarmup?.(plan.workloadOptions)
  return ramp ? { warmupS: ramp.warmupS, rampUp: { reason: ramp.reason } } : {}
}

/** The workload's options: those of script runs, and the module's own `runOptions`, checked by the module. */
function workloadOptions (module, w, logOptions) {
  const own = Object.keys(module.runOptions ?? {}).map((k) => k.replace(/-([a-z])/g, (_, c) => c.toUpperCase()))
  for (const key of Object.keys(w)) if (!SCRIPT_OPTIONS.includes(key) && !own.includes(key)) throw bad(`unknown option ${JSON.stringify(key)} of workload ${module.name}`)
  const out = {}
  for (const key of own) if (w[key] !== undefined && w[key] !== null) out[key] = w[key]
  Object.assign(out, {
    define: scriptVariables(w.define),
    scale: logOptions.scale,
    noVacuum: booleanOption(w.noVacuum, '--no-vacuum', false),
    vacuumAccounts: booleanOption(w.vacuumAccounts, '--vacuum-all', false),
    reportPerCommand: booleanOption(w.reportPerCommand, '--report-per-command', false),
    log: logOptions.log,
    aggregateIntervalS: logOptions.aggregateIntervalS,
    logPrefix: logOptions.logPrefix,
    samplingRate: logOptions.samplingRate
  })
  // Mistakes in the workload's options are reported before any server is started or reached.
  module.validateRunOptions?.(out)
  return out
}

/** --shard/--shards: which shard this is; without --seed, all shards take the seed of the run id. */
function sharding (opt, plan) {
  const shard = resolveShard({ shard: opt('shard'), shards: opt('shards'), shardIndex: opt('shardIndex'), runId: opt('runId'), shardTimeout: opt('shardTimeout') }, plan)
  if (!shard) return {}
  return plan.seedGiven ? { shard } : { shard, seed: shardSeed(shard.runId) }
}

/** The workload options of both layers, the input's where it gives one (undefined and null give none). */
function mergeGiven (lower, higher) {
  const out = { ...lower }
  for (const [k, v] of Object.entries(higher ?? {})) if ((v !== undefined && v !== null) || !(k in out)) out[k] = v
  return out
}

function oneOf (value, allowed, flag) {
  if (!allowed.includes(value)) throw bad(`${flag} must be one of ${allowed.join(', ')}, got ${shownValue(value)}`)
  return value
}

/** Absent options are absent keys, so that a JSON round trip gives the same plan. */
function withoutUndefined (value) {
  if (Array.isArray(value)) return value.map(withoutUndefined)
  if (typeof value !== 'object' || value === null) return value
  const out = {}
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = withoutUndefined(v)
  return out
}

function deepFreeze (value) {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v)
    Object.freeze(value)
  }
  return value
}
