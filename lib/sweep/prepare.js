// Just before each run of a sweep: a CHECKPOINT, so that no run inherits the dirty pages of the
// one before it (or of the load) and starts in the middle of a checkpoint; and the facts the
// sweep's charts put beside the figures: the database's size and shared_buffers.

import { connectTarget } from '../server/target/connect-target.js'
import { checkpointIfAllowed } from '../server/stats/after-load.js'

/**
 * CHECKPOINT (refused without superuser or pg_checkpoint: then said so, not fatal) and read
 * the server's version, shared_buffers and the database's size.
 * @param {{ url?: string }} plan the run's plan (where it connects)
 * @param {{ env?: Record<string, string|undefined>, log?: any, connect?: typeof connectTarget }} [opts]
 * @returns {Promise<{ checkpointed: boolean, checkpointRefused?: string, dbSizeBytes: number,
 *   server: { version: string, versionNum: number, sharedBuffersBytes: number, embedded: boolean } }>}
 */
export async function prepareRun (plan, { env = process.env, log, connect = connectTarget } = {}) {
  const session = await connect({ url: plan.url, env, log })
  try {
    const { conn } = session
    const out = await checkpointIfAllowed(conn)
    const r = await conn.simpleQuery("select current_setting('server_version'), current_setting('server_version_num'), " +
      "pg_size_bytes(current_setting('shared_buffers')), pg_database_size(current_database())")
    const [version, versionNum, sharedBuffers, dbSize] = r.rows[0]
    out.dbSizeBytes = Number(dbSize)
    out.server = { version, versionNum: Number(versionNum), sharedBuffersBytes: Number(sharedBuffers), embedded: session.embedded }
    return out
  } finally {
    await session.release()
  }
}
