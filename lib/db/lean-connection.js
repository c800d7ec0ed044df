// The Connection interface (docs/architecture.md) spoken directly on a socket of its own, from the
// first byte: start-up and authentication (startup.js), SSL (ssl-negotiation.js), statements
// written by MessageWriter and parsed by ResponseParser, COPY FROM STDIN, cancel requests.

import { Socket } from 'node:net'
import { DatabaseError } from 'pg-protocol'
import { inlineParameters, protocolConstant } from './connection.js'
import { MessageWriter, bindPrefix, bindExecuteConstant } from './message-writer.js'
import { ResponseParser } from './response-parser.js'
import { statementCommit, textCommit, COMMIT_NONE, COMMIT_IMPLICIT, COMMIT_EXPLICIT } from './commit-point.js'
import { sendCancelRequest } from './cancel-request.js'
import { sslModeOf, terminated } from './ssl-negotiation.js'
import { startConnection } from './connect-socket.js'
import { CopyInStream } from './copy-in.js'
import { StatementEntry } from './statement-entry.js'
import { ResponseReader, connectionLost, OP_EXEC, OP_SIMPLE, OP_PREPARE, OP_PIPELINE, STMT_NEW, STMT_SENT } from './response-reader.js'

/** @typedef {import('./connection.js').Statement} Statement */
/** @typedef {import('./connection.js').Result} Result */
/** @typedef {import('./connection.js').Protocol} Protocol */
/** @typedef {import('./connection.js').Target} Target */

// One executor for every promise: no closure per call.
let pendingResolve = null
let pendingReject = null
function capture (resolve, reject) { pendingResolve = resolve; pendingReject = reject }

const READ_BYTES = 64 * 1024 // the socket's read buffer, reused for every read

/** A PostgreSQL connection speaking the protocol itself on a socket of its own. */
export class LeanConnection {
  /** @param {Protocol} protocol */
  constructor (protocol) {
    this.protocol = protocolConstant(protocol)
    /** @type {Result[]} all results of the last simpleQuery */
    this.lastResults = []
    this.closed = false
    /** @type {import('node:net').Socket|null} */
    this._socket = null
    this._writer = new MessageWriter()
    /** @type {HandleWriter|null} the socket's writes, once started */
    this._out = null
    /** @type {((notice: any) => void) | null} server NOTICE/WARNING messages */
    this.onNotice = null
    this._reader = new ResponseReader(this)
    this._parser = new ResponseParser(this)
    /** @type {(StatementEntry|undefined)[]} by statement id */
    this._entries = []
    /** @type {Startup|null} while starting: the parser hands it every message */
    this._startup = null
    this._starting = false
    // The backend's key for cancel requests, and where to send them.
    this._pid = 0
    this._secretKey = 0
    this._cancelTo = { host: 'localhost', port: 5432 }
    /** Server parameters reported at start-up (server_version, client_encoding...). */
    this.parameters = {}
    /** How the server had this connection authenticate (startup.js). */
    this.authentication = 'trust'
    /** True from copyFrom until its COPY is over: requests wait in `_waiting` meanwhile. */
    this._holding = false
    /** @type {Function[]} */
    this._waiting = []
    /** @type {CopyInStream|null} a COPY waiting for the requests sent before it */
    this._copyPending = null
    this._transaction = 'I'
    this._readBuf = null
  }

  /**
   * A plain TCP/Unix socket that reads into one buffer of ours and calls us back (net's `onread`),
   * skipping the Readable stream.
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
      this._startup?.fail(err)
      this._socket.destroy(err)
    }
  }

  // The socket closed: a start-up under way fails, requests waiting fail with CONNECTION_LOST.
  _onClose () {
    this._startup?.fail(this._reader.socketError ?? terminated())
    this._reader.lost(this.closed ? new Error('connection closed') : new Error('server closed the connection'))
  }

  get backendPid () { return this._pid }

  /** True once the connection is lost (the pool replaces it). */
  get broken () { return this._reader.deadError !== null || this._reader.fatal !== null }

  /** @returns {'I'|'T'|'E'} */
  get transactionStatus () { return this._transaction }

  /** Whether a request that may commit was sent and its outcome has not come back yet. */
  get commitInFlight () { return this._reader.commitInFlight() }

