// A results document as the rows of the results database: one run, one row per transaction type,
// one per interval. Pure: the same document always gives the same rows and the same content key.

import { createHash } from 'node:crypto'
import { decodeHistogram, mergeHistograms, percentileMs, restoreRange } from '../metrics/histogram.js'

const num = (v) => typeof v === 'number' && Number.isFinite(v) ? v : null
const str = (v) => typeof v === 'string' ? v : null
const bool = (v) => typeof v === 'boolean' ? v : null
const int = (v) => Number.isInteger(v) ? v : null
const PERCENTILES = [['p50_ms', 50], ['p90_ms', 90], ['p95_ms', 95], ['p99_ms', 99], ['p999_ms', 99.9]]

/**
 * The content key of a document: the same results stored twice (from a copy, re-indented or
 * gzipped) give the same key, so they are one run.
 * @param {object} doc a parsed document
 * @returns {string} hex SHA-256 of its JSON text
 */
export function contentKey (doc) {
  return createHash('sha256').update(JSON.stringify(doc)).digest('hex')
}

/**
 * Latency columns from figures in ms (`latencyMs`), the percentiles read again from the
 * histogram when there is one (its exact min and max restored first, so they read as the
 * file's figures do). Mean and standard deviation are the file's: exact, not the histogram's.
 * @param {Record<string, number|null>|undefined} lat
 * @param {string|import('../metrics/histogram.js').Histogram|null|undefined} histogram encoded or decoded
 */
export function latencyColumns (lat, histogram) {
  const out = {
    mean_ms: num(lat?.mean),
    stddev_ms: num(lat?.stddev),
    min_ms: num(lat?.min),
    p50_ms: num(lat?.p50),
    p90_ms: num(lat?.p90),
    p95_ms: num(lat?.p95),
    p99_ms: num(lat?.p99),
    p999_ms: num(lat?.p999),
    max_ms: num(lat?.max)
  }
  if (!histogram) return out
  const h = typeof histogram === 'string' ? decodeHistogram(histogram) : histogram
  if (h.totalCount === 0) return out
  const us = (ms) => typeof ms === 'number' ? Math.round(ms * 1000) : null
  restoreRange(h, us(lat?.min), us(lat?.max))
  for (const [col, p] of PERCENTILES) out[col] = percentileMs(h, p)
  return out
}

/**
 * The `runs` row of a document (run_id and stored_at are the database's).
 * @param {any} doc a checked results document
 * @param {{ sourceFile?: string|null }} [opts]
 * @returns {Record<string, any>}
 */
export function runRow (doc, { sourceFile = null } = {}) {
  const run = doc.run
  const s = doc.summary
  return {
    content_key: contentKey(doc),
    label: str(run.label),
    workload: run.workload,
    command: str(run.command),
    start_time: str(run.startTime),
    end_time: str(run.endTime),
    duration_s: num(run.durationS),
    warmup_s: num(run.warmupS),
    clients: int(run.clients ?? run.terminals),
    connections: int(run.connections),
    scale: int(run.scale ?? doc.tpcc?.warehouses),
    // a capacity search's rate is its answer, the rate it sustained (its first step's is run.rate)
    rate: num(doc.capacity ? doc.capacity.answer?.rate : run.rate),
    protocol: str(run.protocol),
    transaction_types: Array.isArray(run.transactionTypes) ? run.transactionTypes : Object.keys(doc.transactions),
    seed: run.seed === undefined || run.seed === null ? null : String(run.seed),
    options: run.options ?? {},
    aborted: bool(run.aborted),
    interrupted: bool(run.interrupted),
    tool_version: str(doc.tool?.version),
    node_version: str(doc.tool?.node),
    server_version: str(doc.server?.version),
    server_version_num: int(doc.server?.versionNum),
    server_embedded: bool(doc.server?.embedded),
    server_target: str(doc.server?.target),
    server_settings: doc.serverStats?.settings ?? null,
    host_name: str(doc.host?.hostname),
    host_cpus: int(doc.host?.cpus),
    host_memory_bytes: num(doc.host?.memoryBytes),
    host_platform: str(doc.host?.platform),
    host_arch: str(doc.host?.arch),
    ...counters(s),
    unfinished: num(s.unfinished),
    outcome_unknown: num(s.outcomeUnknown),
    ...(doc.capacity ? answerFigures(doc.capacity) : { tps: num(s.tps), ...latencyColumns(s.latencyMs, wholeRunHistogram(doc)) }),
    lag_p99_ms: num(s.lagMs?.p99),
    tpmc: num(doc.tpcc?.tpmC),
    errors: s.errors ?? null,
    source_file: sourceFile
  }
}

