// The results document's schema (docs/results-format.md) as field rules, and the deep check every
// reader runs: types of every field report, compare and check read, decodable histograms that hold
// as many values as the counts they stand for.

import { PgloadError } from '../errors.js'
import { inspectHistogram } from './histogram-check.js'
import { failover } from './schema-failover.js'
import { targets, staleness } from './schema-routes.js'
import { count, countOrNull, amount, amountOrNull, anyNumberOrNull, text, textOrNull, counts } from './schema-values.js'
import { waits } from './schema-waits.js'
import { slowest } from './schema-slowest.js'
import { scenariosRule } from './schema-scenarios.js'
import { FieldProblem, number, boolean, either, object, mapOf, arrayOf, refine, describe, memberPath } from './rules.js'
import { round3 } from '../format/round.js'
import { checkDerived } from './derived-check.js'

/** The results schema version this build writes and reads. */
export const SCHEMA_VERSION = 1

/** Error code of every results file pgload cannot use (unreadable, not JSON, wrong field). */
export const RESULTS_INVALID = 'RESULTS_INVALID'

/** latencyMs, lagMs, queueMs: { mean, stddev, min, p50, ..., max }, null when nothing was measured */
const figures = mapOf(amountOrNull)
/**
 * @typedef {object} CountedHistogram a histogram that stands for a count, in the object holding it
 * @property {string[]} at path keys of the histogram
 * @property {any} encoded the histogram (undefined: absent, nothing to check)
 * @property {string[]} countAt path keys of the count
 * @property {number|undefined|null} expected the count (undefined: missing, as 0; null: nothing to hold it to)
 * @property {boolean} [sum] the count is the sum of the counts at countAt
 */

/**
 * An object's rule, then its histograms that stand for a count: each readable and holding as many
 * values as that count says (a histogram that contradicts its count would pass a threshold its
 * run fails). One walk over the encoding does both.
 * @param {import('./rules.js').Rule} rule the object's rule, with those histograms as plain text
 * @param {(v: any) => CountedHistogram[]} histogramsOf
 * @returns {import('./rules.js').Rule}
 */
function counted (rule, histogramsOf) {
  return (v, path) => {
    rule(v, path)
    if (v === null) return
    for (const { at, encoded, countAt, expected, sum } of histogramsOf(v)) {
      if (encoded === undefined) continue
      const { problem, totalCount } = inspectHistogram(encoded)
      if (problem) throw new FieldProblem(at.reduce(memberPath, path), `not a readable histogram: ${problem}`)
      if (expected === null || totalCount === (expected ?? 0)) continue
      const countPath = countAt.reduce(memberPath, path)
      const stated = expected === undefined ? `${countPath} is missing` : sum ? `${countPath} adds up to ${expected}` : `${countPath} is ${expected}`
      throw new FieldProblem(at.reduce(memberPath, path), `holds ${totalCount} value${totalCount === 1 ? '' : 's'}, but ${stated}`)
    }
  }
}

const run = object({
  workload: text,
  command: textOrNull,
  options: object({}),
  seed: either('a string, an integer or null', textOrNull, number({ integer: true })),
  startTime: textOrNull,
  endTime: textOrNull,
  durationS: amountOrNull,
  warmupS: amountOrNull,
  clients: countOrNull,
  terminals: countOrNull,
  connections: countOrNull,
  threads: countOrNull,
  protocol: textOrNull,
  paced: boolean,
  scale: amountOrNull,
  rate: amountOrNull,
  transactionTypes: arrayOf(text),
  weights: mapOf(amount),
  aborted: boolean,
  abortedClients: countOrNull,
  abortReason: textOrNull,
  interrupted: boolean,
  label: textOrNull,
  cancelled: mapOf(count, { nullable: true }),
  afterLoad: object({ loadS: amountOrNull, settleS: amountOrNull, vacuumed: boolean, checkpointed: boolean }, { nullable: true }),
  // one shard's results (--shard), and a merge of all shards of a run
  shard: object({
    runId: text,
    index: count,
    count: number({ min: 1, integer: true }),
    serverStats: boolean,
    clockOffsetMs: anyNumberOrNull,
    clockRttMs: amountOrNull,
    scheduledStart: textOrNull,
    startedLateMs: anyNumberOrNull,
    waitedMs: amountOrNull
  }, { nullable: true, required: ['runId', 'index', 'count'] }),
  shards: object({ runId: text, count: number({ min: 1, integer: true }), scheduledStart: textOrNull, startSkewMs: amountOrNull }, { nullable: true, required: ['runId', 'count'] }),
  // --trigger: when the command ran in the measured window, how long it took, how it ended
  trigger: object({ command: text, atS: amountOrNull, seconds: amountOrNull, error: textOrNull }, { nullable: true, required: ['command'] }),
  // --cold: what the cold start before the measured run did
  cold: object({ restarted: boolean, method: textOrNull, restartS: amountOrNull, pageCacheDropped: boolean, pageCacheNote: textOrNull }, { nullable: true, required: ['restarted', 'pageCacheDropped'] })
}, { required: ['workload'] })

