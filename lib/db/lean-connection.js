// The Connection interface (docs/architecture.md) spoken directly on a transport of its own
// (transport.js: a socket by default), from the first byte: start-up and authentication
// (connect-socket.js, startup.js), requests written by its RequestWriter (request-writer.js), their
// replies parsed by ResponseParser into the ResponseReader, COPY FROM STDIN, cancel requests.

import { inlineParameters, protocolConstant } from './connection.js'
import { RequestWriter } from './request-writer.js'
import { ResponseParser } from './response-parser.js'
import { statementCommit, textCommit } from './commit-point.js'
import { sendCancelRequest } from './cancel-request.js'
import { sslModeOf, terminated } from './ssl-negotiation.js'
import { connectWithSslFallback } from './ssl-fallback.js'
import { startSession } from './connect-socket.js'
import { installedConnector } from './connector.js'
import { CopyInStream, CopyGate } from './copy-in.js'
import { ResponseReader, connectionLost, OP_EXEC, OP_SIMPLE, OP_PREPARE, OP_PIPELINE, OP_COPY, STMT_NEW } from './response-reader.js'
import { openOnTarget } from './target-session.js'

/** @typedef {import('./connection.js').Statement} Statement */
/** @typedef {import('./connection.js').Result} Result */
/** @typedef {import('./connection.js').Protocol} Protocol */
/** @typedef {import('./connection.js').Target} Target */

// One executor for every promise: no closure per call.
let pendingResolve = null
let pendingReject = null
function capture (resolve, reject) { pendingResolve = resolve; pendingReject = reject }

/** A PostgreSQL connection speaking the protocol itself on a socket of its own. */
export class LeanConnection {
  /** @param {Protocol} protocol */
  constructor (protocol) {
    this.protocol = protocolConstant(protocol)
    this.closed = false
    /** @type {import('./transport.js').Transport|null} the way to the server, once started */
    this._transport = null
    this._requests = new RequestWriter(this.protocol)
    this._writer = this._requests.writer
    /** @type {((notice: any) => void) | null} server NOTICE/WARNING messages */
    this.onNotice = null
    /** where the run publishes what this connection runs (lib/engine/activity-slots.js); -1: nowhere.
     * Declared here so that every connection keeps one shape on the transaction path. */
    this.activityBase = -1
    // The reader, the parser and the transport see the connection only through its side.
    this._side = new ConnectionSide(this)
    this._reader = new ResponseReader(this._side)
    this._parser = new ResponseParser(this._reader, this._side)
    // The backend's key for cancel requests, and where to send them.
    this._pid = 0
    this._secretKey = 0
    this._cancelTo = { host: 'localhost', port: 5432 }
    /** Server parameters reported at start-up (server_version, client_encoding...). */
    this.parameters = {}
    /** How the server had this connection authenticate (startup.js). */
    this.authentication = 'trust'
    /** COPY FROM STDIN: requests held back while it runs, a COPY waiting for those before it */
    this._copy = new CopyGate((stream) => this._startCopy(stream))
  }

  /**
   * Reach the server and start up (connect-socket.js); resolves at the first ReadyForQuery.
   * @param {import('pg').ClientConfig & { sslmode?: string }} config
   * @param {Parameters<typeof startSession>[1]} opts
   */
  async _start (config, opts) {
    this._cancelTo = { host: config.host ?? 'localhost', port: Number(config.port ?? 5432) }
    const session = await startSession(config, opts, {
      receiver: this._side,
      attach: (transport, startup) => { this._transport = transport; this._parser.startup = startup },
      notice: (n) => this.onNotice?.(n)
    })
    this._reader.transactionStatus = session.transactionStatus
    this._pid = session.pid
    this._secretKey = session.secretKey
    this.parameters = session.parameters
    this.authentication = session.method
  }

  // The parser is done with the buffer when it returns (it copies what it keeps), so the
  // transport reuses it for every read; it reads up to `end`, so no view of the buffer is made.
  // A protocol error or a bug while handling a message leaves the stream out of step: end the
  // connection, so that every waiting request fails with CONNECTION_LOST instead of hanging.
  _parse (buf, end) {
    try {
      this._parser.parse(buf, end)
    } catch (err) {
      this._reader.socketError ??= err
      this._parser.startup?.fail(err)
      this._transport.destroy(err)
    }
  }

  // The transport closed: a start-up under way fails, requests waiting fail with CONNECTION_LOST.
  _onClose () {
    this._parser.startup?.fail(this._reader.socketError ?? terminated())
    this._reader.lost(this.closed ? new Error('connection closed') : new Error('server closed the connection'))
  }

  get backendPid () { return this._pid }

  /** The backend's secret key for cancel requests (BackendKeyData), as node-postgres' client.secretKey. */
  get secretKey () { return this._secretKey }

