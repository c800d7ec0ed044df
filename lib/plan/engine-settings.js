// The engine's settings: the frozen plan turned once into what Run, ThreadedRun, the worker
// threads, the terminals and the canceller read, fully defaulted and in the engine's units
// (microseconds, a parsed think-time distribution, the pool size, paced or not). A pure function:
// a worker thread calls it on the same plan and gets the same settings.

import { DEFAULTS } from './defaults.js'
import { wholeRange } from './partition.js'
import { thinkTimeDistribution } from './think-time.js'
import { stageProfile } from './profile.js'
import { typeTargets } from './route-options.js'

/**
 * @typedef {object} EngineSettings (frozen)
 * @property {number} terminals the run's terminals: the workload's own number, else --clients
 * @property {import('./partition.js').TerminalRange} range the terminals this part runs (a
 *   shard's, a worker thread's), keeping their numbers; the whole run when not cut
 * @property {number} connections the part's pool size (with connectPerTransaction: its terminals)
 * @property {boolean} connectPerTransaction pgbench -C
 * @property {boolean} paced some transaction type waits (keying or think time, --think-time):
 *   a terminal first waits, progress lines count terminals, the default pool is smaller
 * @property {import('../options/distribution.js').Distribution|null} thinkTime --think-time,
 *   parsed, for every type without its own; null: none
 * @property {number} durationUs the measured duration; 0 when the run lasts transactionsPerClient
 * @property {number} transactionsPerClient pgbench -t; 0 with a duration
 * @property {number} rate the part's arrivals per second (--rate, its share); 0: closed model
 * @property {number} latencyLimitUs pgbench -L; 0: none
 * @property {number} warmupUs before the measured window
 * @property {number} intervalUs one entry of the time series
 * @property {number} maxTries 0: unlimited
 * @property {number} graceUs transactions in flight get this long once the run stops
 * @property {number} transactionTimeoutUs 0: never
 * @property {number} serverLostUs the run ends when no connection could be opened for this long
 * @property {boolean} exitOnAbort
 * @property {boolean} verboseErrors
 * @property {import('./profile.js').StageProfile|null} profile --stages or --clients-stages, with
 *   the whole run's targets (a part takes its share of rates and queue by its terminals:
 *   range.count / terminals; of clients by terminal number); null: one load from start to end
 * @property {number} rampUs --ramp: terminal i starts at i / terminals of it; 0: none
 * @property {readonly number[]} typeTargets per transaction type, the server it runs on: 0 the
 *   run's own, i > 0 the plan's routeTargets[i - 1] (--route)
 * @property {boolean} staleness --staleness: writers stamp, routed reads check (lib/engine/staleness.js)
 * @property {number} slowest --explain-slowest: the slowest transactions kept per type; 0: none
 */

/**
 * What the settings need to know of the workload (its functions stay with it).
 * @typedef {object} WorkloadShape
 * @property {{ name: string, thinkUs?: any, keyingUs?: any }[]} transactions
 * @property {number} [terminals] the workload fixes the number of terminals (TPC-C)
 * @property {number} [defaultConnections] its pool size when --connections is not given
 */

/**
 * The engine's settings of a plan, for the whole run or one part of it.
 * @param {import('./resolve.js').RunPlan} plan frozen and resolved (every default applied)
 * @param {WorkloadShape} workload
 * @param {{ range?: import('./partition.js').TerminalRange, connections?: number, rate?: number }} [part]
 *   a part of the run: its terminals, and its share of the connections and of --rate when the
 *   whole run's were shared out already (worker threads); absent: in proportion to its terminals
 * @returns {Readonly<EngineSettings>}
 */
export function engineSettings (plan, workload, part = {}) {
  const terminals = workload.terminals ?? plan.clients
  const range = part.range ?? wholeRange(terminals)
  if (range.total !== terminals) throw new RangeError(`terminal range of ${range.total}, the run has ${terminals}`)
  const thinkTime = thinkTimeDistribution(plan.thinkTime)
  const paced = isPaced(workload, thinkTime)
  const connect = Boolean(plan.connect)
  const pool = connect ? range.count : (part.connections ?? poolSize(plan, workload, paced, range.count))
  const durationS = plan.durationS ?? 0
  return Object.freeze({
    terminals,
    range: Object.freeze({ ...range }),
    connections: Math.min(range.count, pool),
    connectPerTransaction: connect,
    paced,
    thinkTime,
    durationUs: durationS * 1e6,
    transactionsPerClient: durationS > 0 ? 0 : plan.transactionsPerClient ?? 0,
    rate: part.rate ?? (plan.rate > 0 ? plan.rate * range.count / terminals : plan.rate),
    latencyLimitUs: plan.latencyLimitMs * 1000,
    warmupUs: plan.warmupS * 1e6,
    intervalUs: plan.intervalS * 1e6,
    maxTries: plan.maxTries,
    graceUs: plan.graceS * 1e6,
    transactionTimeoutUs: plan.transactionTimeoutS * 1e6,
    serverLostUs: (plan.reconnectWindowS ?? DEFAULTS.reconnectWindowS) * 1e6,
    exitOnAbort: Boolean(plan.exitOnAbort),
    verboseErrors: Boolean(plan.verboseErrors),
    profile: stageProfile(plan),
    rampUs: (plan.rampS ?? 0) * 1e6,
    typeTargets: Object.freeze(typeTargets(plan, workload.transactions)),
    staleness: Boolean(plan.staleness),
    // the slowest transactions whose parameters are kept, per type (--explain-slowest)
    slowest: plan.explainSlowest ?? 0
  })
}

/**
 * Paced: some type waits before or after its transaction.
 * @param {WorkloadShape} workload @param {any} thinkTime
 */
export function isPaced (workload, thinkTime) {
  return Boolean(thinkTime) || workload.transactions.some((t) => t.thinkUs || t.keyingUs)
}

/**
 * The pool of `count` of the run's terminals: --connections, else the workload's choice, else
 * one per terminal (paced: at most 32), a part getting its share in proportion to its terminals.
 */
function poolSize (plan, workload, paced, count) {
  const all = workload.terminals ?? plan.clients
  const whole = plan.connections ?? workload.defaultConnections ?? (paced ? Math.min(all, 32) : all)
  if (count === all || plan.connections !== undefined) return whole
  return Math.max(1, Math.round(whole * count / all))
}

/**
 * The settings of one part of a run already cut (a worker thread's): its terminals, and its
 * shares of the connections and of --rate.
 * @param {Readonly<EngineSettings>} settings the whole run's (or the shard's)
 * @param {{ range: import('./partition.js').TerminalRange, connections: number, rate: number }} part
 * @returns {Readonly<EngineSettings>}
 */
export function partSettings (settings, { range, connections, rate }) {
  const own = settings.connectPerTransaction ? range.count : Math.min(range.count, connections)
  return Object.freeze({ ...settings, range: Object.freeze({ ...range }), connections: own, rate })
}

/**
 * Settings as data for another thread: the think-time distribution (functions) as its spec.
 * @param {Readonly<EngineSettings>} settings
 */
export function sendableSettings (settings) {
  return { ...settings, thinkTime: settings.thinkTime?.spec ?? null }
}

/**
 * Settings received from another thread (sendableSettings), frozen again.
 * @param {any} sent
 * @returns {Readonly<EngineSettings>}
 */
export function receivedSettings (sent) {
  const thinkTime = thinkTimeDistribution(sent.thinkTime)
  return Object.freeze({ ...sent, range: Object.freeze({ ...sent.range }), thinkTime })
}
