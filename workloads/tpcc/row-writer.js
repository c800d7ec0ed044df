// COPY text written straight into Buffers: digits, pool slices and fixed fields as bytes, so the
// generator builds no intermediate strings (it halved the generator's CPU per warehouse).

const CHUNK_BYTES = 256 * 1024
const ROW_MAX = 2048 // no TPC-C row is longer than this in COPY text

/** Byte-level writer of COPY text into 256 KiB chunks. */
export class RowWriter {
  constructor () {
    /** @type {Buffer[]} */
    this.chunks = []
    this.buf = Buffer.allocUnsafe(CHUNK_BYTES)
    this.pos = 0
    this.bytes = 0
  }

  /** Start a row: make sure a whole row fits in the current chunk. */
  row () {
    if (this.pos > CHUNK_BYTES - ROW_MAX) this._flush()
  }

  _flush () {
    if (this.pos === 0) return
    this.chunks.push(this.buf.subarray(0, this.pos))
    this.bytes += this.pos
    this.buf = Buffer.allocUnsafe(CHUNK_BYTES)
    this.pos = 0
  }

  /** A non-negative integer in decimal. @param {number} n */
  int (n) {
    const b = this.buf
    if (n < 10) { b[this.pos++] = 48 + n; return }
    let digits = 1
    for (let x = n; x >= 10; x = Math.floor(x / 10)) digits++
    let p = this.pos + digits
    this.pos = p
    do { b[--p] = 48 + (n % 10); n = Math.floor(n / 10) } while (n > 0)
  }

  /** An integer with exactly `width` digits, zero-padded. @param {number} n @param {number} width */
  padded (n, width) {
    const b = this.buf
    let p = this.pos + width
    this.pos = p
    for (let i = 0; i < width; i++) { b[--p] = 48 + (n % 10); n = Math.floor(n / 10) }
  }

  /** Hundredths as d.dd. @param {number} c */
  cents (c) {
    this.int(Math.floor(c / 100))
    this.buf[this.pos++] = 46
    this.padded(c % 100, 2)
  }

  /** Ten-thousandths in [0, 0.9999] as 0.dddd. @param {number} t */
  fraction4 (t) {
    this.buf[this.pos++] = 48
    this.buf[this.pos++] = 46
    this.padded(t, 4)
  }

  /** Bytes of a pool. @param {Uint8Array} src @param {number} off @param {number} len */
  slice (src, off, len) {
    const b = this.buf
    let p = this.pos
    for (let i = off, end = off + len; i < end; i++) b[p++] = src[i]
    this.pos = p
  }

  /** Fixed bytes (a Buffer made once). @param {Uint8Array} bytes */
  fixed (bytes) {
    const b = this.buf
    let p = this.pos
    for (let i = 0; i < bytes.length; i++) b[p++] = bytes[i]
    this.pos = p
  }

  tab () { this.buf[this.pos++] = 9 }
  newline () { this.buf[this.pos++] = 10 }

  /** The chunks written so far (the writer is done after this). @returns {Buffer[]} */
  finish () {
    this._flush()
    return this.chunks
  }
}
