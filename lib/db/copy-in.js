// `COPY ... FROM STDIN` on a lean connection: a Writable whose chunks go out as CopyData once the
// server answers CopyInResponse; the end sends CopyDone, and the stream finishes when the server
// has completed the COPY (or fails with its error). CopyGate holds the connection's other
// requests back while a COPY runs.

import { Writable } from 'node:stream'

const COPY_DONE = Buffer.from([0x63, 0, 0, 0, 4])

/**
 * The stream's way to its connection.
 * @typedef {{ send: (bytes: Buffer, done?: (err?: Error|null) => void) => void,
 *   fail: (message: string) => void }} CopyLink
 *   send: bytes to the server (done once they left); fail: CopyFail with this message
 */

/** The writable side of one COPY FROM STDIN; the connection sends its statement and calls begin/onResult/onError. */
export class CopyInStream extends Writable {
  /**
   * @param {string} sql the COPY statement
   * @param {CopyLink} link
   */
  constructor (sql, link) {
    super()
    this.sql = sql
    this.link = link
    this.started = false // CopyInResponse came: the server takes CopyData
    this.over = false // the server completed or refused the COPY
    /** @type {Error|null} */
    this.failure = null
    /** @type {[Buffer, Function]|null} a chunk written before the server was ready */
    this.held = null
    /** @type {Function|null} _final's callback, once the source ended */
    this.ending = null
  }

  _write (chunk, encoding, cb) {
    if (this.failure !== null) { cb(this.failure); return }
    if (!this.started) { this.held = [chunk, cb]; return }
    this._data(chunk, cb)
  }

  _final (cb) {
    if (this.failure !== null) { cb(this.failure); return }
    this.ending = cb
    if (this.started) this.link.send(COPY_DONE)
  }

  _destroy (err, cb) {
    // the source failed mid-COPY: tell the server, which then rolls the COPY back
    if (err && this.started && !this.over && this.ending === null) this.link.fail(`COPY source failed: ${err.message}`)
    cb(err)
  }

  // One CopyData message: its header, then the chunk as it is (no copy).
  _data (chunk, cb) {
    const header = Buffer.allocUnsafe(5)
    header[0] = 0x64 // 'd'
    header.writeInt32BE(4 + chunk.length, 1)
    this.link.send(header)
    this.link.send(chunk, cb)
  }

  /** The server answered CopyInResponse. */
  begin () {
    this.started = true
    const held = this.held
    this.held = null
    if (held !== null) this._data(held[0], held[1])
    if (this.ending !== null) this.link.send(COPY_DONE)
  }

  /** The COPY completed. */
  onResult () {
    this.over = true
    const cb = this.ending
    this.ending = null
    if (cb !== null) cb()
    else this.destroy(new Error('the server ended the COPY before its data was sent'))
  }

  /** @param {any} err the server's error, or the connection's loss */
  onError (err) {
    this.over = true
    this.failure = err
    const cb = this.ending
    this.ending = null
    if (cb !== null) cb(err)
    else this.destroy(err)
  }
}

/**
 * The COPY side of one connection: from copyFrom until its COPY is over, requests made meanwhile
 * are held back; a COPY asked for while requests are in flight waits until they are answered.
 */
export class CopyGate {
  /** @param {(stream: CopyInStream) => void} start sends a COPY's statement */
  constructor (start) {
    this.start = start
    /** true from copyFrom until its COPY is over */
    this.holding = false
    /** @type {Function[]} requests held back, each sends itself */
    this.waiting = []
    /** @type {CopyInStream|null} a COPY waiting for the requests sent before it */
    this.pending = null
  }

  /** Refuse a second COPY while one runs. */
  admit () {
    if (this.holding) throw new Error('copyFrom: a COPY is already running on this connection')
  }

  /** @param {CopyInStream} stream @param {boolean} idle whether every request sent is answered */
  open (stream, idle) {
    this.holding = true
    if (idle) this.start(stream)
    else this.pending = stream
  }

  /** A COPY on a connection already gone: it fails after copyFrom returns. */
  refuse (stream, err) {
    this.holding = true
    queueMicrotask(() => stream.onError(err))
  }

  /** @param {Function} send a request made while the COPY runs */
  hold (send) {
    this.waiting.push(send)
  }

  /** Every request sent is answered: the COPY waiting for them goes out now. */
  idle () {
    const stream = this.pending
    if (stream === null) return
    this.pending = null
    this.start(stream)
  }

  /** The COPY's request is settled: the requests held back go out now. */
  over () {
    this.holding = false
    const waiting = this.waiting
    this.waiting = []
    for (const fn of waiting) fn()
  }

  /** The connection is gone: a COPY not yet sent and the requests held back fail now. */
  lost (err) {
    const stream = this.pending
    this.pending = null
    if (stream !== null) stream.onError(err)
    this.over()
  }
}
