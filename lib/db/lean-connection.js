// The Connection interface (docs/architecture.md) driven directly on pg-protocol: node-postgres
// opens and authenticates the socket (and runs COPY), then this module writes and parses messages.

import pg from 'pg'
import { Socket } from 'node:net'
import copyStreams from 'pg-copy-streams'
import { inlineParameters, protocolConstant } from './connection.js'
import { MessageWriter, bindPrefix, bindExecuteConstant } from './message-writer.js'
import { HandleWriter } from './handle-writer.js'
import { ResponseParser } from './response-parser.js'
import { statementCommit, textCommit, COMMIT_NONE, COMMIT_IMPLICIT, COMMIT_EXPLICIT } from './commit-point.js'
import { cancelAndDestroy } from './cancel-request.js'
import { ResponseReader, connectionLost, OP_EXEC, OP_SIMPLE, OP_PREPARE, OP_PIPELINE, STMT_NEW, STMT_SENT } from './response-reader.js'

/** @typedef {import('./connection.js').Statement} Statement */
/** @typedef {import('./connection.js').Result} Result */
/** @typedef {import('./connection.js').Protocol} Protocol */
/** @typedef {import('./connection.js').Target} Target */

/** A statement as known to one connection. */
class StatementEntry {
  constructor (stmt) {
    this.name = stmt.name
    this.text = stmt.text
    this.prefix = bindPrefix(stmt.name)
    this.state = STMT_NEW
    /** @type {string[]|undefined} field names, learnt from the first Describe */
    this.fields = undefined
    /** @type {Buffer|null} Bind/Execute/Sync without parameters, once made: the same bytes every time */
    this.constant = null
  }
}

// One executor for every promise: no closure per call.
let pendingResolve = null
let pendingReject = null
function capture (resolve, reject) { pendingResolve = resolve; pendingReject = reject }

const READ_BYTES = 64 * 1024 // the socket's read buffer, reused for every read

/** A PostgreSQL connection speaking the protocol itself on a socket opened by node-postgres. */
export class LeanConnection {
  /** @param {Protocol} protocol */
  constructor (protocol) {
    this.protocol = protocolConstant(protocol)
    /** @type {import('pg').Client} */
    this.client = null
    /** @type {Result[]} all results of the last simpleQuery */
    this.lastResults = []
    this.closed = false
    this._con = null
    this._socket = null
    this._writer = new MessageWriter()
    /** @type {HandleWriter|null} the socket's writes, once taken over */
    this._out = null
    /** @type {((notice: any) => void) | null} server NOTICE/WARNING messages */
    this.onNotice = null
    this._reader = new ResponseReader(this)
    this._parser = new ResponseParser(this)
    /** @type {(StatementEntry|undefined)[]} by statement id */
    this._entries = []
    this._pgMode = true // node-postgres drives the socket: start-up, authentication, COPY
    /** @type {Function[]} requests made while node-postgres drives the socket */
    this._waiting = []
    /** @type {any} the copy stream to hand to node-postgres once our requests are answered */
    this._copyPending = null
    this._txStatus = 'I'
    this._readBuf = null
  }

  /**
   * A plain TCP/Unix socket that reads into one buffer of ours and calls us back (net's `onread`),
   * skipping the Readable stream. node-postgres gets its messages through _toPg meanwhile.
   * @returns {import('node:net').Socket}
   */
  _createSocket () {
    this._readBuf = Buffer.allocUnsafe(READ_BYTES)
    return new Socket({
      onread: {
        buffer: this._readBuf,
        callback: (nread, buf) => { this._onRead(nread, buf) }
      }
    })
  }

  // The parser is done with the buffer when it returns (it copies what it keeps), so the same
  // buffer takes every read; it reads up to nread, so no view of the buffer is made.
  _onRead (nread, buf) {
    this._parse(buf, nread)
  }

  // A protocol error or a bug while handling a message leaves the stream out of step: end the
  // connection, so that every waiting request fails with CONNECTION_LOST instead of hanging.
  _parse (buf, end) {
    try {
      this._parser.parse(buf, end)
    } catch (err) {
      this._reader.socketError ??= err
      ;(this._socket ?? this._con.stream).destroy(err)
    }
  }

  /** @param {import('pg').Client} client before connect() */
  _attach (client) {
    this.client = client
    this._con = client.connection
    client.on('error', () => {}) // socket errors surface as CONNECTION_LOST on requests
  }

