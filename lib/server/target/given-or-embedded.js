// The one rule for which server a command uses: the one the user gave (a URL, or the PG*
// environment), else the embedded server, started for the command or the one already running.
// Every command that reaches a server goes through here (connectTarget, ab's servers, a sweep's
// held server, the results store), so the rule cannot drift between them.

import { ensureEmbeddedServer } from '../embedded/embedded-server.js'

/**
 * @typedef {Awaited<ReturnType<typeof ensureEmbeddedServer>>} EmbeddedUse
 */

/**
 * The given target, else the embedded server's.
 * @param {import('../../db/connection.js').Target|null} given what the user named, resolved (null: nothing)
 * @param {{ keep?: boolean, env?: Record<string, string|undefined>, log?: any }} [opts]
 *   keep: leave the embedded server running after the command (ab keeps it across its rounds)
 * @returns {Promise<{ target: import('../../db/connection.js').Target, embedded: EmbeddedUse|null }>}
 *   embedded: this command's use of the embedded server (stop() ends it), null for a given server
 */
export async function givenOrEmbedded (given, { keep = false, env = process.env, log } = {}) {
  if (given) return { target: given, embedded: null }
  const embedded = await ensureEmbeddedServer({ keep, env, log })
  return { target: embedded.target, embedded }
}
