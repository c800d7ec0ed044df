// lib/db/connection.js and lib/db/lean-connection.js with every connection a real LeanConnection
// whose socket is an in-memory server: the frontend bytes pgload writes are read (Parse, Bind,
// Describe, Execute, Sync, Query), and the backend bytes a server would send come back on the next
// turn of the event loop, through the same read callback a socket calls. So the engine bench can
// measure pgload's own JavaScript per transaction, protocol encoding and decoding included,
// without the kernel or a server. The answers are canned-answers.js's.

import { LeanConnection } from '../../lib/db/lean-connection.js'
import { HandleWriter } from '../../lib/db/handle-writer.js'
import { resultFor } from './canned-answers.js'
import { BIND_COMPLETE, NO_DATA, PARSE_COMPLETE, READY, cstr, dataRow, message, parameterDescription, rowDescription } from '../../lib/db/backend-messages.js'
export * from '../../lib/db/connection.js'

const READ_BYTES = 64 * 1024
const NO_PARAMETERS = parameterDescription(0)

function commandTag (command, rowCount) {
  if (command === 'SELECT' || command === 'UPDATE' || command === 'DELETE') return `${command} ${rowCount}`
  if (command === 'INSERT') return `INSERT 0 ${rowCount}`
  if (command === 'END') return 'COMMIT'
  return command
}

/** A statement's replies: its description, and what Execute sends (rows, CommandComplete). */
class Canned {
  constructor (text) {
    const r = resultFor(text)
    const returnsRows = r.command === 'SELECT'
    this.describe = returnsRows ? rowDescription(r.fields) : NO_DATA
    this.execute = Buffer.concat([...(returnsRows ? r.rows.map(dataRow) : []), message(0x43, cstr(commandTag(r.command, returnsRows ? r.rows.length : r.rowCount)))])
    this.simple = returnsRows ? Buffer.concat([this.describe, this.execute]) : this.execute
    this.status = r.command === 'BEGIN' ? 'T' : r.command === 'END' || r.command === 'COMMIT' || r.command === 'ROLLBACK' ? 'I' : null
  }
}
const canned = new Map()
function cannedFor (text) {
  let c = canned.get(text)
  if (c === undefined) { c = new Canned(text); canned.set(text, c) }
  return c
}

// A statement name's bytes as a number (a string per Bind would cost more than what is measured).
function nameKey (b, s, e) {
  let k = e - s
  for (let i = s; i < e; i++) k = (k * 31 + b[i]) % 0x7fffffff
  return k
}

// Connections with replies waiting, answered together on the next turn.
let due = []
let scheduled = false
function deliverAll () {
  const list = due
  due = []
  scheduled = false
  for (const s of list) s.deliver()
}

/** The server side of one connection, standing in for its socket. */
class WireSocket {
  constructor (conn) {
    this.conn = conn
    this.writableLength = 0
    this.statements = new Map() // nameKey(name) -> Canned
    this.portal = null // the Canned of the last Bind
    this.status = 'I'
    this.out = Buffer.allocUnsafe(READ_BYTES)
    this.outLen = 0
    this.views = [] // of `out`, by length
  }

  /** @param {Buffer} b frontend messages */
  write (b) {
    let o = 0
    while (o < b.length) {
      const code = b[o]
      const next = o + 1 + b.readInt32BE(o + 1)
      const body = o + 5
      switch (code) {
        case 0x50: { // Parse: name, text, ...
          const nameEnd = b.indexOf(0, body)
          const textEnd = b.indexOf(0, nameEnd + 1)
          this.statements.set(nameKey(b, body, nameEnd), cannedFor(b.toString('utf8', nameEnd + 1, textEnd)))
          this.send(PARSE_COMPLETE)
          break
        }
        case 0x42: { // Bind: portal, statement, ...
          const portalEnd = b.indexOf(0, body)
          this.portal = this.statements.get(nameKey(b, portalEnd + 1, b.indexOf(0, portalEnd + 1)))
          this.send(BIND_COMPLETE)
          break
        }
        case 0x44: // Describe: 'S' statement or 'P' portal
          if (b[body] === 0x53) {
            this.send(NO_PARAMETERS)
            this.send(this.statements.get(nameKey(b, body + 1, next - 1)).describe)
          } else {
            this.send(this.portal.describe)
          }
          break
        case 0x45: // Execute
          this.send(this.portal.execute)
          this.status = this.portal.status ?? this.status
          break
        case 0x53: // Sync
          this.send(READY[this.status])
          break
        case 0x51: { // Query: one statement
          const c = cannedFor(b.toString('utf8', body, next - 1))
          this.send(c.simple)
          this.status = c.status ?? this.status
          this.send(READY[this.status])
          break
        }
        case 0x58: // Terminate
          break
        default:
          throw new Error(`wire shim: unexpected frontend message ${String.fromCharCode(code)}`)
      }
      o = next
    }
    return true
  }

  send (m) {
    if (this.outLen === 0) {
      due.push(this)
      if (!scheduled) { scheduled = true; setImmediate(deliverAll) }
    }
    this.out.set(m, this.outLen)
    this.outLen += m.length
  }

  // As a socket read: the bytes land in the connection's read buffer and its callback runs.
  deliver () {
    const n = this.outLen
    this.outLen = 0
    let view = this.views[n]
    if (view === undefined) view = this.views[n] = this.out.subarray(0, n)
    this.conn._readBuf.set(view)
    this.conn._onRead(n, this.conn._readBuf)
  }

  destroy () {}

  // close(): Terminate, end, and the socket is closed at once
  end () {}
  once (event, fn) { if (event === 'close') fn() }
}

/**
 * A LeanConnection on an in-memory server (same signature as openConnection).
 * @param {any} target
 * @param {{ protocol?: import('../../lib/db/connection.js').Protocol }} [opts]
 */
export async function openLeanConnection (target, { protocol = 'prepared' } = {}) {
  const conn = new LeanConnection(protocol)
  conn._pid = 1
  conn._readBuf = Buffer.allocUnsafe(READ_BYTES)
  conn._socket = new WireSocket(conn)
  conn._out = new HandleWriter(conn._socket, false) // no handle: writes go to the in-memory socket
  return conn
}

export { openLeanConnection as openConnection, LeanConnection }
