// A rolling baseline for `check --baseline stored:LABEL[:N]`: the median of the last N stored runs
// with that label (aborted and interrupted runs left out), per figure (tps and every latency percentile, whole run and per type), as a
// results document that thresholds read as they read a baseline file.

import { PgloadError } from '../errors.js'
import { SCHEMA_VERSION } from '../results/schema.js'
import { median as medianOf } from '../compare/statistics/distribution-free.js'

/** Runs a stored baseline is made of when `:N` is not given. */
export const STORED_BASELINE_RUNS = 5
const PREFIX = 'stored:'
const LATENCY = [['mean', 'mean_ms'], ['min', 'min_ms'], ['p50', 'p50_ms'], ['p90', 'p90_ms'], ['p95', 'p95_ms'], ['p99', 'p99_ms'], ['p999', 'p999_ms'], ['max', 'max_ms']]
const COUNTS = [['count', 'count'], ['failed', 'failed'], ['skipped', 'skipped'], ['tps', 'tps']]

/**
 * Whether a --baseline value names stored runs.
 * @param {string} value
 */
export function isStoredBaseline (value) {
  return typeof value === 'string' && value.startsWith(PREFIX)
}

/**
 * Parse `stored:LABEL[:N]`: a last `:N` of digits is the number of runs.
 * @param {string} value
 * @returns {{ label: string, count: number }}
 */
export function parseStoredBaseline (value) {
  const rest = value.slice(PREFIX.length)
  const m = /^(.*):(\d+)$/.exec(rest)
  const label = m ? m[1] : rest
  const count = m ? Number(m[2]) : STORED_BASELINE_RUNS
  if (label === '') throw new PgloadError(`--baseline ${value}: give the label of the stored runs, e.g. stored:main or stored:main:5`, { code: 'BAD_OPTION' })
  if (!(count >= 1)) throw new PgloadError(`--baseline ${value}: the number of runs must be at least 1`, { code: 'BAD_OPTION' })
  return { label, count }
}

/**
 * The median of the numbers among `values` (nulls left out), null when there are none.
 * @param {(number|null)[]} values
 * @returns {number|null}
 */
export function median (values) {
  const finite = values.filter((v) => v !== null && Number.isFinite(v))
  return finite.length === 0 ? null : medianOf(finite)
}

/**
 * @typedef {{ label: string, count: number, runs: { runId: number, startTime: string|null, sourceFile: string|null }[], doc: any }} StoredBaseline
 */

/**
 * The baseline made of the last `count` stored runs labelled `label` (by start time).
 * @param {import('../db/connection.js').PgConnection} conn
 * @param {{ label: string, count: number }} which
 * @returns {Promise<StoredBaseline>}
 * @throws {PgloadError} STORED_BASELINE_EMPTY when no run has that label
 */
export async function loadStoredBaseline (conn, { label, count }) {
  const runCols = ['tps', 'transactions', 'failed', 'skipped', 'duration_s', 'lag_p99_ms', 'tpmc', ...LATENCY.map(([, c]) => c)]
  const r = await conn.query(
    `select run_id, to_char(start_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), source_file, workload, ${runCols.join(', ')}
       from pgload.runs where label = $1 and aborted is not true and interrupted is not true
      order by start_time desc nulls last, run_id desc limit $2`, [label, count])
  if (r.rows.length === 0) {
    throw new PgloadError(`--baseline stored:${label}: no stored run has the label ${JSON.stringify(label)} (aborted and interrupted runs do not count)`, {
      code: 'STORED_BASELINE_EMPTY', hint: 'store runs with pgload run --label L --store, or pgload store FILES'
    })
  }
  const rows = r.rows.map((row) => Object.fromEntries(runCols.map((c, i) => [c, row[4 + i] === null ? null : Number(row[4 + i])])))
  const runs = r.rows.map((row) => ({ runId: Number(row[0]), startTime: row[1], sourceFile: row[2] })).reverse()
  const types = await typeMedians(conn, runs.map((x) => x.runId))
  const scenarios = await scenarioMedians(conn, runs.map((x) => x.runId), types)
  const of = (col) => median(rows.map((x) => x[col]))
  const tpmC = of('tpmc')
  const doc = {
    schemaVersion: SCHEMA_VERSION,
    run: { workload: r.rows[0][3], label, durationS: of('duration_s'), storedBaseline: { runs: runs.map((x) => x.runId) } },
    summary: {
      transactions: of('transactions'),
      failed: of('failed'),
      skipped: of('skipped'),
      tps: of('tps'),
      latencyMs: Object.fromEntries(LATENCY.map(([k, c]) => [k, of(c)])),
      lagMs: { p99: of('lag_p99_ms') }
    },
    transactions: types,
    intervals: [],
    ...(tpmC === null ? {} : { tpcc: { tpmC } }),
    // scenario runs: each scenario's medians, for thresholds on one scenario (`scenario(NAME): ...`)
    ...(scenarios === null ? {} : { scenarios })
  }
  return { label, count, runs, doc }
}

