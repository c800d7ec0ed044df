// The embedded server as a connection finds it: its target on a port, whether the postmaster of
// a home runs and answers (and what server.json says of it), its version, other clients on it.

import { readFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { openConnection } from '../../db/connection.js'
import { displayUrl } from '../target/resolve-target.js'
import { readState, liveUsers } from './server-state.js'
import { clusterPid } from './cluster.js'
import { readPassword, SUPERUSER } from './home.js'

const DATABASE = 'postgres'
const CONNECT_TIMEOUT_MS = 5000
const CLOSING_CLIENTS_WAIT_MS = 2000 // how long backends of commands that just ended may take to exit

/**
 * The Target of the embedded server on a port.
 * @param {number} port
 * @param {string} password
 * @returns {import('../../db/connection.js').Target}
 */
export function targetFor (port, password) {
  const config = { host: '127.0.0.1', port, user: SUPERUSER, database: DATABASE, password, ssl: false, application_name: 'pgload' }
  return { config, display: displayUrl(config), embedded: true }
}

/**
 * The running server of this home, or null: postmaster alive (pg_ctl status) and connectable.
 * A server that answers with an error is `{ pid, port, refused }`.
 * @param {Awaited<ReturnType<typeof import('./home.js').embeddedPaths>>} paths
 * @param {{ uid?: number, gid?: number }} ids
 */
export async function runningServer (paths, ids) {
  if (!existsSync(join(paths.dataDir, 'PG_VERSION'))) return null
  const pid = await clusterPid({ dataDir: paths.dataDir, ids })
  if (!pid) return null
  const password = await readPassword(paths)
  // postmaster.pid line 4 is the port; the state file may be missing after a crash.
  const lines = (await readFile(join(paths.dataDir, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')
  const port = Number(lines[3])
  if (!Number.isInteger(port) || port <= 0) return null
  let version
  try {
    version = await serverVersion(targetFor(port, password))
  } catch (err) {
    // An error answer (too many connections, say) comes from a server at work, perhaps for
    // another pgload: never taken for one that does not answer, which is stopped and restarted.
    if (typeof err?.severity === 'string') return { pid, port, refused: err }
    return null
  }
  const state = await readState(paths, pid)
  // A server with no owner on record (started by an older pgload, or by hand) is never orphaned.
  const users = state.keep === false ? [...new Set(liveUsers(state).map((u) => u.pid))] : []
  const orphaned = state.keep === false && Number.isInteger(state.owner) && users.length === 0
  return { pid, port, password, version, startedAt: state.startedAt, owner: state.owner, keep: state.keep, users, orphaned }
}

/**
 * The server's version, on a connection of its own.
 * @param {import('../../db/connection.js').Target} target
 * @returns {Promise<string>}
 */
export async function serverVersion (target) {
  const conn = await openConnection(target, { connectTimeoutMs: CONNECT_TIMEOUT_MS })
  try {
    return (await conn.simpleQuery("select current_setting('server_version')")).rows[0][0]
  } finally {
    await conn.close()
  }
}

/**
 * Clients connected other than this one (0 when the server cannot be asked); the backends of
 * commands that just ended may take a moment to exit, so a count above zero is looked at again
 * for a short while.
 * @param {import('../../db/connection.js').Target} target
 * @returns {Promise<number>}
 */
export async function otherClients (target) {
  try {
    const conn = await openConnection(target, { connectTimeoutMs: CONNECT_TIMEOUT_MS })
    try {
      const deadline = performance.now() + CLOSING_CLIENTS_WAIT_MS
      for (;;) {
        const r = await conn.simpleQuery("select count(*) from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()")
        const n = Number(r.rows[0][0])
        if (n === 0 || performance.now() > deadline) return n
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    } finally {
      await conn.close()
    }
  } catch {
    return 0
  }
}
