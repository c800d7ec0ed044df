// What the server kept of a run through a failover, read from the new primary after it: the
// write outage from the commits' own timestamps (the longest gap between two consecutive rows
// the run's commits inserted), and the RPO check (every commit the server acknowledged has its
// row). pgbench's tpcb-like and simple-update insert one pgbench_history row per transaction
// (mtime: CURRENT_TIMESTAMP), TPC-C's committed New-Orders one orders row (o_entry_d: now()),
// each stamped with its transaction's start, which makes both exact to within a transaction.

/** The built-in scripts that insert one pgbench_history row per committed transaction. */
export const HISTORY_SCRIPTS = new Set(['tpcb-like', 'simple-update'])

/**
 * The server's clock as pgbench_history's mtime is written (local time of the session's zone).
 * @param {import('../db/connection.js').PgConnection} conn
 * @returns {Promise<string>}
 */
export async function serverClock (conn) {
  return String((await conn.simpleQuery('select localtimestamp::text')).rows[0][0])
}

/**
 * The run's rows (stamped at or after `since`): how many, and the longest gap between two
 * consecutive ones with its ends.
 * @param {import('../db/connection.js').PgConnection} conn
 * @param {{ table: string, column: string }} rows where a commit's row is, and its timestamp
 * @param {string} since the server's clock before the run (serverClock)
 * @returns {Promise<{ rows: number, gapMs: number|null, lastBefore: string|null, firstAfter: string|null }>}
 */
export async function rowsSince (conn, { table, column }, since) {
  const literal = `'${since.replace(/'/g, "''")}'::timestamp`
  const count = await conn.simpleQuery(`select count(*) from ${table} where ${column} >= ${literal}`)
  const gap = await conn.simpleQuery(`select extract(epoch from at - prev) * 1000, prev::text, at::text from (
      select ${column} as at, lag(${column}) over (order by ${column}) as prev from ${table} where ${column} >= ${literal}
    ) g where prev is not null order by at - prev desc limit 1`)
  const row = gap.rows[0]
  return {
    rows: Number(count.rows[0][0]),
    gapMs: row ? Math.round(Number(row[0])) : null,
    lastBefore: row ? String(row[1]) : null,
    firstAfter: row ? String(row[2]) : null
  }
}

/**
 * The commits of the run that inserted a row, and where: pgbench's history scripts (a user's own
 * script: unknown, null), or TPC-C's New-Orders less their expected rollbacks; null for others.
 * @param {Record<string, any>} results
 * @returns {{ table: string, column: string, committed: number, outcomeUnknown: number }|null}
 */
export function commitRows (results) {
  if (results.run?.workload === 'tpcc') {
    const t = results.transactions?.['new-order']
    if (!t) return null
    return { table: 'orders', column: 'o_entry_d', committed: t.count - (t.rollbacks ?? 0), outcomeUnknown: t.outcomeUnknown ?? 0 }
  }
  const scripts = results.run?.options?.scripts ?? []
  if (results.run?.workload !== 'tpcb' || scripts.length === 0) return null
  let committed = 0
  let outcomeUnknown = 0
  for (const s of scripts) {
    if (s.kind !== 'builtin') return null
    const t = results.transactions?.[s.name]
    if (!t || !HISTORY_SCRIPTS.has(s.name)) continue
    committed += t.count
    outcomeUnknown += t.outcomeUnknown ?? 0
  }
  return { table: 'pgbench_history', column: 'mtime', committed, outcomeUnknown }
}

/** The missing commits listed in the results, first ones in commit order. */
export const LISTED_MISSING = 20
// beyond this many commits the rows are not fetched to name the missing ones (memory)
const LISTABLE_COMMITS = 2_000_000

/**
 * The acknowledged commits that have no row on the server, in commit order: pgbench's history
 * scripts' matched by their values (tid, bid, aid, delta) against the run's pgbench_history rows,
 * TPC-C's New-Orders by their orders key (warehouse, district, order number).
 * @param {import('../db/connection.js').PgConnection} conn
 * @param {{ count: number, key: (i: number) => string, entry: (i: number) => object, rowsSql: (since: string) => string }} log
 *   what the run kept of each commit (lib/script/commit-log.js, workloads/tpcc/order-log.js)
 * @param {string} since the server's clock before the run (serverClock)
 * @returns {Promise<{ count: number, first: object[] }|{ reason: string }>}
 */
export async function missingCommits (conn, log, since) {
  if (log.count > LISTABLE_COMMITS) return { reason: `${log.count.toLocaleString('en-US')} commits are too many to fetch and match (at most ${LISTABLE_COMMITS.toLocaleString('en-US')})` }
  const r = await conn.simpleQuery(log.rowsSql(`'${since.replace(/'/g, "''")}'::timestamp`))
  const found = new Map()
  for (const row of r.rows) found.set(row.slice(0, -1).join(','), Number(row.at(-1)))
  let count = 0
  const first = []
  for (let i = 0; i < log.count; i++) {
    const key = log.key(i)
    const left = found.get(key) ?? 0
    if (left > 0) { found.set(key, left - 1); continue }
    count++
    if (first.length < LISTED_MISSING) first.push(log.entry(i))
  }
  return { count, first }
}