  /** True once the connection is lost (the pool replaces it). */
  get broken () { return this._reader.deadError !== null || this._reader.fatal !== null }

  /** @returns {'I'|'T'|'E'} */
  get transactionStatus () { return this._reader.transactionStatus }

  /** @returns {Result[]} all results of the last simpleQuery */
  get lastResults () { return this._reader.lastResults }

  /** Whether a request that may commit was sent and its outcome has not come back yet. */
  get commitInFlight () { return this._reader.commitInFlight() }

  /**
   * Cancel the backend's statement (a CancelRequest, waited for at most `timeoutMs`), then
   * destroy the socket: requests in flight fail with CONNECTION_LOST.
   * @param {number} timeoutMs
   * @returns {Promise<void>}
   */
  async cancel (timeoutMs) {
    const transport = this._transport
    if (transport === null || transport.destroyed) return
    if (this._pid !== 0 && timeoutMs > 0) {
      await sendCancelRequest({ ...this._cancelTo, pid: this._pid, secretKey: this._secretKey, timeoutMs })
    }
    transport.destroy()
    this.closed = true
  }

  /** Destroy the transport at once, without a word to the server. */
  destroy () {
    this.closed = true
    this._transport?.destroy()
  }

  /** @param {string} text @returns {Promise<Result>} */
  simpleQuery (text) {
    if (this._gone()) return this._lostPromise()
    const op = this._op(OP_SIMPLE)
    op.commit = textCommit(text, this._reader.transactionStatus)
    this._writer.query(text)
    return this._send(op)
  }

  /** @param {Statement} stmt @returns {Promise<void>} */
  prepare (stmt) {
    if (this.protocol !== 'prepared') return Promise.resolve()
    const e = this._requests.entry(stmt)
    if (e.state !== STMT_NEW) return Promise.resolve()
    if (this._gone()) return this._lostPromise()
    const op = this._op(OP_PREPARE)
    op.entry = e
    this._requests.prepare(e)
    return this._send(op)
  }

  /**
   * @param {Statement} stmt
   * @param {ReadonlyArray<any>} [values]
   * @returns {Promise<Result>}
   */
  execute (stmt, values = []) {
    if (this.protocol === 'simple') return this.simpleQuery(inlineParameters(stmt.text, values))
    if (this._gone()) return this._lostPromise()
    const op = this._op(OP_EXEC)
    op.commit = statementCommit(stmt, this._reader.transactionStatus)
    return this._send(op, this._requests.execute(op, stmt, values))
  }

  /**
   * `execute` without a promise: the result goes to `receiver.onResult(result)`, an error to
   * `receiver.onError(err)`, always after this returns. The receiver must not throw.
   * With `rows` false the caller reads nothing of the result (a script's statement without
   * \gset): neither the rows nor the command tag are decoded, and `onResult` gets an empty result
   * of the connection's (command '', rowCount 0), valid only during the call.
   * @param {Statement} stmt
   * @param {ReadonlyArray<any>} values
   * @param {{ onResult: (r: Result) => void, onError: (err: any) => void }} receiver
   * @param {boolean} [rows]
   */
  executeTo (stmt, values, receiver, rows = true) {
    if (this.protocol === 'simple' || this._gone()) {
      this.execute(stmt, values).then((r) => receiver.onResult(r), (e) => receiver.onError(e))
      return
    }
    const op = this._reader.acquire(OP_EXEC)
    op.receiver = receiver
    op.keepRows = rows
    op.commit = statementCommit(stmt, this._reader.transactionStatus)
    this._send(op, this._requests.execute(op, stmt, values))
  }

  /**
   * Set-up convenience: extended protocol (unnamed) with values, simple without.
   * @param {string} text
   * @param {ReadonlyArray<any>} [values]
   * @returns {Promise<Result>}
   */
  query (text, values) {
    if (!values || values.length === 0) return this.simpleQuery(text)
    if (this._gone()) return this._lostPromise()
    const op = this._op(OP_EXEC)
    op.commit = textCommit(text, this._reader.transactionStatus)
    this._requests.unnamed(text, values, true)
    return this._send(op)
  }

  /**
   * Pipeline mode as libpq's: every message of every batch in one write, a Sync after each
   * batch; an error skips the rest of its batch (those items get code 'PIPELINE_ABORTED').
   * @param {{stmt: Statement, values?: any[]}[][]} batches
   * @returns {Promise<(Result|Error)[][]>}
   */
  runPipeline (batches) {
    if (this._gone()) return this._lostPromise()
    const op = this._op(OP_PIPELINE)
    this._requests.pipeline(op, batches, this._reader.transactionStatus)
    return this._send(op)
  }

