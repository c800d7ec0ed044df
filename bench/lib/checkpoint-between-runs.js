// A CHECKPOINT before each measured run, so that every run starts from the same server state:
// no dirty buffers left by the previous runner for the checkpointer to write during this one,
// full-page images from the first write of each page on (the same cost for every runner), and
// no timed checkpoint inside a run shorter than checkpoint_timeout. Without it, the timed
// checkpoint (every 5 minutes by default) lands in whichever run happens to be going, and that
// runner's round is slower for a reason that is not its own.

import { openConnection } from '../../lib/db/connection.js'

/**
 * @typedef {object} CheckpointBetweenRuns
 * @property {() => Promise<number|null>} before run one before a measured run: its milliseconds, or null when it cannot (no privilege)
 * @property {() => Promise<void>} close
 */

/**
 * @param {import('../../lib/db/connection.js').Target} target
 * @param {{ log: (s: string) => void }} io
 * @returns {Promise<CheckpointBetweenRuns>}
 */
export async function checkpointBetweenRuns (target, { log }) {
  const conn = await openConnection(target, { protocol: 'simple', applicationName: 'pgload-bench' })
  let allowed = true
  return {
    async before () {
      if (!allowed) return null
      const t0 = performance.now()
      try {
        await conn.simpleQuery('CHECKPOINT')
      } catch (err) {
        // CHECKPOINT needs superuser or pg_checkpoint (PostgreSQL 15+); without, runs go on as before
        if (err?.code !== '42501') throw err
        allowed = false
        log(`bench: no CHECKPOINT between runs (${err.message}); a timed checkpoint may fall inside a run\n`)
        return null
      }
      return performance.now() - t0
    },
    async close () { await conn.close() }
  }
}