  // After connect(): take the socket over from node-postgres.
  _takeOver () {
    const socket = this._socket = this._con.stream
    if (this._readBuf === null) {
      // TLS (or a stream of the caller's): the seam is pg-protocol's one 'data' listener, which
      // feeds node-postgres' Connection events. Replace it by ours.
      for (const l of socket.listeners('data')) socket.removeListener('data', l)
      socket.on('data', (buf) => this._parse(buf, buf.length))
    }
    socket.on('close', () => this._reader.lost(this.closed ? new Error('connection closed') : new Error('server closed the connection')))
    socket.on('error', (err) => { this._reader.socketError ??= err })
    this._txStatus = this.client._txStatus ?? 'I'
    // straight to the handle only on our own plain socket (TLS encrypts in its stream)
    this._out = new HandleWriter(socket, this._readBuf !== null)
    this._pgMode = false
  }

  get backendPid () { return this.client.processID }

  /** True once the connection is lost (the pool replaces it). */
  get broken () { return this._reader.deadError !== null || this._reader.fatal !== null }

  /** @returns {'I'|'T'|'E'} */
  get transactionStatus () { return this._txStatus }

  /** Whether a request that may commit was sent and its outcome has not come back yet. */
  get commitInFlight () { return this._reader.commitInFlight() }

  /**
   * Cancel the backend's statement (a CancelRequest, waited for at most `timeoutMs`), then
   * destroy the socket: requests in flight fail with CONNECTION_LOST.
   * @param {number} timeoutMs
   * @returns {Promise<void>}
   */
  async cancel (timeoutMs) {
    if (this._socket === null) return
    await cancelAndDestroy(this.client, timeoutMs)
    this.closed = true
  }

  /** Destroy the socket at once, without a word to the server. */
  destroy () {
    this.closed = true
    ;(this._socket ?? this._con?.stream)?.destroy()
  }

  /** @param {string} text @returns {Promise<Result>} */
  simpleQuery (text) {
    if (this._gone()) return this._lostPromise()
    const op = this._op(OP_SIMPLE)
    op.commit = textCommit(text, this._txStatus)
    this._writer.query(text)
    return this._send(op)
  }

  /** @param {Statement} stmt @returns {Promise<void>} */
  prepare (stmt) {
    if (this.protocol !== 'prepared') return Promise.resolve()
    const e = this._entry(stmt)
    if (e.state !== STMT_NEW) return Promise.resolve()
    if (this._gone()) return this._lostPromise()
    const op = this._op(OP_PREPARE)
    op.entry = e
    e.state = STMT_SENT
    const w = this._writer
    w.parse(e.name, e.text)
    w.describe(0x53, e.name)
    w.sync()
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
    op.commit = statementCommit(stmt, this._txStatus)
    return this._send(op, this._writeExecute(op, stmt, values))
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
    op.commit = statementCommit(stmt, this._txStatus)
    this._send(op, this._writeExecute(op, stmt, values))
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
    op.commit = textCommit(text, this._txStatus)
    this._writeUnnamed(text, values, true)
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
    const named = this.protocol === 'prepared'
    op.batches = batches
    op.entries = named ? [] : null
    // Settled only as a whole: it may commit if it starts outside a block or holds a COMMIT.
    op.commit = this._txStatus === 'I' ? COMMIT_IMPLICIT : COMMIT_NONE
    for (const batch of batches) {
      for (let i = 0; i < batch.length; i++) {
        const { stmt, values = [] } = batch[i]
        if (statementCommit(stmt, 'T') === COMMIT_EXPLICIT) op.commit = COMMIT_IMPLICIT
        if (named) {
          const e = this._entries[stmt.id] ?? this._entry(stmt)
          op.entries.push(e)
          this._writeNamed(e, values, false)
        } else {
          this._writeUnnamed(stmt.text, values, false)
        }
      }
      this._writer.sync()
    }
    return this._send(op)
  }

  /**
   * A writable stream for `COPY ... FROM STDIN`, run by node-postgres once the requests
   * already sent on this connection are answered.
   * @param {string} sql
   */
  copyFrom (sql) {
    const stream = copyStreams.from(sql)
    if (this._copyPending || this._pgMode) throw new Error('copyFrom: a COPY is already running on this connection')
    this._copyPending = stream
    if (this._reader.idle()) this._startPg()
    return stream
  }

  /** Close the connection (Terminate); requests still waiting fail with CONNECTION_LOST. */
  async close () {
    if (this.closed) return
    this.closed = true
    if (this._socket?.destroyed) return
    try { await this.client.end() } catch { /* already gone */ }
  }

  // ---- internals ----

  _entry (stmt) {
    let e = this._entries[stmt.id]
    if (e === undefined) {
      e = new StatementEntry(stmt)
      this._entries[stmt.id] = e
    }
    return e
  }

