// The transport of a plain TCP or Unix socket (transport.js): reads land in one buffer of its own,
// reused for every read (net's `onread`, skipping the Readable stream), and statements are written
// straight to the socket's libuv handle, beside net.Socket's Writable.
// A statement is a few dozen bytes that the kernel takes at once; net.Socket#write spends more
// than the write(2) itself on its stream state, a WriteWrap per write and an after-write tick.
// Here one WriteWrap is reused for every write the kernel takes whole, and libuv queues (in
// order) whatever it does not take. The WriteWrap constructor comes from Node's stream_wrap
// binding: where that is not to be had, every write goes through net.Socket as before.

import { Socket } from 'node:net'
import { getSystemErrorName } from 'node:util'
import { nodeOptionGiven } from '../node-options.js'
import { listenTo, endSocket } from './transport.js'

const READ_BYTES = 64 * 1024 // the socket's read buffer, reused for every read

const binding = loadStreamBinding()

function loadStreamBinding () {
  // process.binding is a documentation-only deprecation; under --pending-deprecation it would
  // print a warning, so do without it there.
  const pending = nodeOptionGiven('--pending-deprecation') || process.env.NODE_PENDING_DEPRECATION === '1'
  if (pending) return null
  try {
    // eslint-disable-next-line n/no-deprecated-api -- the one way to a WriteWrap; guarded, with a fallback
    const b = process.binding('stream_wrap')
    const ok = typeof b?.WriteWrap === 'function' && b.streamBaseState instanceof Int32Array &&
      Number.isInteger(b.kLastWriteWasAsync)
    return ok ? b : null
  } catch {
    return null
  }
}

/** Whether writes can skip net.Socket's stream on this Node.js. */
export const handleWritesAvailable = binding !== null

/** A plain socket's transport; see the module comment. */
export class HandleTransport {
  /**
   * Without `socket`, the transport makes its own, unconnected, whose reads come to the receiver
   * through the transport's buffer: connect `transport.socket`, then call `listen()`.
   * @param {import('./transport.js').TransportReceiver} receiver
   * @param {import('node:net').Socket|null} [socket] a connected plain socket that reads through
   *   its stream instead (one that asked for SSL and was refused)
   */
  constructor (receiver, socket = null) {
    this.receiver = receiver
    this.ownReads = socket === null
    this.socket = socket ?? new Socket({
      onread: {
        buffer: Buffer.allocUnsafe(READ_BYTES),
        // the receiver is done with the buffer when it returns, so the same one takes every read
        callback: (nread, buf) => { this.receiver.onBytes(buf, nread) }
      }
    })
    this._req = null
    /** direct writes libuv still holds (it writes them, in order, as the socket drains) */
    this.queued = 0
  }

  /** Once connected: listen to the socket, and write to its handle from now on. */
  listen () {
    listenTo(this.socket, this, !this.ownReads)
    this._req = binding === null ? null : new binding.WriteWrap()
    return this
  }

  /**
   * Write `bytes`. Returns true when the caller may reuse them at once (the kernel took them),
   * false when they are still held (by libuv or the socket's stream) and must not change.
   * @param {Buffer} bytes
   * @returns {boolean}
   */
  write (bytes) {
    const socket = this.socket
    const handle = socket._handle
    // Bytes the stream still buffers must go first: then the stream takes these too.
    if (this._req === null || handle == null || socket.writableLength !== 0) {
      socket.write(bytes)
      return socket.writableLength === 0 && this.queued === 0
    }
    const req = this._req
    const err = handle.writeBuffer(req, bytes)
    if (err !== 0) {
      // Nothing was written (a reset or closed socket): the stream's own write meets the same
      // error and fails the socket as it always does.
      socket.write(bytes)
      return false
    }
    if (binding.streamBaseState[binding.kLastWriteWasAsync] === 0) return true
    // libuv queued what the kernel did not take; req now belongs to that write.
    req.buffer = bytes
    req.writer = this
    req.oncomplete = afterQueuedWrite
    this.queued++
    this._req = new binding.WriteWrap()
    return false
  }

  /** @param {Buffer} bytes @param {(err?: Error|null) => void} [done] */
  writeChunk (bytes, done) { this.socket.write(bytes, done) }

  /** @param {Buffer} last */
  end (last) { return endSocket(this.socket, this, last) }

  /** @param {Error} [err] */
  destroy (err) { this.socket.destroy(err) }

  get destroyed () { return this.socket.destroyed }
}

// libuv finished (or cancelled, on close) a queued write: `this` is its WriteWrap.
function afterQueuedWrite (status) {
  const writer = this.writer
  this.buffer = null
  this.writer = null
  writer.queued--
  const socket = writer.socket
  if (status < 0 && !socket.destroyed) {
    const code = getSystemErrorName(status)
    const err = new Error(`write ${code}`)
    err.code = code
    err.errno = status
    err.syscall = 'write'
    socket.destroy(err)
  }
}
