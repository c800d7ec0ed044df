// Frontend protocol messages (Parse, Bind, Describe, Execute, Sync, Query, CopyFail) built into
// one reused buffer, so an execute costs one socket write and no per-message Buffer.

import { parameterText } from './parameter-text.js'

const INITIAL_BYTES = 16 * 1024 // starting buffer size; doubles when a message needs more
const MAX_CACHED_VIEW = 2048 // cache subarray views of the buffer for messages up to this length

// Prefix of Bind after its length for a statement: unnamed portal, statement name, 0 parameter
// format codes (all text). Shared by every connection; statement names never change.
const bindPrefixes = new Map()

/**
 * The Bind prefix bytes for a statement name (cached).
 * @param {string} name
 * @returns {Buffer}
 */
export function bindPrefix (name) {
  let b = bindPrefixes.get(name)
  if (b === undefined) {
    const n = Buffer.byteLength(name)
    b = Buffer.alloc(n + 4)
    b.write(name, 1)
    bindPrefixes.set(name, b)
  }
  return b
}

/**
 * Bind (no parameters, text results), Execute and Sync for a prepared statement, as a Buffer of
 * its own: a statement without parameters sends these same bytes every time.
 * @param {Buffer} prefix from `bindPrefix(name)`
 * @returns {Buffer}
 */
export function bindExecuteConstant (prefix) {
  const w = new MessageWriter(64)
  w.bindExecute(prefix, [], false, true)
  return Buffer.from(w.take())
}

/** A growable output buffer for one connection; `take()` hands out what was written. */
export class MessageWriter {
  /** @param {number} [bytes] starting size */
  constructor (bytes = INITIAL_BYTES) {
    this.buf = Buffer.allocUnsafe(bytes)
    this.off = 0
    /** @type {(Buffer|undefined)[]} views of `buf` by length, valid while `buf` is kept */
    this.views = []
  }

  /**
   * The bytes written since the last take, as a view of the buffer (cached by length).
   * The caller must call `release(drained)` after writing it to the socket.
   * @returns {Buffer}
   */
  take () {
    const len = this.off
    this.off = 0
    if (len > MAX_CACHED_VIEW) return this.buf.subarray(0, len)
    let v = this.views[len]
    if (v === undefined) {
      v = this.buf.subarray(0, len)
      this.views[len] = v
    }
    return v
  }

  /**
   * After a socket write: if the socket still holds the bytes (not drained synchronously),
   * the buffer must not be overwritten, so the next message starts in a fresh one.
   * @param {boolean} drained
   */
  release (drained) {
    if (drained) return
    this.buf = Buffer.allocUnsafe(this.buf.length)
    this.views = []
  }

  ensure (extra) {
    const need = this.off + extra
    if (need <= this.buf.length) return
    let size = this.buf.length * 2
    while (size < need) size *= 2
    const next = Buffer.allocUnsafe(size)
    this.buf.copy(next, 0, 0, this.off)
    this.buf = next
    this.views = []
  }

  /** @param {number} code message type byte; returns the offset of the length field */
  begin (code) {
    this.ensure(5)
    this.buf[this.off] = code
    const at = this.off + 1
    this.off += 5
    return at
  }

  end (at) {
    putInt32(this.buf, at, this.off - at)
  }

  int16 (v) {
    this.ensure(2)
    this.buf[this.off++] = (v >>> 8) & 0xff
    this.buf[this.off++] = v & 0xff
  }

  bytes (b) {
    const n = b.length
    this.ensure(n)
    const buf = this.buf
    const o = this.off
    // The bytes on the hot path (a Bind prefix) are a few dozen: a loop beats
    // Buffer#copy, which makes a view of the source per call.
    if (n <= 64) for (let i = 0; i < n; i++) buf[o + i] = b[i]
    else buf.set(b, o)
    this.off = o + n
  }

  cstring (s) {
    this.ensure(s.length * 3 + 1)
    this.off += this.buf.utf8Write(s, this.off)
    this.buf[this.off++] = 0
  }

  /** Parse: named (or '' unnamed) statement, no parameter types (the server infers them). */
  parse (name, text) {
    const at = this.begin(0x50)
    this.cstring(name)
    this.cstring(text)
    this.int16(0)
    this.end(at)
  }