  // One statement for execute/executeTo, per the protocol (prepared or extended), with its Sync:
  // written into the writer (returns null), or, for a prepared statement without parameters
  // (BEGIN, END), the entry's constant message, which no writer work has to rebuild.
  _writeExecute (op, stmt, values) {
    if (this.protocol === 'prepared') {
      const e = this._entries[stmt.id] ?? this._entry(stmt)
      op.entry = e
      if (values.length === 0 && e.state !== STMT_NEW && e.fields !== undefined) {
        if (e.constant === null) e.constant = bindExecuteConstant(e.prefix)
        return e.constant
      }
      this._writeNamed(e, values, true)
    } else {
      this._writeUnnamed(stmt.text, values, true)
    }
    return null
  }

  // Parse once per connection (with a Describe to learn the field names), then Bind/Execute.
  _writeNamed (e, values, sync) {
    const w = this._writer
    if (e.state === STMT_NEW) {
      w.parse(e.name, e.text)
      e.state = STMT_SENT
    }
    w.bindExecute(e.prefix, values, e.fields === undefined, sync)
  }

  _writeUnnamed (text, values, sync) {
    this._writer.parse('', text)
    this._writer.bindExecute(UNNAMED_PREFIX, values, true, sync)
  }

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
    if (this._pgMode || this._copyPending) {
      const bytes = constant ?? Buffer.from(this._writer.take())
      this._waiting.push(() => this._write(op, bytes, false))
      return promise
    }
    if (constant !== null) this._write(op, constant, false)
    else this._write(op, this._writer.take(), true)
    return promise
  }

  _write (op, bytes, fromWriter) {
    if (this._reader.deadError !== null) { this._reader.failLost(op); return }
    this._reader.push(op)
    const free = this._out.write(bytes)
    if (fromWriter) this._writer.release(free)
  }

  // Hand the socket to node-postgres for the pending COPY.
  _startPg () {
    const stream = this._copyPending
    this._copyPending = null
    this._pgMode = true
    this.client.query(stream)
  }

  // Forward a message to node-postgres as its own parse callback would, and take the socket
  // back when its query queue is empty after a ReadyForQuery.
  _toPg (msg) {
    const con = this._con
    if (con._emitMessage) con.emit('message', msg)
    con.emit(msg.name === 'error' ? 'errorMessage' : msg.name, msg)
    if (msg.name === 'readyForQuery') {
      this._txStatus = msg.status
      if (this.client._getActiveQuery() == null && this.client._queryQueue.length === 0) {
        this._pgMode = false
        const waiting = this._waiting
        this._waiting = []
        for (const fn of waiting) fn()
      }
    }
  }

  // Called by the reader when every sent request has been answered.
  _onIdle () {
    if (this._copyPending) this._startPg()
  }

  // Called by the reader once the socket is closed: requests held back fail now, and a pending
  // COPY goes to node-postgres, which fails it as not queryable.
  _onLost () {
    if (this._copyPending) this._startPg()
    const waiting = this._waiting
    this._waiting = []
    for (const fn of waiting) fn()
  }

  // A COPY FROM STDIN reached the simple protocol: refuse it (the server answers with an error).
  _copyFail (message) {
    this._writer.copyFail(message)
    this._out.write(Buffer.from(this._writer.take()))
  }

  // After DEALLOCATE ALL / DISCARD ALL every statement must be parsed again.
  _forgetStatements () {
    for (const e of this._entries) {
      if (e !== undefined) { e.state = STMT_NEW; e.fields = undefined }
    }
  }
}

const UNNAMED_PREFIX = bindPrefix('')

/**
 * Open a lean connection to a target (same signature as `openConnection`).
 * @param {Target} target
 * @param {{ applicationName?: string, protocol?: Protocol, connectTimeoutMs?: number }} [opts]
 * @returns {Promise<LeanConnection>}
 */
export async function openLeanConnection (target, { applicationName = 'pgload', protocol = 'prepared', connectTimeoutMs } = {}) {
  const conn = new LeanConnection(protocol)
  const config = {
    ...target.config,
    application_name: applicationName,
    // the target's connect_timeout (URL or PGCONNECT_TIMEOUT) unless the caller insists, as openConnection
    connectionTimeoutMillis: connectTimeoutMs ?? target.config.connectionTimeoutMillis ?? 10000
  }
  if (!config.ssl && !config.stream) config.stream = () => conn._createSocket()
  const client = new pg.Client(config)
  conn._attach(client)
  await client.connect()
  conn._takeOver()
  return conn
}