const client = object({
  cpuUs: amountOrNull,
  cpuUsPerTxn: amountOrNull,
  userUsPerTxn: amountOrNull,
  systemUsPerTxn: amountOrNull,
  eventLoopUtilization: amountOrNull,
  onCpuShare: amountOrNull,
  cpuWaitShare: amountOrNull,
  cpuWaitUsPerTxn: amountOrNull,
  jitWarmup: object({ transactions: countOrNull, ms: amountOrNull }, { nullable: true }),
  // -j N: the main thread's own CPU, each worker thread's part and its own CPU and event loop
  mainThreadCpuUs: amountOrNull,
  threads: arrayOf(object({
    thread: count,
    crashed: boolean,
    firstTerminal: count,
    terminals: count,
    connections: count,
    transactions: count,
    cpuUs: amountOrNull,
    cpuUsPerTxn: amountOrNull,
    eventLoopUtilization: amountOrNull,
    onCpuShare: amountOrNull,
    cpuWaitShare: amountOrNull
  }, { required: ['thread'] }), { nullable: true })
}, { nullable: true })

const outcomeCounts = {
  failed: count,
  skipped: count,
  retried: count,
  retries: count,
  late: count,
  rollbacks: count,
  unfinished: count,
  outcomeUnknown: count,
  tps: amountOrNull,
  latencyMs: figures,
  errors: counts
}

// Every committed transaction has a schedule lag and a queue wait (under 1 us recorded as 1 us).
const summary = counted(object({
  ...outcomeCounts,
  transactions: count,
  initialConnectionMs: amountOrNull,
  lagMs: figures,
  queueMs: figures,
  lagHistogram: text,
  queueHistogram: text,
  // --stages: arrivals dropped (the queue was full) and arrivals that came
  dropped: count,
  arrivals: count,
  unfinishedWaitMs: mapOf(amountOrNull, { nullable: true }),
  steadyState: object({
    timeS: amountOrNull,
    medianTps: amountOrNull,
    band: amount,
    graceS: amount,
    bucketS: amountOrNull,
    medianFromS: amountOrNull,
    reason: textOrNull
  }, { nullable: true })
}, { required: ['transactions', 'tps', 'latencyMs'] }), (s) => [
  { at: ['lagHistogram'], encoded: s.lagHistogram, countAt: ['transactions'], expected: s.transactions },
  { at: ['queueHistogram'], encoded: s.queueHistogram, countAt: ['transactions'], expected: s.transactions }
])

const wait = object({ mean: amountOrNull }, { nullable: true })
const transaction = counted(object({ ...outcomeCounts, count, keyingMs: wait, thinkMs: wait, histogram: text }, { required: ['count'] }),
  (t) => [{ at: ['histogram'], encoded: t.histogram, countAt: ['count'], expected: t.count }])

const interval = counted(object({
  t: amount,
  lengthS: amount,
  count: counts,
  tps: amountOrNull,
  failed: count,
  skipped: count,
  latencyMs: figures,
  lagMs: figures,
  queueMs: figures,
  histograms: mapOf(text),
  lagHistogram: text,
  queueHistogram: text
}, { required: ['t'] }), intervalHistograms)

/**
 * An interval's histograms with the counts they stand for: each type's its count, lag and queue
 * the interval's total. An interval without counts (written before they were) holds nothing.
 * @param {any} iv
 * @returns {CountedHistogram[]}
 */
function intervalHistograms (iv) {
  const byType = Object.entries(iv.histograms ?? {})
  if (iv.count === undefined) return byType.map(([name, h]) => ({ at: ['histograms', name], encoded: h, countAt: [], expected: null }))
  const total = Object.values(iv.count).reduce((a, n) => a + n, 0)
  return [
    ...byType.map(([name, h]) => ({ at: ['histograms', name], encoded: h, countAt: ['count', name], expected: iv.count[name] })),
    { at: ['lagHistogram'], encoded: iv.lagHistogram, countAt: ['count'], expected: total, sum: true },
    { at: ['queueHistogram'], encoded: iv.queueHistogram, countAt: ['count'], expected: total, sum: true }
  ]
}

