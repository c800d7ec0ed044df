// PgBouncer's admin console answers, read by column name (its versions add and reorder columns):
// SHOW VERSION, SHOW POOLS for one pool, SHOW STATS for one database, SHOW DATABASES for its pool.

/**
 * One reading of a pool (SHOW POOLS), null fields where this PgBouncer has no such column.
 * @typedef {object} PoolReading
 * @property {number|null} clientsActive cl_active: clients linked to a server or idle
 * @property {number|null} clientsWaiting cl_waiting: clients that sent a query and wait for a server
 * @property {number|null} maxWaitMs how long the oldest waiting client has waited (maxwait + maxwait_us)
 * @property {number|null} serversActive sv_active: servers linked to a client
 * @property {number|null} serversIdle sv_idle
 * @property {number|null} serversUsed sv_used: idle since a while, to be checked before reuse
 * @property {string|null} poolMode
 */

/**
 * The rows of an admin console result as objects keyed by column name.
 * @param {{ fields: string[], rows: (string|null)[][] }} result
 * @returns {Record<string, string|null>[]}
 */
export function rowsByName ({ fields, rows }) {
  return rows.map((row) => Object.fromEntries(fields.map((name, i) => [name, row[i] ?? null])))
}

/**
 * The version a SHOW VERSION answer states, when it is PgBouncer's: '1.18.0'; else null.
 * @param {{ fields: string[], rows: (string|null)[][] }} result
 * @returns {string|null}
 */
export function pgbouncerVersion (result) {
  const text = result.rows[0]?.[result.fields.indexOf('version')] ?? result.rows[0]?.[0]
  return /^PgBouncer (\d+\.\d+(?:\.\d+)?)/.exec(text ?? '')?.[1] ?? null
}

/**
 * Whether a version string is at least major.minor.
 * @param {string} version '1.21.0'
 * @param {number} major
 * @param {number} minor
 */
export function versionAtLeast (version, major, minor) {
  const [a, b] = version.split('.').map(Number)
  return a > major || (a === major && b >= minor)
}

/** A count column: a number, or null when the column is absent or not a number. */
function numberOf (row, name) {
  const v = row?.[name]
  if (v === undefined || v === null || v === '') return null
  const n = Number(v)
  return Number.isFinite(n) ? n : null
}

/**
 * The pool of one database and user in a SHOW POOLS answer, or the database's only pool (a
 * database with force_user pools under that user); null when there is none (no client of that
 * database connected yet).
 * @param {{ fields: string[], rows: (string|null)[][] }} result
 * @param {{ database: string, user: string }} pool
 * @returns {PoolReading|null}
 */
export function poolReading (result, { database, user }) {
  const rows = rowsByName(result).filter((r) => r.database === database)
  const row = rows.find((r) => r.user === user) ?? (rows.length === 1 ? rows[0] : null)
  if (!row) return null
  const seconds = numberOf(row, 'maxwait')
  const micros = numberOf(row, 'maxwait_us') ?? 0
  return {
    clientsActive: numberOf(row, 'cl_active'),
    clientsWaiting: numberOf(row, 'cl_waiting'),
    maxWaitMs: seconds === null ? null : seconds * 1000 + micros / 1000,
    serversActive: numberOf(row, 'sv_active'),
    serversIdle: numberOf(row, 'sv_idle'),
    serversUsed: numberOf(row, 'sv_used'),
    poolMode: row.pool_mode ?? null
  }
}

/**
 * The cumulative counters of one database in a SHOW STATS answer (since PgBouncer started):
 * transactions, queries and the clients' wait for a server in microseconds. Null when absent.
 * @param {{ fields: string[], rows: (string|null)[][] }} result
 * @param {string} database
 * @returns {{ transactions: number|null, queries: number|null, waitUs: number|null }|null}
 */
export function statsTotals (result, database) {
  const row = rowsByName(result).find((r) => r.database === database)
  if (!row) return null
  return {
    transactions: numberOf(row, 'total_xact_count'),
    queries: numberOf(row, 'total_query_count'),
    waitUs: numberOf(row, 'total_wait_time')
  }
}

/**
 * A database's pool size and mode in a SHOW DATABASES answer (its own, or the default the
 * answer shows for it); nulls when it is not there.
 * @param {{ fields: string[], rows: (string|null)[][] }} result
 * @param {string} database
 * @returns {{ poolSize: number|null, poolMode: string|null }}
 */
export function databasePool (result, database) {
  const row = rowsByName(result).find((r) => r.name === database)
  return { poolSize: numberOf(row, 'pool_size'), poolMode: row?.pool_mode || null }
}

/**
 * A setting in a SHOW CONFIG answer (key, value), or null when this PgBouncer has none.
 * @param {{ fields: string[], rows: (string|null)[][] }} result
 * @param {string} key
 * @returns {string|null}
 */
export function configValue (result, key) {
  return rowsByName(result).find((r) => r.key === key)?.value ?? null
}
