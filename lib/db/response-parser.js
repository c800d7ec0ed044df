// Backend message framing for a lean connection: the messages of every statement (BindComplete,
// DataRow, CommandComplete, ReadyForQuery...) are decoded straight from the socket's read buffer
// into the ResponseReader; the rare ones (errors, notices, descriptions) are decoded by
// server-message.js. While the connection starts, every message goes to its Startup.

import { decodeErrorFields, decodeFieldNames, cstring } from './server-message.js'

const HEADER = 5 // type byte + int32 length
const INITIAL_CARRY = 1024 // bytes kept for a message split across reads; doubles as needed

// ReadyForQuery's transaction status byte as the letter.
function txStatus (byte) {
  switch (byte) {
    case 0x54: return 'T'
    case 0x45: return 'E'
    default: return 'I'
  }
}

const fromCharCode = String.fromCharCode

/**
 * Text of a short ASCII field without a native call (most values in load tests are numbers or
 * short codes); longer or non-ASCII text is decoded as UTF-8.
 * @param {Buffer} b @param {number} s @param {number} e
 */
export function decodeText (b, s, e) {
  const n = e - s
  if (n <= 8) {
    for (let i = s; i < e; i++) if (b[i] > 0x7f) return b.toString('utf8', s, e)
    switch (n) {
      case 0: return ''
      case 1: return fromCharCode(b[s])
      case 2: return fromCharCode(b[s], b[s + 1])
      case 3: return fromCharCode(b[s], b[s + 1], b[s + 2])
      case 4: return fromCharCode(b[s], b[s + 1], b[s + 2], b[s + 3])
      case 5: return fromCharCode(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4])
      case 6: return fromCharCode(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5])
      case 7: return fromCharCode(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6])
      default: return fromCharCode(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7])
    }
  }
  return b.toString('utf8', s, e)
}

/**
 * A DataRow's fields as text (null for SQL NULL), array mode.
 * @param {Buffer} b @param {number} at first byte after the header @returns {(string|null)[]}
 */
export function decodeDataRow (b, at) {
  const n = (b[at] << 8) | b[at + 1]
  const row = new Array(n)
  let o = at + 2
  for (let i = 0; i < n; i++) {
    const len = b.readInt32BE(o)
    o += 4
    if (len < 0) {
      row[i] = null
    } else {
      row[i] = decodeText(b, o, o + len)
      o += len
    }
  }
  return row
}