  /**
   * Bind values (as text) to a statement into the unnamed portal, then Execute and Sync.
   * @param {Buffer} prefix from `bindPrefix(name)`
   * @param {ReadonlyArray<any>} values
   * @param {boolean} describe also Describe the portal (to learn the field names)
   * @param {boolean} sync end with Sync (false inside a pipeline batch)
   */
  bindExecute (prefix, values, describe, sync) {
    const at = this.begin(0x42)
    this.bytes(prefix)
    const n = values.length
    this.int16(n)
    for (let i = 0; i < n; i++) this.value(values[i])
    this.int16(0) // result formats: all text
    this.end(at)
    if (describe) this.describe(0x50, '')
    this.execute(sync)
  }

  /**
   * Execute of the unnamed portal with no row limit, and Sync if asked. Constant bytes stored by
   * code rather than copied from a constant buffer: on a cold cache that copy's loads miss.
   * @param {boolean} sync
   */
  execute (sync) {
    this.ensure(15)
    const buf = this.buf
    const o = this.off
    buf[o] = 0x45 // 'E', length 9, portal "", max rows 0
    buf[o + 1] = 0; buf[o + 2] = 0; buf[o + 3] = 0; buf[o + 4] = 9
    buf[o + 5] = 0
    buf[o + 6] = 0; buf[o + 7] = 0; buf[o + 8] = 0; buf[o + 9] = 0
    this.off = o + 10
    if (sync) this.sync()
  }

  /** @param {number} kind 0x53 'S' statement or 0x50 'P' portal */
  describe (kind, name) {
    const at = this.begin(0x44)
    this.ensure(1)
    this.buf[this.off++] = kind
    this.cstring(name)
    this.end(at)
  }

  sync () {
    this.ensure(5)
    const buf = this.buf
    const o = this.off
    buf[o] = 0x53 // 'S', length 4
    buf[o + 1] = 0; buf[o + 2] = 0; buf[o + 3] = 0; buf[o + 4] = 4
    this.off = o + 5
  }

  /** Simple-protocol Query. */
  query (text) {
    const at = this.begin(0x51)
    this.cstring(text)
    this.end(at)
  }

  copyFail (message) {
    const at = this.begin(0x66)
    this.cstring(message)
    this.end(at)
  }

  /**
   * One parameter: int32 length (-1 for null) then its text. Small integers and short ASCII
   * strings are written byte by byte (no intermediate string or native call).
   */
  value (v) {
    if (v === null || v === undefined) {
      this.ensure(4)
      putInt32(this.buf, this.off, -1)
      this.off += 4
      return
    }
    if (typeof v === 'number' && v === (v | 0)) {
      this.int(v)
      return
    }
    if (typeof v !== 'string') {
      v = parameterText(v)
      if (v === null) return this.value(null)
      if (Buffer.isBuffer(v)) v = '\\x' + v.toString('hex')
    }
    const len = v.length
    this.ensure(4 + len * 3)
    const buf = this.buf
    const start = this.off + 4
    let o = start
    if (len < 64) {
      for (let i = 0; i < len; i++) {
        const c = v.charCodeAt(i)
        if (c > 0x7f) { o = -1; break }
        buf[o++] = c
      }
    } else {
      o = -1
    }
    if (o === -1) o = start + buf.utf8Write(v, start)
    putInt32(buf, this.off, o - start)
    this.off = o
  }

  /** A 32-bit integer in decimal, with its length prefix. */
  int (v) {
    this.ensure(15)
    const buf = this.buf
    const lenAt = this.off
    let o = lenAt + 4
    let u = v
    if (v < 0) {
      buf[o++] = 0x2d
      u = -v // -2^31 becomes 2^31: fine as a double
    }
    const end = o + decimalDigits(u)
    let p = end
    while (u >= 10) {
      const q = Math.floor(u / 10)
      buf[--p] = 0x30 + (u - q * 10)
      u = q
    }
    buf[--p] = 0x30 + u
    putInt32(buf, lenAt, end - lenAt - 4)
    this.off = end
  }
}

/** How many decimal digits a non-negative integer up to 2^31 has. */
function decimalDigits (u) {
  if (u < 100000) return u < 10 ? 1 : u < 100 ? 2 : u < 1000 ? 3 : u < 10000 ? 4 : 5
  return u < 1000000 ? 6 : u < 10000000 ? 7 : u < 100000000 ? 8 : u < 1000000000 ? 9 : 10
}

/** A big-endian int32 (Buffer#writeInt32BE without its argument checks: the offsets are ours). */
function putInt32 (buf, at, v) {
  buf[at] = v >>> 24
  buf[at + 1] = v >>> 16
  buf[at + 2] = v >>> 8
  buf[at + 3] = v
}
