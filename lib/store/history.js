// `pgload history`'s data: stored runs chosen by label and workload, the newest N, oldest first,
// with the figure the user asked for; and their table.

import { PgloadError } from '../errors.js'
import { alignTable } from '../compare/format.js'

/** The metrics history can chart: the runs column each reads, its title and unit. */
export const HISTORY_METRICS = Object.freeze({
  tps: { column: 'tps', title: 'throughput', unit: 'tps' },
  mean: { column: 'mean_ms', title: 'mean latency', unit: 'ms' },
  p50: { column: 'p50_ms', title: 'p50 latency', unit: 'ms' },
  p90: { column: 'p90_ms', title: 'p90 latency', unit: 'ms' },
  p95: { column: 'p95_ms', title: 'p95 latency', unit: 'ms' },
  p99: { column: 'p99_ms', title: 'p99 latency', unit: 'ms' },
  p999: { column: 'p999_ms', title: 'p99.9 latency', unit: 'ms' },
  max: { column: 'max_ms', title: 'max latency', unit: 'ms' },
  failed: { column: 'failed', title: 'failed transactions', unit: '' },
  tpmc: { column: 'tpmc', title: 'tpmC', unit: 'tpmC' }
})

/** Defaults of `history`. */
export const HISTORY_DEFAULTS = {
  metric: 'tps', // the charted figure (HISTORY_METRICS)
  limit: 50 // the newest runs shown
}

/**
 * @typedef {{ runId: number, startTime: string|null, label: string|null, workload: string, clients: number|null,
 *   scale: number|null, tps: number|null, p50: number|null, p99: number|null, max: number|null, value: number|null,
 *   connections?: number|null, rate?: number|null, protocol?: string|null, jobs?: number|null, scripts?: any, workloadOptions?: any,
 *   capacity?: boolean, scenario?: string }} HistoryRun rate: a capacity search's answer; scenario: the figures are that scenario's
 *   the last six: the set-up a trend line joins by (lib/store/history-trends.js)
 */

/**
 * The metric's definition, or a one-line error naming the valid ones.
 * @param {string} name
 */
export function historyMetric (name) {
  const m = HISTORY_METRICS[name]
  if (!m) throw new PgloadError(`--metric must be one of ${Object.keys(HISTORY_METRICS).join(', ')}, got ${JSON.stringify(name)}`, { code: 'BAD_OPTION' })
  return { name, ...m }
}

const toNumber = (v) => v === null ? null : Number(v)

/**
 * The newest `limit` stored runs matching the label and workload, oldest first.
 * @param {import('../db/connection.js').PgConnection} conn
 * @param {{ label?: string|null, workload?: string|null, scenario?: string|null, metric?: string, limit?: number }} [opts]
 *   scenario: that scenario of scenario runs (its figures, workload and clients), the runs without it left out
 * @returns {Promise<HistoryRun[]>}
 */
export async function queryHistory (conn, { label = null, workload = null, scenario = null, metric = HISTORY_DEFAULTS.metric, limit = HISTORY_DEFAULTS.limit } = {}) {
  const m = historyMetric(metric)
  // one scenario of scenario runs: its own figures, size and workload, the runs' set-up
  const f = scenario === null ? 'r' : 's'
  const from = scenario === null ? 'pgload.runs r' : 'pgload.runs r join pgload.run_scenarios s on s.run_id = r.run_id and s.scenario = $4'
  const r = await conn.query(
    `select r.run_id, to_char(r.start_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.label, ${f}.workload,
            ${f}.clients, r.scale, ${f}.tps, ${f}.p50_ms, ${f}.p99_ms, ${f}.max_ms, ${f}.${m.column},
            ${f}.connections, r.rate, r.protocol, (r.options->>'jobs')::int, r.options->'scripts', r.options->'workloadOptions', r.command
       from ${from}
      where ($1::text is null or r.label = $1) and ($2::text is null or ${f}.workload = $2)
      order by r.start_time desc nulls last, r.run_id desc
      limit $3`, scenario === null ? [label, workload, limit] : [label, workload, limit, scenario])
  return r.rows.reverse().map((row) => ({
    runId: Number(row[0]),
    startTime: row[1],
    label: row[2],
    workload: row[3],
    clients: toNumber(row[4]),
    scale: toNumber(row[5]),
    tps: toNumber(row[6]),
    p50: toNumber(row[7]),
    p99: toNumber(row[8]),
    max: toNumber(row[9]),
    value: toNumber(row[10]),
    connections: toNumber(row[11]),
    rate: toNumber(row[12]),
    protocol: row[13],
    jobs: toNumber(row[14]),
    scripts: row[15],
    workloadOptions: row[16],
    // a capacity search's rate is its answer (lib/store/run-rows.js)
    capacity: /^pgload capacity\b/.test(row[17] ?? ''),
    ...(scenario === null ? {} : { scenario })
  }))
}

const fmt = (v) => v === null || v === undefined ? '-' : Number.isInteger(v) ? String(v) : String(Number(v.toFixed(3)))

/**
 * The runs as a table (one line per run, oldest first); the metric gets a column of its own
 * unless the table already shows it.
 * @param {HistoryRun[]} runs
 * @param {string} metric
 * @returns {string}
 */
export function formatHistory (runs, metric) {
  const m = historyMetric(metric)
  const shown = ['tps', 'p50', 'p99', 'max'].includes(metric)
  const head = ['run', 'start (UTC)', 'label', 'workload', 'clients', 'scale', 'tps', 'p50 ms', 'p99 ms', 'max ms']
  // a unit that is the metric's own name (tpmC) is the header alone, not repeated after it
  if (!shown) head.push(!m.unit ? m.name : m.unit.toLowerCase() === m.name ? m.unit : `${m.name} ${m.unit}`)
  const rows = runs.map((r) => {
    const workload = r.capacity ? `${r.workload} (capacity ${fmt(r.rate)} tps)` : r.scenario ? `${r.scenario}: ${r.workload}` : r.workload
    const row = [String(r.runId), r.startTime?.slice(0, 19).replace('T', ' ') ?? '-', r.label ?? '-', workload, fmt(r.clients), fmt(r.scale), fmt(r.tps), fmt(r.p50), fmt(r.p99), fmt(r.max)]
    if (!shown) row.push(fmt(r.value))
    return row
  })
  return alignTable([head, ...rows]) + '\n'
}
