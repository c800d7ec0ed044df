// The connection to PgBouncer's admin console (the virtual database `pgbouncer`, simple query
// protocol only): named with --pooler-admin, or found on the run's own host, port and user. A
// server that is no pooler costs one connection attempt, which PostgreSQL refuses at once
// ("database "pgbouncer" does not exist"), and no word to the user.

import { openConnection } from '../../db/connection.js'
import { PgloadError } from '../../errors.js'
import { resolveTarget, parseConnectionString, displayUrl } from '../target/resolve-target.js'
import { pgbouncerVersion } from './admin-rows.js'

export const ADMIN_DATABASE = 'pgbouncer'
// the run's own target answers within this, or it is taken for no pooler
const DETECT_TIMEOUT_MS = 3000
const NAMED_TIMEOUT_MS = 10000

/**
 * @typedef {object} PoolerAdmin
 * @property {import('../../db/connection.js').PgConnection} conn
 * @property {string} version PgBouncer's, '1.18.0'
 * @property {'detected'|'named'} found on the run's target, or named with --pooler-admin
 * @property {string} display the admin console's address, without a password
 */

/**
 * The admin console of the pooler in front of the run, or null when there is none to read.
 * @param {{ target: import('../../db/connection.js').Target|null, adminUrl?: string, env?: Record<string, string|undefined>, log?: any }} opts
 *   target: the run's (null: the embedded server, never a pooler); adminUrl: --pooler-admin (`off`: none)
 * @returns {Promise<PoolerAdmin|null>}
 * @throws {PgloadError} when the console named with --pooler-admin cannot be read, or the
 *   target is a PgBouncer that does not let the run's user read its console
 */
export async function openPoolerAdmin ({ target, adminUrl, env = process.env, log }) {
  if (adminUrl === 'off') return null
  if (adminUrl !== undefined) return openNamed(adminUrl, env)
  // several hosts: each connection may choose another, and there is no one console to ask
  if (!target || target.embedded || target.hosts) return null
  const admin = { ...target, config: { ...target.config, database: ADMIN_DATABASE } }
  let conn
  try {
    conn = await openConnection(admin, { protocol: 'simple', applicationName: 'pgload-pooler', connectTimeoutMs: DETECT_TIMEOUT_MS })
  } catch (err) {
    // PgBouncer's own refusal (PostgreSQL has no such answer): a pooler whose console this user may not read
    if (err.code === '08P01' && err.message === 'not allowed') {
      throw new PgloadError(`PgBouncer at ${displayUrl(admin.config)} does not let ${target.config.user} read its admin console: no pooler readings`, {
        code: 'POOLER_ADMIN',
        hint: `add ${target.config.user} to stats_users in pgbouncer.ini, name a console with --pooler-admin URL, or --pooler-admin off`
      })
    }
    log?.debug({ err: err.message }, 'no pooler admin console on the target')
    return null
  }
  const version = await versionOf(conn)
  if (version === null) {
    await conn.close().catch(() => {})
    return null
  }
  return { conn, version, found: 'detected', display: displayUrl(admin.config) }
}

async function openNamed (adminUrl, env) {
  const target = resolveTarget({ url: adminUrl, env })
  // the console is a database of its own: the one to connect to unless the address names another
  if (parseConnectionString(adminUrl, '--pooler-admin').database === undefined) target.config.database = ADMIN_DATABASE
  const display = displayUrl(target.config)
  let conn
  try {
    conn = await openConnection(target, { protocol: 'simple', applicationName: 'pgload-pooler', connectTimeoutMs: NAMED_TIMEOUT_MS })
  } catch (err) {
    throw new PgloadError(`--pooler-admin: cannot connect to ${display}: ${err.message}`, { code: 'POOLER_ADMIN', hint: 'the user must be in PgBouncer\'s admin_users or stats_users' })
  }
  const version = await versionOf(conn)
  if (version === null) {
    await conn.close().catch(() => {})
    throw new PgloadError(`--pooler-admin: ${display} is not a PgBouncer admin console (SHOW VERSION does not say PgBouncer)`, { code: 'POOLER_ADMIN' })
  }
  return { conn, version, found: 'named', display }
}

/** PgBouncer's version from SHOW VERSION; null from anything else (PostgreSQL has no `version` setting). */
async function versionOf (conn) {
  try {
    return pgbouncerVersion(await conn.simpleQuery('SHOW VERSION'))
  } catch {
    return null
  }
}
