// Just before each run of a sweep: a CHECKPOINT, so that no run inherits the dirty pages of the
// one before it (or of the load) and starts in the middle of a checkpoint; and the facts the
// sweep's charts put beside the figures: the size of the workload's own tables (what the run
// reads and writes), the whole database's, and shared_buffers.

import { connectTarget } from '../server/target/connect-target.js'
import { checkpointIfAllowed } from '../server/stats/after-load.js'
import { quoteLiteral } from '../db/connection.js'
import { loadWorkload } from '../../workloads/index.js'

/**
 * CHECKPOINT (refused without superuser or pg_checkpoint: then said so, not fatal) and read
 * the server's version, shared_buffers, the workload's tables' size and the database's size.
 * @param {{ url?: string, workload?: string }} plan the run's plan (where it connects, what it runs)
 * @param {{ env?: Record<string, string|undefined>, log?: any, connect?: typeof connectTarget }} [opts]
 * @returns {Promise<{ checkpointed: boolean, checkpointRefused?: string, dbSizeBytes: number, tablesSizeBytes: number|null,
 *   server: { version: string, versionNum: number, sharedBuffersBytes: number, embedded: boolean } }>}
 */
export async function prepareRun (plan, { env = process.env, log, connect = connectTarget } = {}) {
  const tables = (await loadWorkload(plan.workload ?? ''))?.tables ?? []
  const session = await connect({ url: plan.url, env, log })
  try {
    const { conn } = session
    const out = await checkpointIfAllowed(conn)
    const r = await conn.simpleQuery("select current_setting('server_version'), current_setting('server_version_num'), " +
      "pg_size_bytes(current_setting('shared_buffers')), pg_database_size(current_database())")
    const [version, versionNum, sharedBuffers, dbSize] = r.rows[0]
    out.dbSizeBytes = Number(dbSize)
    out.tablesSizeBytes = await tablesSize(conn, tables)
    out.server = { version, versionNum: Number(versionNum), sharedBuffersBytes: Number(sharedBuffers), embedded: session.embedded }
    return out
  } finally {
    await session.release()
  }
}

/**
 * The workload's tables with their indexes and TOAST, as the settings snapshot measures them
 * (pg_total_relation_size of each name the search_path resolves); null for a script run, whose
 * tables pgload does not know, or when none of them is found.
 * @param {any} conn
 * @param {string[]} tables
 * @returns {Promise<number|null>}
 */
async function tablesSize (conn, tables) {
  if (tables.length === 0) return null
  const arr = `ARRAY[${tables.map(quoteLiteral).join(', ')}]::text[]`
  const r = await conn.simpleQuery(`select sum(pg_total_relation_size(c))::text from unnest(${arr}) as t(name), ` +
    'lateral (select to_regclass(t.name) as c) x where c is not null')
  const v = r.rows[0]?.[0]
  return v === null || v === undefined ? null : Number(v)
}
