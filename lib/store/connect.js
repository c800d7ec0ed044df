// Where results are stored: `--results-url`, else a `pgload_results` database on the embedded
// server (started or adopted for the command, as the tested server is). The database is created
// when missing and its schema brought up to date before anything is stored or read.

import { PgloadError } from '../errors.js'
import { openConnection, quoteIdent } from '../db/connection.js'
import { closeWithin } from '../db/close-within.js'
import { resolveTarget, explainConnectError, displayUrl, parseConnectionString } from '../server/target/resolve-target.js'
import { givenOrEmbedded } from '../server/target/given-or-embedded.js'
import { ensureSchema } from './schema.js'

/** The results database's name when none is given (the embedded server, or a --results-url without one). */
export const RESULTS_DATABASE = 'pgload_results'
// The database a new results database is created from (present on every server).
const MAINTENANCE_DATABASE = 'postgres'
const RELEASE_MS = 1000 // ms the polite close may take

/**
 * @typedef {object} ResultsStore
 * @property {import('../db/connection.js').PgConnection} conn a connection to the results database, schema ready
 * @property {string} display where results go, without password
 * @property {() => Promise<void>} release close the connection (and stop the embedded server when this opened it)
 */

/**
 * Open the results database.
 * @param {{ resultsUrl?: string|null, env?: Record<string, string|undefined>, log?: any }} [opts]
 *   resultsUrl: a libpq URI or key=value string; without a database name, `pgload_results`
 * @returns {Promise<ResultsStore>}
 */
export async function openResultsStore ({ resultsUrl = null, env = process.env, log } = {}) {
  // the results store's own rule for "given": --results-url only, never the tested server's PG*
  const given = resultsUrl !== null && resultsUrl !== undefined ? resultsTarget(resultsUrl, env) : null
  const { target: chosen, embedded: server } = await givenOrEmbedded(given, { env, log })
  const target = server ? withDatabase(chosen, RESULTS_DATABASE) : chosen
  let conn
  try {
    conn = await connectCreating(target)
    await ensureSchema(conn)
  } catch (err) {
    if (conn) await closeWithin(conn, RELEASE_MS)
    if (server) await server.stop().catch(() => {})
    throw err
  }
  return {
    conn,
    display: target.display,
    async release () {
      await closeWithin(conn, RELEASE_MS)
      if (server) await server.stop()
    }
  }
}

/**
 * Run `fn` with an open results database, released afterwards whatever happens.
 * @template T
 * @param {{ resultsUrl?: string|null, env?: Record<string, string|undefined>, log?: any }} opts
 * @param {(store: ResultsStore) => Promise<T>} fn
 * @returns {Promise<T>}
 */
export async function withResultsStore (opts, fn) {
  const store = await openResultsStore(opts)
  try {
    return await fn(store)
  } finally {
    await store.release()
  }
}

/** The target of --results-url: its own database name, else pgload_results (PGDATABASE names the tested one). */
function resultsTarget (url, env) {
  if (typeof url !== 'string' || url.trim() === '') throw new PgloadError(`--results-url needs a connection string, got ${JSON.stringify(url)}`, { code: 'BAD_OPTION' })
  try {
    const named = parseConnectionString(url).database
    return resolveTarget({ url, env: { ...env, PGDATABASE: named ?? RESULTS_DATABASE } })
  } catch (err) {
    // the parser names --url, the flag of the tested server
    if (err instanceof PgloadError) throw new PgloadError(err.message.replace(/^--url\b/, '--results-url'), { code: 'BAD_OPTION', hint: err.hint, cause: err })
    throw err
  }
}

/** A connection error's hint names --url, the flag of the tested server: here it is --results-url. */
function resultsHint (err) {
  if (err instanceof PgloadError && typeof err.hint === 'string') err.hint = err.hint.replace(/--url\b/g, '--results-url')
  return err
}

function withDatabase (target, database) {
  const config = { ...target.config, database }
  return { ...target, config, display: displayUrl(config) }
}

/** Connect; a missing database (3D000) is created from the maintenance database first. */
async function connectCreating (target) {
  try {
    return await openConnection(target, { protocol: 'simple', applicationName: 'pgload-store' })
  } catch (err) {
    if (err?.code !== '3D000') throw resultsHint(explainConnectError(err, target))
  }
  const admin = withDatabase(target, MAINTENANCE_DATABASE)
  let conn
  try {
    conn = await openConnection(admin, { protocol: 'simple', applicationName: 'pgload-store' })
    await conn.simpleQuery(`create database ${quoteIdent(target.config.database)}`)
  } catch (err) {
    // another pgload created it meanwhile: use it
    if (err?.code !== '42P04') throw createError(err, target)
  } finally {
    if (conn) await closeWithin(conn, RELEASE_MS)
  }
  try {
    return await openConnection(target, { protocol: 'simple', applicationName: 'pgload-store' })
  } catch (err) {
    throw explainConnectError(err, target)
  }
}

function createError (err, target) {
  if (typeof err?.code === 'string' && err.code.length === 5) {
    return new PgloadError(`cannot create the results database ${JSON.stringify(target.config.database)} at ${target.display}: ${err.message}`, {
      code: 'STORE_CREATE', cause: err, hint: 'create it yourself (createdb), or give another with --results-url'
    })
  }
  return explainConnectError(err, withDatabase(target, MAINTENANCE_DATABASE))
}
