// Backend messages of a lean connection matched to the requests that caused them, in order:
// results built in array mode as text (ResponseParser decodes the rows), pipelines
// with libpq's semantics, connection loss failing every request with CONNECTION_LOST, except a
// COMMIT the server completed (committed); a commit in flight is flagged (outcome unknown).

import { COMMIT_NONE, COMMIT_EXPLICIT } from './commit-point.js'

export const OP_EXEC = 1 // extended: [Parse] Bind [Describe] Execute Sync
export const OP_SIMPLE = 2 // Query, possibly several statements
export const OP_PREPARE = 3 // Parse Describe(statement) Sync
export const OP_PIPELINE = 4 // batches of Bind/Execute, a Sync after each batch
export const OP_COPY = 5 // Query of a COPY FROM STDIN; its receiver is the CopyInStream

export const STMT_NEW = 0 // not parsed on this connection
export const STMT_SENT = 1 // Parse written, ParseComplete not seen yet
export const STMT_PARSED = 2

const EMPTY = Object.freeze([])

/**
 * A `Result` of the Connection interface, a plain object as node-postgres' path returns.
 * @param {string[]} fields
 * @returns {import('./connection.js').Result}
 */
export function newResult (fields) {
  return { command: '', rowCount: 0, fields, rows: [] }
}

/** One request waiting for its responses (pooled: reset and reused). */
export class Op {
  constructor () {
    this.kind = 0
    this.promise = null
    this.resolve = null
    this.reject = null
    /** @type {{ onResult: Function, onError: Function }|null} instead of a promise (executeTo) */
    this.receiver = null
    this.keepRows = true // false: nothing is decoded and the result is the reader's empty scratch one (executeTo)
    this.entry = null // statement entry (prepared execute or prepare)
    this.result = null // result being filled
    this.error = null // first server error
    this.results = null // simple: every statement's result
    this.batches = null // pipeline: the batches as given
    this.entries = null // pipeline: statement entry per item (prepared), flattened
    this.out = null // pipeline: per batch, Result|Error per item
    this.cur = null // pipeline: the current batch's output
    this.bi = 0 // pipeline: current batch
    this.fi = 0 // pipeline: current item, flattened over batches
    this.commit = COMMIT_NONE // what this request commits (commit-point.js), until the server settles it
    this.acked = false // COMMIT_EXPLICIT: its CommandComplete came (committed)
    this.next = null
  }
}

/**
 * The error every request gets once the connection is gone.
 * @param {any} cause
 */
export function connectionLost (cause, outcomeUnknown = false) {
  const e = new Error(`connection to server lost: ${cause?.message ?? cause}${outcomeUnknown ? ' (a commit was sent and not answered: outcome unknown)' : ''}`)
  e.code = 'CONNECTION_LOST'
  e.cause = cause
  // a commit was sent and not answered: the server may or may not have committed it
  if (outcomeUnknown) e.outcomeUnknown = true
  return e
}

function pipelineAborted () {
  const e = new Error('pipeline aborted by an earlier error')
  e.code = 'PIPELINE_ABORTED'
  return e
}

/**
 * What the reader tells its connection.
 * @typedef {object} ReaderHooks
 * @property {() => void} forgetStatements DEALLOCATE ALL / DISCARD ALL ran: parse every statement again
 * @property {(message: string) => void} refuseCopy a COPY FROM STDIN not started by copyFrom: fail it
 * @property {() => void} copyOver the COPY's request is settled: requests held back may go
 * @property {() => void} idle every request sent is answered
 * @property {() => void} lost the connection is gone and every request waiting failed
 */

