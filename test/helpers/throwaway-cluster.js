// A PostgreSQL cluster of a test's own (not the shared test server), for faults that hit the
// whole server: a fast restart. Started in a temp dir, removed when stopped or when the process exits.

import { mkdtempSync, rmSync, chmodSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { targetFor } from '../../lib/server/embedded/running-server.js'
import { binaries, serverUser, giveToServerUser, freePort, generatePassword, initCluster, startCluster, stopCluster, stopClusterSync } from '../../lib/server/embedded/cluster.js'

/**
 * @returns {Promise<{ url: string, target: import('../../lib/db/connection.js').Target,
 *   restartFast: () => Promise<void>, stop: () => Promise<void> }>}
 */
export async function startThrowawayCluster () {
  const ids = await serverUser()
  const bin = await binaries()
  const base = mkdtempSync(join(tmpdir(), 'pgload-throwaway-'))
  chmodSync(base, 0o700)
  await giveToServerUser(base, ids)
  const dataDir = join(base, 'data')
  const logFile = join(base, 'server.log')
  let running = false
  const cleanup = () => {
    if (running) { running = false; stopClusterSync({ pgCtl: bin.pg_ctl, dataDir, ids }) }
    rmSync(base, { recursive: true, force: true })
  }
  process.once('exit', cleanup)
  const password = generatePassword()
  await initCluster({ dataDir, password, ids, noSync: true, settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' } })
  const port = await freePort()
  await startCluster({ dataDir, port, logFile, ids })
  running = true
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    target: targetFor(port, password),
    /** pg_ctl stop -m fast, then start again on the same port (what `pg_ctl restart -m fast` does) */
    async restartFast () {
      running = false
      await stopCluster({ dataDir, ids })
      await startCluster({ dataDir, port, logFile, ids })
      running = true
    },
    async stop () {
      if (running) { running = false; await stopCluster({ dataDir, ids }) }
      process.off('exit', cleanup)
      cleanup()
    }
  }
}