// Slack for lengths and times rounded to milliseconds by the writer.
const ROUNDING_S = 0.01

// Interval ends (t) never go back, and an interval lasts no longer than the time since the one
// before it ended: the report draws them in order, compare turns counts into rates by lengthS.
const intervals = refine(arrayOf(interval), (list) => {
  for (let i = 0; i < list.length; i++) {
    const prevT = i === 0 ? 0 : list[i - 1].t
    if (list[i].t < prevT) return `interval ${i} ends at t = ${list[i].t}, before interval ${i - 1} (t = ${prevT})`
    if (list[i].lengthS > list[i].t - prevT + ROUNDING_S) {
      return `interval ${i} lasts ${list[i].lengthS} s but ends ${round3(list[i].t - prevT)} s after ${i === 0 ? 'the start' : `interval ${i - 1}`}`
    }
  }
  return null
})

// stages[] (docs/results-format.md): each stage a window of the run, with the run's summary and
// per-type fields over the stage, its histograms held to its counts as the run's are
const stageKind = refine(text, (k) => k === 'rate' || k === 'clients' ? null : `expected 'rate' or 'clients', got ${describe(k)}`)
const stage = refine(object({
  index: count,
  kind: stageKind,
  startS: amount,
  endS: amount,
  lengthS: amount,
  target: object({ from: amount, to: amount }, { required: ['from', 'to'] }),
  ramp: boolean,
  offeredTps: amountOrNull,
  achievedTps: amountOrNull,
  dropped: count,
  countedBy: refine(text, (v) => v === 'arrival' ? null : `expected 'arrival', got ${describe(v)}`),
  summary,
  transactions: mapOf(transaction)
}, { required: ['index', 'kind', 'startS', 'endS', 'lengthS', 'target', 'summary', 'transactions'] }), (s) => {
  const byType = Object.entries(s.transactions).reduce((n, [, t]) => n + t.count, 0)
  if (byType !== s.summary.transactions) return `summary.transactions is ${s.summary.transactions}, but its transaction types add up to ${byType}`
  if (s.dropped !== undefined && s.summary.dropped !== undefined && s.dropped !== s.summary.dropped) return `dropped is ${s.dropped}, but summary.dropped is ${s.summary.dropped}`
  return null
})

// Stages in order, back to back, of one kind.
const stages = refine(arrayOf(stage, { nullable: true }), (list) => {
  if (list === null) return null
  for (let i = 0; i < list.length; i++) {
    const s = list[i]
    if (s.index !== i) return `stage ${i} has index ${s.index}`
    if (s.kind !== list[0].kind) return `stage ${i} is a ${s.kind} stage, stage 0 a ${list[0].kind} stage`
    if (i > 0 && Math.abs(s.startS - list[i - 1].endS) > ROUNDING_S) return `stage ${i} starts at ${s.startS} s, not where stage ${i - 1} ends (${list[i - 1].endS} s)`
  }
  return null
})

// pg_stat_io: per-second rates by backend type in each sample, the window's deltas per row
const ioRates = mapOf(object({ reads: amount, writes: amount, extends: amount, fsyncs: amount }), { nullable: true })
// the server host's CPU (% of all cores' time) and disk per sample, over the window and at most
const share = refine(amount, (v) => (v > 100 ? `a share of the CPU time above 100 %: ${v}` : null))
const hostFigures = object({
  cpu: object({ busy: share, user: share, system: share, iowait: share, steal: share, idle: share }, { nullable: true }),
  disk: object({ readsPerS: amount, writesPerS: amount, readBytesPerS: amount, writeBytesPerS: amount, queue: amount }, { nullable: true })
}, { nullable: true })
const hostStats = object({
  available: boolean,
  reason: text,
  disk: object({ name: textOrNull, devices: arrayOf(text), scope: text }, { nullable: true }),
  samples: count,
  window: hostFigures,
  max: object({ cpu: mapOf(share, { nullable: true }), disk: mapOf(amount, { nullable: true }) })
}, { required: ['available'], nullable: true })
const sample = object({ t: anyNumberOrNull, ioPerS: ioRates, host: hostFigures })
const ioRow = object({
  backendType: text, object: text, context: text, reads: countOrNull, writes: countOrNull, extends: countOrNull, fsyncs: countOrNull
}, { required: ['backendType', 'object', 'context'] })
const serverStats = object({
  deltas: mapOf(anyNumberOrNull),
  perTransaction: mapOf(anyNumberOrNull),
  tables: mapOf(object({})),
  io: arrayOf(ioRow, { nullable: true }),
  host: hostStats,
  series: arrayOf(sample),
  events: arrayOf(object({ t: anyNumberOrNull, kind: text })),
  statements: object({ top: arrayOf(object({})), writes: object({ statements: count, readOnly: boolean, blksDirtied: countOrNull, walFpi: countOrNull }) }),
  settings: object({}),
  tableSizes: mapOf(object({}))
}, { nullable: true })