/** Matches responses to requests for one LeanConnection. */
export class ResponseReader {
  /** @param {ReaderHooks} hooks */
  constructor (hooks) {
    this.hooks = hooks
    /** @type {'I'|'T'|'E'} the transaction status of the last ReadyForQuery */
    this.transactionStatus = 'I'
    /** @type {import('./connection.js').Result[]} all results of the last simple query */
    this.lastResults = []
    /** @type {Op|null} */
    this.head = null
    /** @type {Op|null} */
    this.tail = null
    /** @type {Op|null} released requests, linked by `next`: no array, whose elements kind a
     * fresh connection would change on its first release (optimized code would be thrown away) */
    this.spare = null
    /** @type {any} why the connection is gone, once it is */
    this.deadError = null
    this.socketError = null
    this.fatal = null
    // The one Result handed to receivers that read none: nothing is allocated per statement, and
    // it stays empty (no rows, fields or command tag are decoded for them).
    this.scratch = Object.freeze({ command: '', rowCount: 0, fields: EMPTY, rows: EMPTY })
  }

  /** @param {number} kind @returns {Op} */
  acquire (kind) {
    let op = this.spare
    if (op === null) op = new Op()
    else { this.spare = op.next; op.next = null }
    op.kind = kind
    return op
  }

  release (op) {
    op.promise = op.resolve = op.reject = op.receiver = null
    op.keepRows = true
    op.entry = op.result = op.error = op.results = null
    op.batches = op.entries = op.out = op.cur = null
    op.bi = op.fi = 0
    op.commit = COMMIT_NONE
    op.acked = false
    op.next = this.spare
    this.spare = op
  }

  /** @param {Op} op a request just written */
  push (op) {
    if (op.kind === OP_SIMPLE) op.results = []
    else if (op.kind === OP_PIPELINE) { op.out = []; op.cur = [] }
    if (this.tail === null) this.head = op
    else this.tail.next = op
    this.tail = op
  }

  idle () { return this.head === null }

  /** Whether a request that may commit was sent and is not answered yet. */
  commitInFlight () {
    for (let op = this.head; op !== null; op = op.next) if (op.commit !== COMMIT_NONE) return true
    return false
  }

  /** Reject a request that could not be sent, or was lost (`unknown`: a commit in flight). */
  failLost (op, unknown = false) {
    const err = connectionLost(this.deadError ?? new Error('connection closed'), unknown)
    const receiver = op.receiver
    if (receiver !== null) queueMicrotask(() => receiver.onError(err)) // maybe inside executeTo
    else op.reject(err)
    this.release(op)
  }

  /**
   * The socket closed: every request waiting fails with CONNECTION_LOST, flagged outcome unknown
   * when it may have committed; a COMMIT whose CommandComplete came succeeds (it committed, only
   * ReadyForQuery was lost).
   */
  lost (cause) {
    if (this.deadError !== null) return
    this.deadError = this.fatal ?? this.socketError ?? cause
    let op = this.head
    this.head = this.tail = null
    while (op !== null) {
      const next = op.next
      if (op.acked && op.error === null && op.kind !== OP_PIPELINE) {
        this.transactionStatus = 'I'
        this.settle(op)
      } else {
        this.failLost(op, op.commit !== COMMIT_NONE)
      }
      op = next
    }
    this.hooks.lost()
  }

  // ---- the messages of every statement, decoded by ResponseParser ----

  bindComplete () {
    const op = this.head
    op.result = op.keepRows ? newResult(this.entryOf(op)?.fields ?? EMPTY) : this.scratch
  }

  /** Whether the request being answered reads its result (else the parser skips rows and tag). */
  rowsWanted () {
    return this.head.keepRows
  }

  /** @param {(string|null)[]} row */
  dataRow (row) {
    this.head.result.rows.push(row)
  }

  /**
   * @param {string} command the tag's first word
   * @param {number} rowCount
   * @param {string|null} tag the whole tag when it is not one of the common ones
   */
  commandComplete (command, rowCount, tag) {
    if (tag === 'DEALLOCATE ALL' || tag === 'DISCARD ALL') this.hooks.forgetStatements()
    const op = this.head
    if (op.commit === COMMIT_EXPLICIT) op.acked = true
    const r = this.complete(op)
    if (r === this.scratch) return
    r.command = command
    r.rowCount = rowCount
  }

  emptyQuery () {
    this.complete(this.head)
  }

