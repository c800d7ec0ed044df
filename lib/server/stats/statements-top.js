// pg_stat_statements over the measured window: availability (installed? loaded? which column
// names?), a baseline reading, and the top statements by total execution time (delta).

import { MARKER } from './queries.js'
import { quoteIdent, quoteLiteral } from '../../db/connection.js'
import { round3 } from '../../format/round.js'

/** How many statements the results keep. */
export const TOP_STATEMENTS = 10

const HIDDEN = '<insufficient privilege>'

/**
 * Find out whether pg_stat_statements can be read, and how.
 * @param {import('../../db/connection.js').PgConnection} conn
 * @returns {Promise<{ available: boolean, reason?: string, relation?: string, totalColumn?: string, hasToplevel?: boolean }>}
 */
export async function probeStatements (conn) {
  const ext = await conn.simpleQuery(`SELECT ${MARKER} n.nspname, e.extversion FROM pg_extension e
    JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_stat_statements'`)
  if (ext.rows.length === 0) {
    return { available: false, reason: 'pg_stat_statements is not installed in this database (add it to shared_preload_libraries and CREATE EXTENSION pg_stat_statements)' }
  }
  const relation = `${quoteIdent(ext.rows[0][0])}.pg_stat_statements`
  const cols = await conn.simpleQuery(`SELECT ${MARKER} attname FROM pg_attribute
    WHERE attrelid = to_regclass(${quoteLiteral(relation)}) AND attnum > 0 AND NOT attisdropped`)
  const names = new Set(cols.rows.map(r => r[0]))
  // Extension 1.8 (PostgreSQL 13) renamed total_time to total_exec_time; an extension left at
  // an older version after pg_upgrade still has the old name.
  const totalColumn = names.has('total_exec_time') ? 'total_exec_time' : names.has('total_time') ? 'total_time' : null
  if (!totalColumn) return { available: false, reason: `pg_stat_statements ${ext.rows[0][1]} has neither total_exec_time nor total_time` }
  // shared_blks_dirtied since 1.0, wal_fpi since 1.8 (PostgreSQL 13)
  const info = { available: true, relation, totalColumn, hasToplevel: names.has('toplevel'), hasDirtied: names.has('shared_blks_dirtied'), hasWalFpi: names.has('wal_fpi') }
  try {
    await conn.simpleQuery(`SELECT ${MARKER} count(*) FROM ${relation} WHERE false`)
  } catch (err) {
    // e.g. "pg_stat_statements must be loaded via shared_preload_libraries"
    return { available: false, reason: `pg_stat_statements cannot be read: ${err.message}` }
  }
  return info
}

/**
 * Read the current statements of this database (the sampler's own are left out). Baselines
 * skip the query texts (pg_stat_statements(false) does not read its text file): only the end
 * reading needs them.
 * @param {import('../../db/connection.js').PgConnection} conn
 * @param {{ relation: string, totalColumn: string, hasToplevel: boolean, hasDirtied?: boolean, hasWalFpi?: boolean }} info
 * @param {{ withText?: boolean }} [opts]
 * @returns {Promise<{ rows: Map<string, { query: string|null, calls: number, totalMs: number, rows: number, blksDirtied: number|null, walFpi: number|null }>, hidden: number }>}
 */
export async function readStatements (conn, info, { withText = true } = {}) {
  const toplevel = info.hasToplevel ? 'toplevel::text' : "'t'"
  const from = withText ? info.relation : `${info.relation}(false)`
  const r = await conn.simpleQuery(`SELECT ${MARKER} userid::text, queryid::text, ${toplevel}, query, calls::text,
    ${info.totalColumn}::text, rows::text, ${info.hasDirtied ? 'shared_blks_dirtied::text' : 'NULL'}, ${info.hasWalFpi ? 'wal_fpi::text' : 'NULL'} FROM ${from}
    WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND (query IS NULL OR query NOT LIKE '%pgload-stats%')`)
  const rows = new Map()
  let hidden = 0
  const num = (x) => x === null ? null : Number(x)
  for (const [userid, queryid, top, query, calls, total, nrows, dirtied, fpi] of r.rows) {
    if (queryid === null || query === HIDDEN) { hidden++; continue }
    rows.set(`${userid}/${queryid}/${top}`, { query, calls: Number(calls), totalMs: Number(total), rows: Number(nrows), blksDirtied: num(dirtied), walFpi: num(fpi) })
  }
  return { rows, hidden }
}

/**
 * The top statements by total time between two readings. A statement new in the end reading,
 * or whose calls went down (evicted and re-added, or reset), counts from zero.
 * @param {Map<string, any>} base
 * @param {Map<string, any>} end
 * @param {number} [n]
 * @returns {{ query: string, calls: number, totalMs: number, meanMs: number, rows: number, blksDirtied?: number|null, walFpi?: number|null }[]}
 */
export function topStatements (base, end, n = TOP_STATEMENTS) {
  const out = statementDeltas(base, end)
  out.sort((a, b) => b.totalMs - a.totalMs)
  return out.slice(0, n)
}

/**
 * Every statement that ran between two readings, with its deltas (see topStatements).
 * blksDirtied and walFpi are there when the readings have them (null when the extension lacks them).
 * @param {Map<string, any>} base
 * @param {Map<string, any>} end
 */
export function statementDeltas (base, end) {
  const out = []
  for (const [key, e] of end) {
    const b = base.get(key)
    const fresh = !b || e.calls < b.calls
    const calls = fresh ? e.calls : e.calls - b.calls
    if (calls <= 0) continue
    const since = (k) => e[k] === null ? null : fresh ? e[k] : e[k] - (b[k] ?? 0)
    const totalMs = since('totalMs')
    const d = { query: e.query, calls, totalMs: round3(totalMs), meanMs: round3(totalMs / calls), rows: since('rows') }
    if (e.blksDirtied !== undefined) d.blksDirtied = since('blksDirtied')
    if (e.walFpi !== undefined) d.walFpi = since('walFpi')
    out.push(d)
  }
  return out
}
