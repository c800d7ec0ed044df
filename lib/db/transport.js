// The byte stream under a lean connection, as the connection sees it: write bytes (and learn
// whether they may be reused), receive bytes, end, destroy. StreamTransport is the plain one, on
// any stream socket (TLS); HandleTransport (handle-transport.js) writes straight to a plain
// socket's handle and reads into a buffer of its own; the benches put an in-memory server behind
// a third.

/**
 * Where a transport delivers what it receives. Called from the transport's I/O callbacks.
 * @typedef {object} TransportReceiver
 * @property {(buf: Buffer, n: number) => void} onBytes the first `n` bytes of `buf` were received;
 *   the transport may reuse `buf` once this returns
 * @property {() => void} onClose the stream is closed (for good; after an error too)
 * @property {(err: Error) => void} onError the stream failed (onClose follows)
 */

/**
 * The small interface a lean connection talks to.
 * @typedef {object} Transport
 * @property {TransportReceiver} receiver where received bytes go (the owner may replace it)
 * @property {(bytes: Buffer) => boolean} write send `bytes`; true when the caller may reuse them at
 *   once, false when they are still held and must not change. No allocation of its own per write.
 * @property {(bytes: Buffer, done?: (err?: Error|null) => void) => void} writeChunk send bytes handed
 *   over for good; `done` once they left (flow control for COPY data)
 * @property {(last: Buffer) => Promise<void>} end send `last`, end the stream, resolve once closed
 * @property {(err?: Error) => void} destroy close at once (`err` is reported to the receiver)
 * @property {boolean} destroyed
 */

/**
 * How a lean connection reaches its server: resolves with a connected transport whose bytes go to
 * `receiver`. When `signal` aborts (the connect timeout), whatever it made is destroyed.
 * @callback ConnectTransport
 * @param {import('pg').ClientConfig & { sslmode?: string }} config a target's config
 * @param {import('./ssl-negotiation.js').SslMode} mode
 * @param {TransportReceiver} receiver
 * @param {AbortSignal} signal
 * @returns {Promise<Transport>}
 */

/**
 * Hand a socket's close and errors, and its reads unless they come another way, to the
 * transport's receiver.
 * @param {import('node:net').Socket} socket
 * @param {{ receiver: TransportReceiver }} transport
 * @param {boolean} reads whether the reads come through the stream ('data' events)
 */
export function listenTo (socket, transport, reads) {
  if (reads) socket.on('data', (buf) => transport.receiver.onBytes(buf, buf.length))
  socket.on('close', () => transport.receiver.onClose())
  socket.on('error', (err) => transport.receiver.onError(err))
}

/**
 * End a socket after `last` (written through the transport): resolves once it is closed.
 * @param {import('node:net').Socket} socket
 * @param {Transport} transport
 * @param {Buffer} last
 * @returns {Promise<void>}
 */
export function endSocket (socket, transport, last) {
  if (socket.destroyed) return Promise.resolve()
  return new Promise((resolve) => {
    socket.once('close', resolve)
    transport.write(last)
    socket.end()
  })
}

/** A transport on a stream socket (TLS, or any net.Socket): 'data' events and stream writes. */
export class StreamTransport {
  /**
   * @param {import('node:net').Socket} socket connected
   * @param {TransportReceiver} receiver
   */
  constructor (socket, receiver) {
    this.socket = socket
    this.receiver = receiver
    listenTo(socket, this, true)
  }

  /** @param {Buffer} bytes @returns {boolean} */
  write (bytes) {
    const socket = this.socket
    socket.write(bytes)
    return socket.writableLength === 0
  }

  /** @param {Buffer} bytes @param {(err?: Error|null) => void} [done] */
  writeChunk (bytes, done) { this.socket.write(bytes, done) }

  /** @param {Buffer} last */
  end (last) { return endSocket(this.socket, this, last) }

  /** @param {Error} [err] */
  destroy (err) { this.socket.destroy(err) }

  get destroyed () { return this.socket.destroyed }
}
