// `node --import ./bench/lib/wire-connections.js bin/pgload.js run tpcb --url postgres://x@127.0.0.1/x ...`:
// every connection pgload opens is a real LeanConnection whose transport is an in-memory server
// (lib/db/connector.js; the module runs in each worker thread too): the frontend bytes pgload
// writes go to a stand-in session (test/helpers/stand-in-server.js, the one stand-in of the tests
// and benchmarks), and the backend bytes it answers come back on the next turn of the event loop,
// through a read buffer as a socket's. So the engine bench measures pgload's own JavaScript per
// transaction, protocol encoding and decoding included, without the kernel or a server.

import { installConnector } from '../../lib/db/connector.js'
import { openLeanConnection } from '../../lib/db/lean-connection.js'
import { PGLOAD_SET_UP_ANSWERS, StandInSession } from '../../test/helpers/stand-in-server.js'

const READ_BYTES = 64 * 1024

// Transports with replies waiting, answered together on the next turn.
let due = []
let scheduled = false
function deliverAll () {
  const list = due
  due = []
  scheduled = false
  for (const t of list) t.deliver()
}

/** A transport (lib/db/transport.js) to an in-memory server. */
export class InMemoryTransport {
  /** @param {import('../../lib/db/transport.js').TransportReceiver} receiver */
  constructor (receiver) {
    this.receiver = receiver
    this.destroyed = false
    this.out = Buffer.allocUnsafe(READ_BYTES)
    this.outLen = 0
    this.views = [] // of `out`, by length
    this.readBuf = Buffer.allocUnsafe(READ_BYTES)
    this.session = new StandInSession({ write: (m) => this.send(m), flush () {}, end () {} }, { answers: PGLOAD_SET_UP_ANSWERS })
  }

  /** @param {Buffer} b frontend messages @returns {boolean} */
  write (b) {
    this.session.onData(b)
    return true
  }

  writeChunk (b, done) {
    this.session.onData(b)
    if (done) queueMicrotask(done)
  }

  send (m) {
    if (this.outLen === 0) {
      due.push(this)
      if (!scheduled) { scheduled = true; setImmediate(deliverAll) }
    }
    this.out.set(m, this.outLen)
    this.outLen += m.length
  }

  // As a socket read: the bytes land in the read buffer and go to the receiver.
  deliver () {
    const n = this.outLen
    this.outLen = 0
    if (this.destroyed) return
    let view = this.views[n]
    if (view === undefined) view = this.views[n] = this.out.subarray(0, n)
    this.readBuf.set(view)
    this.receiver.onBytes(this.readBuf, n)
  }

  // close(): Terminate, and the stream is closed at once
  async end (last) {
    this.write(last)
    this.destroy()
  }

  destroy () {
    if (this.destroyed) return
    this.destroyed = true
    queueMicrotask(() => this.receiver.onClose())
  }
}

/** @type {import('../../lib/db/transport.js').ConnectTransport} */
export async function connectInMemory (config, mode, receiver) {
  return new InMemoryTransport(receiver)
}

installConnector((target, opts) => openLeanConnection(target, { ...opts, connect: connectInMemory }))
