// What the server kept of a run through a failover, read from the new primary after it: the
// write outage from the commits' own timestamps (the longest gap between two consecutive history
// rows of the run), and the RPO check (every commit the server acknowledged has its row). pgbench's
// tpcb-like and simple-update insert one pgbench_history row per transaction, stamped with the
// transaction's start (CURRENT_TIMESTAMP), which makes both exact to within a transaction.

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
 * The run's history rows (stamped at or after `since`): how many, and the longest gap between two
 * consecutive ones with its ends.
 * @param {import('../db/connection.js').PgConnection} conn
 * @param {string} since the server's clock before the run (serverClock)
 * @returns {Promise<{ rows: number, gapMs: number|null, lastBefore: string|null, firstAfter: string|null }>}
 */
export async function historySince (conn, since) {
  const literal = `'${since.replace(/'/g, "''")}'::timestamp`
  const count = await conn.simpleQuery(`select count(*) from pgbench_history where mtime >= ${literal}`)
  const gap = await conn.simpleQuery(`select extract(epoch from mtime - prev) * 1000, prev::text, mtime::text from (
      select mtime, lag(mtime) over (order by mtime) as prev from pgbench_history where mtime >= ${literal}
    ) g where prev is not null order by mtime - prev desc limit 1`)
  const row = gap.rows[0]
  return {
    rows: Number(count.rows[0][0]),
    gapMs: row ? Math.round(Number(row[0])) : null,
    lastBefore: row ? String(row[1]) : null,
    firstAfter: row ? String(row[2]) : null
  }
}

/**
 * Transactions of the run that inserted a history row when they committed, from its results: the
 * counts of the types that are history scripts; null when a type is a script of the user's (what
 * it inserts is not known).
 * @param {Record<string, any>} results
 * @returns {{ committed: number, outcomeUnknown: number }|null}
 */
export function historyCommits (results) {
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
  return { committed, outcomeUnknown }
}