  /**
   * A writable stream for `COPY ... FROM STDIN`, sent once the requests already sent on this
   * connection are answered; requests made meanwhile wait until the COPY is over.
   * @param {string} sql
   * @returns {import('node:stream').Writable}
   */
  copyFrom (sql) {
    this._copy.admit()
    const stream = new CopyInStream(sql, {
      send: (bytes, done) => this._transport.writeChunk(bytes, done),
      fail: (message) => this._copyFail(message)
    })
    if (this._gone()) this._copy.refuse(stream, connectionLost(this._reader.deadError ?? new Error('connection closed')))
    else this._copy.open(stream, this._reader.idle())
    return stream
  }

  /** Close the connection (Terminate); requests still waiting fail with CONNECTION_LOST. */
  async close () {
    if (this.closed) return
    this.closed = true
    const transport = this._transport
    if (transport === null || transport.destroyed) return
    await transport.end(TERMINATE)
  }

  // ---- internals ----

  _op (kind) {
    const op = this._reader.acquire(kind)
    op.promise = new Promise(capture)
    op.resolve = pendingResolve
    op.reject = pendingReject
    return op
  }

  _gone () { return this._reader.deadError !== null || this.closed }

  _lostPromise () {
    return Promise.reject(connectionLost(this._reader.deadError ?? new Error('connection closed')))
  }

  // Write what the writer holds (or `constant`, a message never modified), one socket write;
  // queue the op for its responses.
  _send (op, constant = null) {
    const promise = op.promise
    if (this._copy.holding) {
      const bytes = constant ?? Buffer.from(this._writer.take())
      this._copy.hold(() => this._write(op, bytes, false))
      return promise
    }
    if (constant !== null) this._write(op, constant, false)
    else this._write(op, this._writer.take(), true)
    return promise
  }

  _write (op, bytes, fromWriter) {
    if (this._reader.deadError !== null) { this._reader.failLost(op); return }
    this._reader.push(op)
    const free = this._transport.write(bytes)
    if (fromWriter) this._writer.release(free)
  }

  // A COPY FROM STDIN that is not (or no longer) wanted: the server answers with an error.
  _copyFail (message) {
    this._writer.copyFail(message)
    this._transport.writeChunk(Buffer.from(this._writer.take()))
  }

  // Send a COPY statement, as a request whose receiver is its stream.
  _startCopy (stream) {
    const op = this._reader.acquire(OP_COPY)
    op.receiver = stream
    op.commit = textCommit(stream.sql, this._reader.transactionStatus)
    this._writer.query(stream.sql)
    this._write(op, this._writer.take(), true)
  }
}

/**
 * The connection as its reader (ReaderHooks), its parser (ParserHooks) and its transport
 * (TransportReceiver) see it: a few methods each. Methods of one class, not closures made per
 * connection, so that each call site on the path of every statement has one target.
 */
class ConnectionSide {
  /** @param {LeanConnection} conn */
  constructor (conn) { this.conn = conn }

  forgetStatements () { this.conn._requests.forgetStatements() }
  refuseCopy (message) { this.conn._copyFail(message) }
  copyOver () { this.conn._copy.over() }
  idle () { this.conn._copy.idle() }
  lost () { this.conn._copy.lost(connectionLost(this.conn._reader.deadError)) }

  notice (notice) { this.conn.onNotice?.(notice) }
  parameter (name, value) { this.conn.parameters[name] = value }

  onBytes (buf, n) { this.conn._parse(buf, n) }
  onClose () { this.conn._onClose() }
  onError (err) { this.conn._reader.socketError ??= err }
}

const TERMINATE = Buffer.from([0x58, 0, 0, 0, 4])

/**
 * Open a lean connection to a target (same signature as `openConnection`): the target's
 * sslmode (libpq's meaning, second attempt included: ssl-fallback.js), its
 * connect_timeout for the whole start-up unless the caller gives one. `connect` chooses the
 * transport (default: a socket, connect-socket.js); without it, a connector installed in this
 * thread (connector.js) opens the connection instead.
 * @param {Target} target
 * @param {{ applicationName?: string, protocol?: Protocol, connectTimeoutMs?: number,
 *   connect?: import('./transport.js').ConnectTransport }} [opts]
 * @returns {Promise<LeanConnection>}
 */
export async function openLeanConnection (target, opts = {}) {
  const installed = installedConnector()
  if (installed !== null && opts.connect === undefined) return installed(target, opts)
  return openOnTarget(target, (one) => openLeanOne(one, opts))
}

async function openLeanOne (target, opts) {
  const { applicationName = 'pgload', protocol = 'prepared', connectTimeoutMs, connect } = opts
  const config = target.config
  const timeoutMs = connectTimeoutMs ?? config.connectionTimeoutMillis ?? 10000
  const mode = sslModeOf(config)
  const open = async (m) => {
    const conn = new LeanConnection(protocol)
    await conn._start(config, { mode: m, applicationName, timeoutMs, connect })
    return conn
  }
  return connectWithSslFallback(mode, open)
}
