// One rule for where to connect, shared by every command: --url > PG* environment > the
// embedded server (started for this command, or the one `pgload server start` left running).

import { resolveTarget, explainConnectError } from './resolve-target.js'
import { givenOrEmbedded } from './given-or-embedded.js'
import { openConnection } from '../../db/connection.js'
import { targetAsReached } from '../../db/target-session.js'
import { closeWithin } from '../../db/close-within.js'

const RELEASE_MS = 1000 // ms the set-up connection's polite close may take

/**
 * Resolve and reach the server once; the caller must `release()` at the end.
 * @param {{ url?: string, env?: Record<string, string|undefined>, log?: any }} opts
 * @returns {Promise<{ target: import('../../db/connection.js').Target, embedded: boolean, reused: boolean, conn: import('../../db/connection.js').PgConnection, release: (opts?: { timeoutMs?: number }) => Promise<void> }>}
 *   reused: the embedded server was already running (another command or `pgload server start`)
 */
export async function connectTarget ({ url, env = process.env, log } = {}) {
  const chosen = await givenOrEmbedded(resolveTarget({ url, env }), { env, log })
  let target = chosen.target
  const server = chosen.embedded
  let conn
  try {
    conn = await openConnection(target, { protocol: 'simple' })
  } catch (err) {
    if (server) await server.stop().catch(() => {})
    throw explainConnectError(err, target)
  }
  target = targetAsReached(target, conn.server) // the line and results name the server chosen
  return {
    target,
    embedded: Boolean(server),
    reused: Boolean(server?.reused),
    conn,
    /** @param {{ timeoutMs?: number }} [opts] how long the polite close may take (0: destroy the socket) */
    async release ({ timeoutMs = RELEASE_MS } = {}) {
      // bounded: a server that stopped answering must not hold the command's end
      await closeWithin(conn, timeoutMs)
      if (server) await server.stop()
    }
  }
}