// The first word of the common command tags, as a string constant, or '' for any other.
// The bytes are compared in code, not against a table: between replies the client sleeps and the
// server takes the caches, and a table lookup is a chain of dependent loads that each miss.
function commonWord (b, s, n) {
  switch (b[s]) {
    case 0x42: // B
      return n === 5 && b[s + 1] === 0x45 && b[s + 2] === 0x47 && b[s + 3] === 0x49 && b[s + 4] === 0x4e ? 'BEGIN' : ''
    case 0x43: // C
      if (n === 6) return b[s + 1] === 0x4f && b[s + 2] === 0x4d && b[s + 3] === 0x4d && b[s + 4] === 0x49 && b[s + 5] === 0x54 ? 'COMMIT' : ''
      return n === 4 && b[s + 1] === 0x4f && b[s + 2] === 0x50 && b[s + 3] === 0x59 ? 'COPY' : ''
    case 0x44: // D
      return n === 6 && b[s + 1] === 0x45 && b[s + 2] === 0x4c && b[s + 3] === 0x45 && b[s + 4] === 0x54 && b[s + 5] === 0x45 ? 'DELETE' : ''
    case 0x45: // E
      return n === 3 && b[s + 1] === 0x4e && b[s + 2] === 0x44 ? 'END' : ''
    case 0x46: // F
      return n === 5 && b[s + 1] === 0x45 && b[s + 2] === 0x54 && b[s + 3] === 0x43 && b[s + 4] === 0x48 ? 'FETCH' : ''
    case 0x49: // I
      return n === 6 && b[s + 1] === 0x4e && b[s + 2] === 0x53 && b[s + 3] === 0x45 && b[s + 4] === 0x52 && b[s + 5] === 0x54 ? 'INSERT' : ''
    case 0x4d: // M
      if (n === 5) return b[s + 1] === 0x45 && b[s + 2] === 0x52 && b[s + 3] === 0x47 && b[s + 4] === 0x45 ? 'MERGE' : ''
      return n === 4 && b[s + 1] === 0x4f && b[s + 2] === 0x56 && b[s + 3] === 0x45 ? 'MOVE' : ''
    case 0x52: // R
      return n === 8 && b[s + 1] === 0x4f && b[s + 2] === 0x4c && b[s + 3] === 0x4c && b[s + 4] === 0x42 && b[s + 5] === 0x41 && b[s + 6] === 0x43 && b[s + 7] === 0x4b ? 'ROLLBACK' : ''
    case 0x53: // S
      if (n === 6) return b[s + 1] === 0x45 && b[s + 2] === 0x4c && b[s + 3] === 0x45 && b[s + 4] === 0x43 && b[s + 5] === 0x54 ? 'SELECT' : ''
      return n === 3 && b[s + 1] === 0x45 && b[s + 2] === 0x54 ? 'SET' : ''
    case 0x55: // U
      return n === 6 && b[s + 1] === 0x50 && b[s + 2] === 0x44 && b[s + 3] === 0x41 && b[s + 4] === 0x54 && b[s + 5] === 0x45 ? 'UPDATE' : ''
  }
  return ''
}

/**
 * A CommandComplete tag ("SELECT 1", "INSERT 0 1", "BEGIN") as its first word and row count.
 * The word is a shared constant for the common tags; `tag` is the full text only for the others.
 * @param {Buffer} b @param {number} s @param {number} e tag bytes without the terminating NUL
 * @param {{ command: string, rowCount: number, tag: string|null }} out
 */
export function decodeCommandTag (b, s, e, out) {
  let sp = s
  while (sp < e && b[sp] !== 0x20) sp++
  out.tag = null
  out.rowCount = 0
  out.command = commonWord(b, s, sp - s)
  if (out.command === '') {
    out.tag = b.toString('utf8', s, e)
    out.command = out.tag.slice(0, sp - s)
  }
  if (sp === e) return
  let i = e
  while (b[i - 1] !== 0x20) i--
  let n = 0
  for (; i < e; i++) {
    const c = b[i] - 48
    if (c < 0 || c > 9) return // no count (e.g. "CREATE TABLE")
    n = n * 10 + c
  }
  out.rowCount = n
}

// Whether a tag [s, e) may be DEALLOCATE ALL or DISCARD ALL, after which the connection must
// parse its statements again. The tag of a request that reads no result is decoded only then.
function maybeForget (b, s, e) {
  const n = e - s
  return b[s] === 0x44 && (n === 14 || n === 11)
}

/**
 * The rare messages that concern the connection rather than a request.
 * @typedef {{ notice: (notice: any) => void, parameter: (name: string, value: string) => void }} ParserHooks
 */

/** Frames backend messages for one LeanConnection and hands them to its start-up or its reader. */
export class ResponseParser {
  /**
   * @param {import('./response-reader.js').ResponseReader} reader
   * @param {ParserHooks} hooks
   */
  constructor (reader, hooks) {
    this.reader = reader
    this.hooks = hooks
    /** @type {import('./startup.js').Startup|null} while starting: gets every message up to the first ReadyForQuery */
    this.startup = null
    this.tag = { command: '', rowCount: 0, tag: null }
    /** @type {Buffer|null} the start of a message split across reads */
    this.carry = null
    this.carryLen = 0
  }

