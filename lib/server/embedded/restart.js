// A restart of the running embedded server for a cold start: fast shutdown, then a start of the
// same data directory on the same port, so that every URL to it stays valid.

import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { PgloadError } from '../../errors.js'
import { acquireLock } from './home-lock.js'
import { serverUser, clusterPid, stopCluster, startCluster } from './cluster.js'
import { embeddedPaths, pgloadHome } from './home.js'
import { START_SETTINGS } from './start-settings.js'
import { readState, writeState } from './server-state.js'

/**
 * Restart the running embedded server of this pgload home (under its lock) and run `between`
 * while it is down. server.json is carried over to the new postmaster (its owner and keep stay).
 * @template T
 * @param {{ env?: Record<string, string|undefined>, between?: () => Promise<T> }} [opts]
 * @returns {Promise<{ port: number, between: T|undefined }>}
 */
export async function restartEmbeddedServer ({ env = process.env, between } = {}) {
  const paths = await embeddedPaths(pgloadHome({ env }))
  const ids = await serverUser()
  const release = await acquireLock(paths.lock)
  try {
    const pid = await clusterPid({ dataDir: paths.dataDir, ids })
    if (!pid) throw new PgloadError(`the embedded server (${paths.dataDir}) is not running: nothing to restart`, { code: 'COLD_RESTART' })
    const port = await postmasterPort(paths.dataDir)
    if (port === null) throw new PgloadError(`cannot read the embedded server's port from ${paths.dataDir}/postmaster.pid`, { code: 'COLD_RESTART' })
    const state = await readState(paths, pid)
    if (!await stopCluster({ dataDir: paths.dataDir, ids })) {
      throw new PgloadError(`could not stop the embedded server for the restart (pg_ctl stop -m fast, ${paths.dataDir})`, { code: 'COLD_RESTART', hint: `see ${paths.log}` })
    }
    const done = between ? await between() : undefined
    await startCluster({ dataDir: paths.dataDir, port, logFile: paths.log, ids, settings: START_SETTINGS })
    const newPid = await clusterPid({ dataDir: paths.dataDir, ids })
    await writeState(paths, { ...state, pid: newPid, port, dataDir: paths.dataDir, startedAt: new Date().toISOString() })
    return { port, between: done }
  } finally {
    await release()
  }
}

/**
 * The port of the running embedded server of this pgload home, or null when none runs.
 * @param {{ env?: Record<string, string|undefined> }} [opts]
 * @returns {Promise<number|null>}
 */
export async function embeddedServerPort ({ env = process.env } = {}) {
  try {
    const paths = await embeddedPaths(pgloadHome({ env }))
    const pid = await clusterPid({ dataDir: paths.dataDir, ids: await serverUser() })
    return pid ? await postmasterPort(paths.dataDir) : null
  } catch {
    return null // no binaries, no home: no embedded server
  }
}

/** The port on line 4 of postmaster.pid, or null. */
async function postmasterPort (dataDir) {
  const lines = (await readFile(join(dataDir, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')
  const port = Number(lines[3])
  return Number.isInteger(port) && port > 0 ? port : null
}