  parseComplete () {
    const e = this.entryOf(this.head)
    if (e !== null) e.state = STMT_PARSED
  }

  noData () {
    this.describe(this.head, EMPTY)
  }

  /** @param {string} status 'I', 'T' or 'E' */
  readyForQuery (status) {
    this.ready(this.head, status)
  }

  /** @param {string[]} names a RowDescription's field names */
  rowDescription (names) {
    this.describe(this.head, names)
  }

  /** An ErrorResponse, as server-message.js decodes it. */
  errorResponse (err) {
    this.error(this.head, err)
  }

  /** CopyInResponse: the server waits for COPY data. */
  copyIn () {
    const op = this.head
    if (op !== null && op.kind === OP_COPY) op.receiver.begin()
    // COPY FROM STDIN belongs to copyFrom(); refuse it elsewhere so the connection stays usable.
    else this.hooks.refuseCopy('COPY FROM STDIN is only supported through copyFrom()')
  }

  entryOf (op) {
    if (op.kind === OP_PIPELINE) return op.entries === null ? null : op.entries[op.fi]
    return op.entry
  }

  describe (op, names) {
    if (op.kind === OP_SIMPLE) { op.result = newResult(names); return }
    const e = this.entryOf(op)
    if (e !== null) e.fields = names
    if (op.result !== null && op.result !== this.scratch) op.result.fields = names
  }

  // The statement in progress is over: its Result (made when no row or description came),
  // filed as the request kind wants; returned for its command tag.
  complete (op) {
    const r = op.result ?? newResult(EMPTY)
    if (op.kind === OP_SIMPLE) {
      op.results.push(r)
      op.result = null
    } else if (op.kind === OP_PIPELINE) {
      op.cur.push(r)
      op.result = null
      op.fi++
    } else {
      op.result = r
    }
    return r
  }

  error (op, err) {
    if (err.severity === 'FATAL' || err.severity === 'PANIC') {
      this.fatal = err // the server closes the connection next
      return
    }
    if (op === null) return
    const e = this.entryOf(op)
    if (e !== null && e.state === STMT_SENT) { e.state = STMT_NEW; e.fields = undefined }
    if (op.kind !== OP_PIPELINE) {
      op.error ??= err
      // an extended-protocol statement that failed did not commit; a simple query may hold several
      if (op.kind === OP_EXEC) op.commit = COMMIT_NONE
      return
    }
    // The server skips to the batch's Sync: the failed item gets the error, the rest are aborted.
    op.cur.push(err)
    op.fi++
    this.abortRest(op)
  }

  abortRest (op) {
    const batch = op.batches[op.bi]
    while (op.cur.length < batch.length) {
      const e = this.entryOf(op)
      if (e !== null && e.state === STMT_SENT) e.state = STMT_NEW
      op.cur.push(pipelineAborted())
      op.fi++
    }
    op.result = null
  }

  ready (op, status) {
    this.transactionStatus = status
    if (op === null) return
    if (op.kind === OP_PIPELINE) {
      this.abortRest(op)
      op.out.push(op.cur)
      op.bi++
      if (op.bi < op.batches.length) { op.cur = []; return }
    }
    this.head = op.next
    if (this.head === null) this.tail = null
    this.settle(op)
    if (this.head === null) this.hooks.idle()
  }

  // Hand a request its outcome (taken off the queue already).
  settle (op) {
    const { resolve, reject, error, receiver } = op
    let value
    switch (op.kind) {
      case OP_EXEC: value = op.result; break
      case OP_PIPELINE: value = op.out; break
      case OP_COPY: value = op.result; this.hooks.copyOver(); break
      case OP_SIMPLE:
        this.lastResults = op.results
        value = op.results.length > 0 ? op.results[op.results.length - 1] : newResult(EMPTY)
        break
      default: value = undefined
    }
    this.release(op)
    if (receiver !== null) {
      if (error !== null) receiver.onError(error)
      else receiver.onResult(value)
    } else if (error !== null) reject(error)
    else resolve(value)
  }
}