  /**
   * Parse what was read, the buffer's first `n` bytes (all of it by default). The caller may
   * reuse the buffer once this returns: an incomplete message at the end is copied aside.
   * @param {Buffer} buf
   * @param {number} [n]
   */
  parse (buf, n = buf.length) {
    let b = buf
    let end = n
    if (this.carryLen > 0) {
      b = this._append(buf, n)
      end = this.carryLen
    }
    let o = 0
    while (o + HEADER <= end) {
      const len = b.readInt32BE(o + 1)
      if (len < 4) throw new Error(`invalid message length ${len} (message type ${b[o]})`)
      const next = o + 1 + len
      if (next > end) break
      this._message(b, b[o], o + HEADER, next)
      o = next
    }
    if (b === this.carry) {
      // what is left moves to the front of the carry buffer
      if (o > 0 && o < end) b.copy(b, 0, o, end)
      this.carryLen = end - o
      if (this.carryLen === 0 && this.carry !== null && this.carry.length > 64 * INITIAL_CARRY) this.carry = null
    } else if (o < end) {
      this._keep(b, o, end)
    }
  }

  // Start a carry with the incomplete tail of a read buffer.
  _keep (b, o, end) {
    const n = end - o
    if (this.carry === null || this.carry.length < n) this.carry = Buffer.allocUnsafe(Math.max(INITIAL_CARRY, n * 2))
    b.copy(this.carry, 0, o, end)
    this.carryLen = n
  }

  // Append a read (its first n bytes) to the carry; returns the carry buffer.
  _append (buf, n) {
    const need = this.carryLen + n
    if (need > this.carry.length) {
      let size = this.carry.length * 2
      while (size < need) size *= 2
      const next = Buffer.allocUnsafe(size)
      this.carry.copy(next, 0, 0, this.carryLen)
      this.carry = next
    }
    buf.copy(this.carry, this.carryLen, 0, n)
    this.carryLen = need
    return this.carry
  }

  /** One complete message: code, body [at, next). */
  _message (b, code, at, next) {
    const startup = this.startup
    if (startup !== null) {
      startup.onMessage(code, b, at, next)
      if (code === 0x5a) this.startup = null // what follows is the reader's
      return
    }
    const reader = this.reader
    switch (code) {
      case 0x32: reader.bindComplete(); return // '2'
      case 0x44: if (reader.rowsWanted()) reader.dataRow(decodeDataRow(b, at)); return // 'D'
      case 0x43: { // 'C'
        if (!reader.rowsWanted()) { // the request reads nothing: only a tag that forgets statements counts
          reader.commandComplete('', 0, maybeForget(b, at, next - 1) ? b.toString('latin1', at, next - 1) : null)
          return
        }
        const t = this.tag
        decodeCommandTag(b, at, next - 1, t)
        reader.commandComplete(t.command, t.rowCount, t.tag)
        return
      }
      case 0x5a: reader.readyForQuery(txStatus(b[at])); return // 'Z'
      case 0x31: reader.parseComplete(); return // '1'
      case 0x6e: reader.noData(); return // 'n'
      case 0x49: reader.emptyQuery(); return // 'I'
    }
    this._rare(b, code, at, next)
  }

  // The messages that are not part of every statement.
  _rare (b, code, at, next) {
    const reader = this.reader
    switch (code) {
      case 0x54: reader.rowDescription(decodeFieldNames(b, at)); return // 'T'
      case 0x45: reader.errorResponse(decodeErrorFields(b, at, next, 'error')); return // 'E'
      case 0x4e: this.hooks.notice(decodeErrorFields(b, at, next, 'notice')); return // 'N'
      case 0x47: reader.copyIn(); return // 'G' CopyInResponse
      case 0x53: { // 'S' ParameterStatus: a SET of a reported parameter (client_encoding, TimeZone...)
        const [name, o] = cstring(b, at)
        this.hooks.parameter(name, cstring(b, o)[0])
      }
    }
    // NotificationResponse, ParameterDescription, COPY TO STDOUT data,
    // PortalSuspended: nothing to do
  }
}
