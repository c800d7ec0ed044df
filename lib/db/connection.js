// The one connection interface every part of pgload uses (docs/architecture.md, "Connection").
// This implementation sits on node-postgres; values travel as text in both directions.

import pg from 'pg'
import copyStreams from 'pg-copy-streams'
import { statementCommit, textCommit, COMMIT_NONE, COMMIT_EXPLICIT } from './commit-point.js'
import { cancelAndDestroy } from './cancel-request.js'
import { installedConnector } from './connector.js'
import { sslModeOf } from './ssl-negotiation.js'
import { connectWithSslFallback } from './ssl-fallback.js'
import { openOnTarget } from './target-session.js'

/** @typedef {{ id: number, name: string, text: string }} Statement */
/** @typedef {{ command: string, rowCount: number, fields: string[], rows: (string|null)[][] }} Result */
/** @typedef {'simple'|'extended'|'prepared'} Protocol */
/**
 * A resolved connection target (lib/server/target/resolve-target.js).
 * @typedef {{ config: import('pg').ClientConfig, display: string, embedded: boolean }} Target
 */

let nextStatementId = 0

/** The query protocols (pgbench's -M), as literal constants. */
export const PROTOCOLS = Object.freeze(['simple', 'extended', 'prepared'])

/**
 * A protocol name as the literal constant. A name from the command line is a string of its own,
 * and each `protocol === 'prepared'` on it compares characters; against the constant it compares
 * references, as the hot path checks it on every statement.
 * @param {string} name
 * @returns {Protocol}
 */
export function protocolConstant (name) {
  const i = PROTOCOLS.indexOf(name)
  if (i < 0) throw new Error(`unknown protocol ${JSON.stringify(name)}`)
  return /** @type {Protocol} */ (PROTOCOLS[i])
}

/**
 * Define a statement once (at load time); connections prepare it lazily as `P_<id>`.
 * @param {string} text
 * @returns {Statement}
 */
export function defineStatement (text) {
  const id = nextStatementId++
  return { id, name: `P_${id}`, text }
}

// Every value comes back as the server's text: no parsing on the hot path.
const textTypes = { getTypeParser: () => identity }
function identity (v) { return v }

/**
 * An SQL identifier, double-quoted (case and characters kept as they are).
 * @param {string} name
 * @returns {string}
 */
export function quoteIdent (name) {
  return '"' + String(name).replaceAll('"', '""') + '"'
}

/**
 * Quote a value as a SQL literal for the simple protocol.
 * @param {string|number|boolean|null|undefined} v
 */
export function quoteLiteral (v) {
  if (v === null || v === undefined) return 'NULL'
  const s = String(v)
  if (/^-?\d+(\.\d+)?$/.test(s)) return s
  let out = "'"
  let backslash = false
  for (const ch of s) {
    if (ch === "'") out += "''"
    else if (ch === '\\') { out += '\\\\'; backslash = true } else out += ch
  }
  out += "'"
  return backslash ? 'E' + out : out
}

/**
 * Replace $1..$n with quoted literals, outside quotes (for `simple` protocol executes).
 * @param {string} text
 * @param {ReadonlyArray<any>} values
 */
export function inlineParameters (text, values) {
  if (!values || values.length === 0) return text
  return text.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\$(\d+)/g, (m, n) => n === undefined ? m : quoteLiteral(values[Number(n) - 1]))
}

function toResult (r) {
  return {
    command: r.command ?? '',
    rowCount: r.rowCount ?? 0,
    fields: r.fields ? r.fields.map(f => f.name) : [],
    rows: r.rows ?? []
  }
}

function connectionLost (err, outcomeUnknown = false) {
  const e = new Error(`connection to server lost: ${err?.message ?? err}${outcomeUnknown ? ' (a commit was sent and not answered: outcome unknown)' : ''}`)
  e.code = 'CONNECTION_LOST'
  e.cause = err
  if (outcomeUnknown) e.outcomeUnknown = true
  return e
}

let warnedNoMessageEvents = false
function warnNoMessageEvents () {
  if (warnedNoMessageEvents) return
  warnedNoMessageEvents = true
  process.emitWarning('this node-postgres has no client.connection message events: with --driver pg a COMMIT lost after it completed is counted as outcome unknown', { code: 'PGLOAD_PG_CONNECTION_EVENTS' })
}

