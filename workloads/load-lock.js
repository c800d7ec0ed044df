// One load of a workload's tables at a time in a database. `init` (and so `sweep`'s loads) and
// `run`'s check of the tables, with its load on the embedded server, hold a session-level
// advisory lock named after the workload: a second command waits for the load in progress
// instead of taking its half-made tables for an interrupted load, or dropping them under it.

import { quoteLiteral } from '../lib/db/connection.js'

/**
 * The lock's key: one bigint per workload (advisory locks are per database, as the tables are).
 * @param {string} workload
 */
function lockKey (workload) {
  return `hashtextextended(${quoteLiteral(`pgload:load:${workload}`)}, 0)`
}

/**
 * Run `fn` holding the workload's load lock on `conn`'s session; released after it, whatever
 * happens (and by the server if the session ends first).
 * @template T
 * @param {{ simpleQuery(text: string): Promise<{ rows: any[][] }> }} conn
 * @param {string} workload
 * @param {() => Promise<T>} fn
 * @param {{ onWait?: () => void }} [opts] onWait: told once when another session holds the lock,
 *   before waiting for it
 * @returns {Promise<T>}
 */
export async function withLoadLock (conn, workload, fn, { onWait } = {}) {
  const key = lockKey(workload)
  const taken = await conn.simpleQuery(`select pg_try_advisory_lock(${key})`)
  if (taken.rows[0][0] !== 't') {
    onWait?.()
    await conn.simpleQuery(`select pg_advisory_lock(${key})`)
  }
  try {
    return await fn()
  } finally {
    // a failed load may leave the session in an aborted transaction: end it, then unlock
    if (conn.transactionStatus !== undefined && conn.transactionStatus !== 'I') await quietly(conn, 'rollback')
    await quietly(conn, `select pg_advisory_unlock(${key})`)
  }
}

// A statement whose failure changes nothing: the connection is lost, and the lock with it.
async function quietly (conn, text) {
  try {
    await conn.simpleQuery(text)
  } catch { /* lost with the session */ }
}

/**
 * The line a command prints when it waits for another load of the workload's tables.
 * @param {string} workload
 */
export function waitingForLoadMessage (workload) {
  return `another pgload is loading the ${workload} tables in this database: waiting for it to finish`
}