function counters (s) {
  return {
    transactions: num(s.transactions),
    failed: num(s.failed),
    skipped: num(s.skipped),
    retried: num(s.retried),
    retries: num(s.retries),
    late: num(s.late),
    rollbacks: num(s.rollbacks)
  }
}

/**
 * A capacity search's throughput and latency columns: its answer's, the rate it sustained and the
 * latency of the step that sustained it (the whole run's mix every step's rate and latency, and
 * would list a search at a rate it never held). A step records p50, p90, p99 and max; the other
 * columns stay empty rather than hold the whole run's. No step held: no figures.
 * @param {{ steps?: any[], answer?: { rate?: number|null, heldStep?: number|null } }} capacity
 */
export function answerFigures (capacity) {
  const held = capacity.steps?.find((st) => st.index === capacity.answer?.heldStep)
  const lat = held?.latencyMs
  return {
    tps: held ? num(capacity.answer.rate) : null,
    ...latencyColumns({ p50: lat?.p50, p90: lat?.p90, p99: lat?.p99, max: lat?.max }, null)
  }
}

// The run's (or a scenario's) whole histogram: the sum of its types' (never an average of their percentiles).
function wholeRunHistogram (doc) {
  const encoded = Object.values(doc.transactions).map((t) => t.histogram)
  if (encoded.length === 0 || !encoded.every((e) => typeof e === 'string')) return null
  return encoded.length === 1 ? encoded[0] : mergeHistograms(encoded)
}

/**
 * The `run_types` rows of a document, in the order of its transaction types (run_id added by the caller).
 * @param {any} doc
 * @returns {Record<string, any>[]}
 */
export function typeRows (doc) {
  const scenarios = doc.scenarios && typeof doc.scenarios === 'object' ? doc.scenarios : null
  return Object.entries(doc.transactions).map(([name, t], position) => ({
    txn_type: name,
    // a scenario run's types are named SCENARIO/TYPE: the scenario they belong to
    scenario: scenarios ? scenarioOfType(name, scenarios) : null,
    position,
    count: num(t.count),
    failed: num(t.failed),
    skipped: num(t.skipped),
    rollbacks: num(t.rollbacks),
    retries: num(t.retries),
    tps: num(t.tps),
    ...latencyColumns(t.latencyMs, t.histogram),
    errors: t.errors ?? null,
    histogram: str(t.histogram)
  }))
}

/** The scenario a total's type `SCENARIO/TYPE` belongs to (scenario names have no `/`). */
function scenarioOfType (name, scenarios) {
  const cut = name.indexOf('/')
  return cut > 0 && Object.hasOwn(scenarios, name.slice(0, cut)) ? name.slice(0, cut) : null
}

/**
 * The `run_scenarios` rows of a scenario run, in the file's order (none for other runs): each
 * scenario's window, size and figures in the columns of the run's own row.
 * @param {any} doc
 * @returns {Record<string, any>[]}
 */
export function scenarioRows (doc) {
  if (!doc.scenarios || typeof doc.scenarios !== 'object') return []
  return Object.entries(doc.scenarios).map(([name, sc], position) => {
    const s = sc.summary
    return {
      scenario: name,
      position,
      workload: str(sc.workload),
      start_s: num(sc.startS),
      end_s: num(sc.endS),
      clients: int(sc.clients),
      connections: int(sc.connections),
      tags: sc.tags ?? null,
      ...counters(s),
      unfinished: num(s.unfinished),
      outcome_unknown: num(s.outcomeUnknown),
      tps: num(s.tps),
      ...latencyColumns(s.latencyMs, wholeRunHistogram(sc)),
      lag_p99_ms: num(s.lagMs?.p99),
      tpmc: null,
      errors: s.errors ?? null
    }
  })
}

/**
 * The `run_intervals` rows: the per-interval series, one row per entry of `intervals`.
 * @param {any} doc
 * @returns {Record<string, any>[]}
 */
export function intervalRows (doc) {
  return doc.intervals.map((iv, seq) => ({
    seq,
    t_s: iv.t,
    length_s: num(iv.lengthS),
    transactions: typeof iv.count === 'object' && iv.count !== null ? Object.values(iv.count).reduce((a, b) => a + (num(b) ?? 0), 0) : num(iv.count),
    tps: num(iv.tps),
    failed: num(iv.failed),
    skipped: num(iv.skipped),
    p50_ms: num(iv.latencyMs?.p50),
    p90_ms: num(iv.latencyMs?.p90),
    p99_ms: num(iv.latencyMs?.p99),
    max_ms: num(iv.latencyMs?.max),
    lag_p99_ms: num(iv.lagMs?.p99),
    queue_p99_ms: num(iv.queueMs?.p99),
    counts: typeof iv.count === 'object' ? iv.count : null
  }))
}
