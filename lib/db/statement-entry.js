// A statement as one lean connection knows it: parsed or not, its field names once described,
// and the constant Bind/Execute/Sync of a statement without parameters.

import { bindPrefix } from './message-writer.js'
import { STMT_NEW } from './response-reader.js'

/** A statement as known to one connection. */
export class StatementEntry {
  /** @param {import('./connection.js').Statement} stmt */
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