  /**
   * Cancel the backend's statement (a CancelRequest, waited for at most `timeoutMs`), then
   * destroy the socket: requests in flight fail with CONNECTION_LOST.
   * @param {number} timeoutMs
   * @returns {Promise<void>}
   */
  async cancel (timeoutMs) {
    const socket = this._socket
    if (socket === null || socket.destroyed) return
    if (this._pid !== 0 && timeoutMs > 0) {
      await sendCancelRequest({ ...this._cancelTo, pid: this._pid, secretKey: this._secretKey, timeoutMs })
    }
    socket.destroy()
    this.closed = true
  }

  /** Destroy the socket at once, without a word to the server. */
  destroy () {
    this.closed = true
    this._socket?.destroy()
  }

  /** @param {string} text @returns {Promise<Result>} */
  simpleQuery (text) {
    if (this._gone()) return this._lostPromise()
    const op = this._op(OP_SIMPLE)
    op.commit = textCommit(text, this._transaction)
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
    op.commit = statementCommit(stmt, this._transaction)
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
    op.commit = statementCommit(stmt, this._transaction)
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
    op.commit = textCommit(text, this._transaction)
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
    op.commit = this._transaction === 'I' ? COMMIT_IMPLICIT : COMMIT_NONE
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
   * A writable stream for `COPY ... FROM STDIN`, sent once the requests already sent on this
   * connection are answered; requests made meanwhile wait until the COPY is over.
   * @param {string} sql
   * @returns {import('node:stream').Writable}
   */
  copyFrom (sql) {
    if (this._holding) throw new Error('copyFrom: a COPY is already running on this connection')
    const stream = new CopyInStream(this, sql)
    this._holding = true
    if (this._gone()) queueMicrotask(() => stream.onError(connectionLost(this._reader.deadError ?? new Error('connection closed'))))
    else if (this._reader.idle()) stream.start()
    else this._copyPending = stream
    return stream
  }

  /** Close the connection (Terminate); requests still waiting fail with CONNECTION_LOST. */
  async close () {
    if (this.closed) return
    this.closed = true
    const socket = this._socket
    if (socket === null || socket.destroyed) return
    await new Promise((resolve) => {
      socket.once('close', resolve)
      this._out.write(TERMINATE)
      socket.end()
    })
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
    if (this._holding) {
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

  // A COPY FROM STDIN that is not (or no longer) wanted: the server answers with an error.
  _copyFail (message) {
    this._writer.copyFail(message)
    this._socket.write(Buffer.from(this._writer.take()))
  }

  // Called by the reader when the COPY's op is settled: the requests held back go out now.
  _copyOver () {
    this._holding = false
    const waiting = this._waiting
    this._waiting = []
    for (const fn of waiting) fn()
  }

  // Called by the reader when every sent request has been answered.
  _onIdle () {
    const stream = this._copyPending
    if (stream !== null) {
      this._copyPending = null
      stream.start()
    }
  }

  // Called by the reader once the socket is closed: a COPY not yet sent and the requests held
  // back fail now.
  _onLost () {
    const stream = this._copyPending
    this._copyPending = null
    if (stream !== null) stream.onError(connectionLost(this._reader.deadError))
    this._copyOver()
  }

  // After DEALLOCATE ALL / DISCARD ALL every statement must be parsed again.
  _forgetStatements () {
    for (const e of this._entries) {
      if (e !== undefined) { e.state = STMT_NEW; e.fields = undefined }
    }
  }
}

const UNNAMED_PREFIX = bindPrefix('')
const TERMINATE = Buffer.from([0x58, 0, 0, 0, 4])

/**
 * Open a lean connection to a target (same signature as `openConnection`): the target's
 * sslmode (libpq's meaning; `allow` retries with SSL when the server refuses plain), its
 * connect_timeout for the whole start-up unless the caller gives one.
 * @param {Target} target
 * @param {{ applicationName?: string, protocol?: Protocol, connectTimeoutMs?: number }} [opts]
 * @returns {Promise<LeanConnection>}
 */
export async function openLeanConnection (target, { applicationName = 'pgload', protocol = 'prepared', connectTimeoutMs } = {}) {
  const config = target.config
  const timeoutMs = connectTimeoutMs ?? config.connectionTimeoutMillis ?? 10000
  const mode = sslModeOf(config)
  const open = async (m) => {
    const conn = new LeanConnection(protocol)
    await startConnection(conn, config, { mode: m, applicationName, timeoutMs })
    return conn
  }
  try {
    return await open(mode === 'allow' ? 'disable' : mode)
  } catch (err) {
    if (mode !== 'allow' || !(err instanceof DatabaseError)) throw err
    return open('require')
  }
}