const tpcc = object({
  tpmC: amountOrNull,
  nopm: amountOrNull,
  efficiency: amountOrNull,
  warehouses: countOrNull,
  responseTime: mapOf(object({ p90Ms: amountOrNull, limitMs: amountOrNull }, { nullable: true })),
  mix: object({})
}, { nullable: true })

// pooler: PgBouncer read at each interval (docs/results-format.md, "pooler")
const poolerEntry = object({
  t: amount,
  lengthS: amount,
  clientsActive: countOrNull,
  clientsWaiting: countOrNull,
  maxWaitMs: amountOrNull,
  serversActive: countOrNull,
  serversIdle: countOrNull,
  serversUsed: countOrNull,
  transactions: countOrNull,
  tps: amountOrNull,
  qps: amountOrNull,
  waitS: amountOrNull,
  waitMs: amountOrNull
}, { required: ['t', 'lengthS'] })
// its entries in time order, and the run's figures no more than its entries hold
const pooler = refine(object({
  kind: text,
  version: text,
  found: text,
  database: text,
  user: text,
  poolMode: textOrNull,
  poolSize: countOrNull,
  maxPreparedStatements: countOrNull,
  maxClientsWaiting: countOrNull,
  waitingIntervals: count,
  waitingS: amount,
  longestWaitMs: amountOrNull,
  maxServersActive: countOrNull,
  transactions: countOrNull,
  waitS: amountOrNull,
  waitMs: amountOrNull,
  series: arrayOf(poolerEntry)
}, { nullable: true, required: ['kind', 'version', 'series'] }), (p) => {
  if (p === null) return null
  const at = p.series.findIndex((e, i) => i > 0 && e.t < p.series[i - 1].t)
  if (at > 0) return `series[${at}] ends at t = ${p.series[at].t}, before series[${at - 1}] (t = ${p.series[at - 1].t})`
  if (p.waitingIntervals > p.series.length) return `waitingIntervals is ${p.waitingIntervals}, but the series has ${p.series.length} entries`
  const most = p.series.reduce((m, e) => Math.max(m, e.clientsWaiting ?? 0), 0)
  if (p.maxClientsWaiting !== null && p.maxClientsWaiting !== undefined && p.maxClientsWaiting !== most) return `maxClientsWaiting is ${p.maxClientsWaiting}, but the series' most is ${most}`
  return null
})

const document = object({
  tool: object({}),
  run,
  server: object({}, { nullable: true }),
  host: object({}, { nullable: true }),
  client,
  summary,
  transactions: mapOf(transaction),
  intervals,
  stages,
  serverStats,
  waits,
  slowest,
  tpcc,
  pooler,
  failover,
  targets,
  staleness,
  script: object({}, { nullable: true }),
  thresholds: arrayOf(object({}), { nullable: true }),
  scenarios: scenariosRule({ summary, transaction, intervals, stages })
}, { required: ['run', 'summary', 'transactions', 'intervals'] })

/**
 * Throw a PgloadError (code RESULTS_INVALID) naming the source and the first wrong field,
 * `run.json: intervals[0]: expected an object, got null`, unless `doc` is a results document
 * of this schema version that every reader can use.
 * @param {any} doc a parsed results document
 * @param {string} [source] the file name (or label) for the message
 * @returns {any} the same document
 */
export function validateResults (doc, source = 'results') {
  try {
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
      throw new FieldProblem('(document)', `expected a JSON object, got ${describe(doc)}`)
    }
    if (!Object.hasOwn(doc, 'schemaVersion')) throw new FieldProblem('schemaVersion', 'missing (not a pgload results file)')
    if (doc.schemaVersion !== SCHEMA_VERSION) {
      throw new FieldProblem('schemaVersion', `this pgload reads version ${SCHEMA_VERSION}, got ${describe(doc.schemaVersion)}`)
    }
    document(doc, '')
    checkDerived(doc)
  } catch (err) {
    if (!(err instanceof FieldProblem)) throw err
    throw new PgloadError(`${source}: ${err.message}`, { code: RESULTS_INVALID })
  }
  return doc
}