const fatal = (err) => err?.severity === 'FATAL' || err?.severity === 'PANIC'

/** A PostgreSQL connection on node-postgres. */
export class PgConnection {
  /**
   * @param {import('pg').Client} client
   * @param {Protocol} protocol
   */
  constructor (client, protocol) {
    this.client = client
    this.protocol = protocolConstant(protocol)
    /** @type {Result[]} all results of the last simpleQuery */
    this.lastResults = []
    this.closed = false
    this.broken = false
    this._prepared = new Set()
    /** @type {((notice: any) => void) | null} server NOTICE/WARNING messages */
    this.onNotice = null
    /** where the run publishes what this connection runs (lib/engine/activity-slots.js); -1: nowhere.
     * Declared here so that every connection keeps one shape on the transaction path. */
    this.activityBase = -1
    client.on('notice', (msg) => this.onNotice?.(msg))
    client.on('error', () => { this.broken = true })
    client.on('end', () => { this.broken = true })
    // What the request running may commit (commit-point.js), until the server settles it; a
    // COMMIT's CommandComplete settles it as committed.
    this._commit = COMMIT_NONE
    this._committed = false
    // node-postgres' Connection (client.connection, pg pinned exactly) is not in its documented
    // API; without its message events a COMMIT lost after completing counts as outcome unknown.
    const con = client.connection
    if (typeof con?.on !== 'function') { warnNoMessageEvents(); return }
    con.on('commandComplete', () => { if (this._commit === COMMIT_EXPLICIT) this._committed = true })
    con.on('readyForQuery', () => { this._commit = COMMIT_NONE })
    con.on('errorMessage', (msg) => { if (!fatal(msg) && !this._committed) this._commit = COMMIT_NONE })
  }

  /** Whether a request that may commit was sent and its outcome has not come back yet. */
  get commitInFlight () { return this._commit !== COMMIT_NONE }

  /**
   * Cancel the backend's statement (a CancelRequest, waited for at most `timeoutMs`), then
   * destroy the socket: the request in flight fails with CONNECTION_LOST.
   * @param {number} timeoutMs
   * @returns {Promise<void>}
   */
  async cancel (timeoutMs) {
    this.broken = true
    await cancelAndDestroy(this.client, timeoutMs)
    this.closed = true
  }

  /** Destroy the socket at once, without a word to the server. */
  destroy () {
    this.broken = true
    this.closed = true
    const stream = this.client.connection?.stream
    if (stream) stream.destroy()
    else this.client.end().catch(() => {})
  }

  get backendPid () { return this.client.processID }

  /** @returns {'I'|'T'|'E'} */
  get transactionStatus () {
    if (this._committed) return 'I' // a COMMIT completed and the connection was lost before ReadyForQuery
    return this.client.getTransactionStatus?.() ?? 'I'
  }

  /** @param {string} text @returns {Promise<Result>} */
  async simpleQuery (text) {
    const r = await this._run({ text, rowMode: 'array', types: textTypes }, textCommit(text, this.transactionStatus))
    const list = Array.isArray(r) ? r.map(toResult) : [toResult(r)]
    this.lastResults = list
    return list[list.length - 1]
  }

  /** @param {Statement} stmt */
  async prepare (stmt) {
    if (this._prepared.has(stmt.id)) return
    // node-postgres parses a named statement on first use; a zero-row describe would cost a
    // round trip, so preparation happens at the first execute and is remembered here.
    this._prepared.add(stmt.id)
  }

  /**
   * @param {Statement} stmt
   * @param {ReadonlyArray<any>} [values]
   * @returns {Promise<Result>}
   */
  async execute (stmt, values = []) {
    if (this.protocol === 'simple') return this.simpleQuery(inlineParameters(stmt.text, values))
    const config = this.protocol === 'prepared'
      ? { name: stmt.name, text: stmt.text, values, rowMode: 'array', types: textTypes }
      : { text: stmt.text, values, rowMode: 'array', types: textTypes }
    return toResult(await this._run(config, statementCommit(stmt, this.transactionStatus)))
  }

  /**
   * Set-up convenience: extended protocol with values, simple without.
   * @param {string} text
   * @param {ReadonlyArray<any>} [values]
   */
  async query (text, values) {
    if (values && values.length) return toResult(await this._run({ text, values, rowMode: 'array', types: textTypes }, textCommit(text, this.transactionStatus)))
    return this.simpleQuery(text)
  }

