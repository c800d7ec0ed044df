// lib/db/connection.js and lib/db/lean-connection.js with every connection a real LeanConnection
// whose socket is an in-memory server: the frontend bytes pgload writes go to a stand-in session
// (test/helpers/stand-in-server.js, the one stand-in of the tests and benchmarks), and the backend
// bytes it answers come back on the next turn of the event loop, through the same read callback a
// socket calls. So the engine bench can measure pgload's own JavaScript per transaction, protocol
// encoding and decoding included, without the kernel or a server.

import { LeanConnection } from '../../lib/db/lean-connection.js'
import { HandleWriter } from '../../lib/db/handle-writer.js'
import { PGLOAD_SET_UP_ANSWERS, StandInSession } from '../../test/helpers/stand-in-server.js'
export * from '../../lib/db/connection.js'

const READ_BYTES = 64 * 1024

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
    this.out = Buffer.allocUnsafe(READ_BYTES)
    this.outLen = 0
    this.views = [] // of `out`, by length
    // the connection is set up already: the session takes protocol messages from the first one
    this.session = new StandInSession({ write: (m) => this.send(m), flush () {}, end () {} }, { started: true, answers: PGLOAD_SET_UP_ANSWERS })
  }

  /** @param {Buffer} b frontend messages */
  write (b) {
    this.session.onData(b)
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
