// The messages of a lean connection's requests, per its protocol: a named statement parsed once
// per connection (with a Describe to learn its fields) then bound and executed, an unnamed one
// parsed every time, and for a prepared statement without parameters (BEGIN, END) a constant
// message kept with the statement. Everything is written into one reused MessageWriter, whose
// bytes the connection takes and sends (lean-connection.js).

import { MessageWriter, bindPrefix, bindExecuteConstant } from './message-writer.js'
import { statementCommit, COMMIT_NONE, COMMIT_IMPLICIT, COMMIT_EXPLICIT } from './commit-point.js'
import { StatementEntry } from './statement-entry.js'
import { STMT_NEW, STMT_SENT } from './response-reader.js'

/** @typedef {import('./connection.js').Statement} Statement */

const UNNAMED_PREFIX = bindPrefix('')

/** The statements of one connection and the messages of its requests. */
export class RequestWriter {
  /** @param {'simple'|'extended'|'prepared'} protocol */
  constructor (protocol) {
    this.protocol = protocol
    this.writer = new MessageWriter()
    /** @type {(StatementEntry|undefined)[]} by statement id */
    this.entries = []
  }

  /** The connection's entry of a statement, made the first time. @param {Statement} stmt */
  entry (stmt) {
    let e = this.entries[stmt.id]
    if (e === undefined) {
      e = new StatementEntry(stmt)
      this.entries[stmt.id] = e
    }
    return e
  }

  /** Parse and Describe a named statement, with a Sync. @param {StatementEntry} e */
  prepare (e) {
    const w = this.writer
    e.state = STMT_SENT
    w.parse(e.name, e.text)
    w.describe(0x53, e.name)
    w.sync()
  }

  /**
   * One statement for execute/executeTo, per the protocol (prepared or extended), with its Sync:
   * written into the writer (returns null), or, for a prepared statement without parameters, the
   * entry's constant message, which no writer work has to rebuild.
   * @param {any} op the request (its entry is set when the statement is named)
   * @param {Statement} stmt
   * @param {ReadonlyArray<any>} values
   * @returns {Buffer|null}
   */
  execute (op, stmt, values) {
    if (this.protocol === 'prepared') {
      const e = this.entries[stmt.id] ?? this.entry(stmt)
      op.entry = e
      if (values.length === 0 && e.state !== STMT_NEW && e.fields !== undefined) {
        if (e.constant === null) e.constant = bindExecuteConstant(e.prefix)
        return e.constant
      }
      this.named(e, values, true)
    } else {
      this.unnamed(stmt.text, values, true)
    }
    return null
  }

  /**
   * Every batch of a pipeline, a Sync after each; sets the request's batches, entries and commit
   * point (settled only as a whole: it may commit if it starts outside a block or holds a COMMIT).
   * @param {any} op
   * @param {{stmt: Statement, values?: any[]}[][]} batches
   * @param {'I'|'T'|'E'} transactionStatus
   */
  pipeline (op, batches, transactionStatus) {
    const named = this.protocol === 'prepared'
    op.batches = batches
    op.entries = named ? [] : null
    op.commit = transactionStatus === 'I' ? COMMIT_IMPLICIT : COMMIT_NONE
    for (const batch of batches) {
      for (let i = 0; i < batch.length; i++) {
        const { stmt, values = [] } = batch[i]
        if (statementCommit(stmt, 'T') === COMMIT_EXPLICIT) op.commit = COMMIT_IMPLICIT
        if (named) {
          const e = this.entries[stmt.id] ?? this.entry(stmt)
          op.entries.push(e)
          this.named(e, values, false)
        } else {
          this.unnamed(stmt.text, values, false)
        }
      }
      this.writer.sync()
    }
  }

  // Parse once per connection (with a Describe to learn the field names), then Bind/Execute.
  named (e, values, sync) {
    const w = this.writer
    if (e.state === STMT_NEW) {
      w.parse(e.name, e.text)
      e.state = STMT_SENT
    }
    w.bindExecute(e.prefix, values, e.fields === undefined, sync)
  }

  /** Parse, Bind and Execute an unnamed statement. @param {string} text @param {ReadonlyArray<any>} values @param {boolean} sync */
  unnamed (text, values, sync) {
    this.writer.parse('', text)
    this.writer.bindExecute(UNNAMED_PREFIX, values, true, sync)
  }

  /** After DEALLOCATE ALL / DISCARD ALL every statement must be parsed again. */
  forgetStatements () {
    for (const e of this.entries) {
      if (e !== undefined) { e.state = STMT_NEW; e.fields = undefined }
    }
  }
}