  /**
   * Run batches of statements with pipeline semantics: an error skips the rest of its batch.
   * node-postgres has no pipeline mode, so this sends statement by statement.
   * @param {{stmt: Statement, values: any[]}[][]} batches
   * @returns {Promise<(Result|Error)[][]>}
   */
  async runPipeline (batches) {
    const out = []
    for (const batch of batches) {
      const results = []
      let failed = false
      for (const item of batch) {
        if (failed) {
          const e = new Error('pipeline aborted by an earlier error')
          e.code = 'PIPELINE_ABORTED'
          results.push(e)
          continue
        }
        try {
          results.push(await this.execute(item.stmt, item.values))
        } catch (err) {
          if (err.code === 'CONNECTION_LOST') throw err
          failed = true
          results.push(err)
        }
      }
      out.push(results)
    }
    return out
  }

  /**
   * A writable stream for `COPY ... FROM STDIN`.
   * @param {string} sql
   */
  copyFrom (sql) {
    return this.client.query(copyStreams.from(sql))
  }

  async close () {
    if (this.closed) return
    this.closed = true
    if (this.client.connection?.stream?.destroyed) return
    try { await this.client.end() } catch { /* already gone */ }
  }

  async _run (config, commit = COMMIT_NONE) {
    this._commit = commit
    this._committed = false
    try {
      return await this.client.query(config)
    } catch (err) {
      const lost = fatal(err) || this.broken || !err?.code || /ECONN|EPIPE|terminated|ended/i.test(String(err.message))
      if (lost && commit !== COMMIT_NONE) {
        this.broken = true
        // the server completed the COMMIT: committed, only its ReadyForQuery was lost
        if (this._committed) return { command: 'COMMIT', rowCount: 0, fields: [], rows: [] }
        if (this._commit !== COMMIT_NONE) throw connectionLost(err, true)
      }
      if (fatal(err)) this.broken = true
      if (err && typeof err.code === 'string' && err.code.length === 5) throw err
      if (lost) {
        this.broken = true
        throw connectionLost(err)
      }
      throw err
    } finally {
      this._commit = COMMIT_NONE
    }
  }
}

/**
 * Open a connection to a target.
 * @param {Target} target
 * @param {{ applicationName?: string, protocol?: Protocol, connectTimeoutMs?: number }} [opts]
 * @returns {Promise<PgConnection>}
 */
export async function openConnection (target, { applicationName = 'pgload', protocol = 'prepared', connectTimeoutMs } = {}) {
  if (installedConnector() !== null) return installedConnector()(target, { applicationName, protocol, connectTimeoutMs }) // connector.js
  return openOnTarget(target, (one) => openPgConnection(one, { applicationName, protocol, connectTimeoutMs }))
}

async function openPgConnection (target, { applicationName, protocol, connectTimeoutMs }) {
  const { sslmode, ...config } = target.config
  const open = async (mode) => {
    const client = new pg.Client({
      ...config,
      ssl: pgSsl(mode, config.ssl),
      application_name: applicationName,
      // the target's connect_timeout (URL or PGCONNECT_TIMEOUT) unless the caller insists
      connectionTimeoutMillis: connectTimeoutMs ?? config.connectionTimeoutMillis ?? 10000
    })
    client.on('error', () => {}) // surfaced through the failing query instead
    try {
      await client.connect()
    } catch (err) {
      // node-postgres leaves the socket open after some failures (no password for SASL, a client
      // error during authentication) until the server's authentication_timeout closes it, and an
      // open socket keeps the process alive: release it at once, whatever the reason.
      client.connection?.stream?.destroy()
      throw err
    }
    return new PgConnection(client, protocol)
  }
  return connectWithSslFallback(sslModeOf(target.config), open)
}

// node-postgres' ssl option for one attempt: it has no `prefer` of its own (an 'N' to its
// SSLRequest fails the attempt, and ssl-fallback.js makes the plain one); `prefer` and `require`
// encrypt without checking the certificate, as libpq; verify-ca and verify-full keep the target's.
function pgSsl (mode, ssl) {
  if (mode === 'disable') return false
  if (mode === 'prefer' || mode === 'require') return { ...(typeof ssl === 'object' && ssl !== null ? ssl : {}), rejectUnauthorized: false }
  return ssl
}
