// After `run` loaded its tables itself: what pgbench does before a run (vacuum), then a CHECKPOINT,
// so the load's dead-tuple, hint-bit and dirty-buffer work and its WAL (which would set off a
// checkpoint in the run) stay out of the measured window.

import { quoteIdent } from '../../db/connection.js'

/**
 * Vacuum and analyze the loaded tables, checkpoint, and publish this connection's statistics
 * (the load's blocks and temp files would otherwise reach the shared counters during the run).
 * A refused CHECKPOINT (it needs superuser or pg_checkpoint) is recorded, not fatal.
 * @param {{ simpleQuery: (text: string) => Promise<any> }} conn
 * @param {string[]} tables the workload's tables
 * @param {{ serverVersionNum: number, loadS?: number, now?: () => number }} opts
 * @returns {Promise<{ loadS: number|null, vacuumed: boolean, checkpointed: boolean, checkpointRefused?: string, settleS: number }>}
 */
export async function settleAfterLoad (conn, tables, { serverVersionNum, loadS = null, now = () => performance.now() }) {
  const t0 = now()
  const out = { loadS, vacuumed: false, checkpointed: false }
  if (tables.length > 0) {
    await conn.simpleQuery(`VACUUM (ANALYZE) ${tables.map(quoteName).join(', ')}`)
    out.vacuumed = true
  }
  Object.assign(out, await checkpointIfAllowed(conn))
  if (serverVersionNum >= 150000) await conn.simpleQuery('SELECT pg_stat_force_next_flush()')
  out.settleS = Math.round(now() - t0) / 1000
  return out
}

// Workload tables are plain lower-case names, possibly schema-qualified: quoting keeps them as they are.
function quoteName (name) {
  return name.split('.').map(quoteIdent).join('.')
}

/**
 * A CHECKPOINT, where the role may run one (superuser or pg_checkpoint); a refusal is kept as
 * its first line, for one warning, instead of failing.
 * @param {{ simpleQuery: (sql: string) => Promise<any> }} conn
 * @returns {Promise<{ checkpointed: boolean, checkpointRefused?: string }>}
 */
export async function checkpointIfAllowed (conn) {
  try {
    await conn.simpleQuery('CHECKPOINT')
    return { checkpointed: true }
  } catch (err) {
    if (err.code !== '42501') throw err
    return { checkpointed: false, checkpointRefused: String(err.message).split('\n')[0] }
  }
}