/** Per transaction type, the median of each figure over the runs that have that type. */
async function typeMedians (conn, runIds) {
  const cols = [...COUNTS, ...LATENCY].map(([, c]) => c)
  const r = await conn.query(
    `select txn_type, min(position), ${cols.map((c) => `array_agg(${c})`).join(', ')}
       from pgload.run_types where run_id = any($1::bigint[]) group by txn_type order by 2, 1`, [`{${runIds.join(',')}}`])
  return Object.fromEntries(r.rows.map((row) => [row[0], figureMedians(row, 2, COUNTS)]))
}

/** The count and latency figures of a row of `array_agg`s from column `at` on, as medians. */
function figureMedians (row, at, counts) {
  const values = (i) => parseArray(row[at + i])
  const t = {}
  counts.forEach(([k], i) => { t[k] = median(values(i)) })
  t.latencyMs = Object.fromEntries(LATENCY.map(([k], j) => [k, median(values(counts.length + j))]))
  return t
}

/**
 * Per scenario of scenario runs, the median of its figures, with its types' (named SCENARIO/TYPE
 * in the totals) under their own names; null when no run has scenarios.
 */
async function scenarioMedians (conn, runIds, types) {
  const counts = [['transactions', 'transactions'], ['failed', 'failed'], ['skipped', 'skipped'], ['tps', 'tps']]
  const cols = [...counts, ...LATENCY].map(([, c]) => c)
  const r = await conn.query(
    `select scenario, min(position), min(start_s), max(end_s), ${cols.map((c) => `array_agg(${c})`).join(', ')}
       from pgload.run_scenarios where run_id = any($1::bigint[]) group by scenario order by 2, 1`, [`{${runIds.join(',')}}`])
  if (r.rows.length === 0) return null
  return Object.fromEntries(r.rows.map((row) => {
    const name = row[0]
    const own = Object.entries(types).filter(([t]) => t.startsWith(`${name}/`)).map(([t, v]) => [t.slice(name.length + 1), v])
    return [name, { startS: Number(row[2]), endS: Number(row[3]), summary: figureMedians(row, 4, counts), transactions: Object.fromEntries(own), intervals: [] }]
  }))
}

/** A PostgreSQL array of numbers in its text form (`{1.5,NULL,2}`), as numbers and nulls. */
function parseArray (text) {
  return text.slice(1, -1).split(',').filter((s) => s !== '').map((s) => s === 'NULL' ? null : Number(s))
}

/**
 * One line saying which runs a stored baseline is made of.
 * @param {StoredBaseline} b
 * @returns {string}
 */
export function describeStoredBaseline (b) {
  const list = b.runs.map((x) => `#${x.runId} (${x.startTime ?? 'no start time'})`).join(', ')
  // the baseline takes the last N (stored:LABEL:N, or the default): say when fewer finished runs exist
  const fewer = b.runs.length < b.count ? ` (a baseline of up to ${b.count}: no other finished run has the label)` : ''
  return `baseline: median of ${b.runs.length} stored run${b.runs.length === 1 ? '' : 's'} labelled ${JSON.stringify(b.label)}${fewer}: ${list}`
}
