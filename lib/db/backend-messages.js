// Backend protocol messages as bytes, for the stand-in server of the tests and benchmarks
// (test/helpers/stand-in-server.js) and the unit tests of the reply readers.
// Every column is described as text; built once, sent many times.

const TEXT_OID = 25

/**
 * One message: type byte, length, body.
 * @param {number} code
 * @param {Buffer} [body]
 * @returns {Buffer}
 */
export function message (code, body = Buffer.alloc(0)) {
  const m = Buffer.allocUnsafe(5 + body.length)
  m[0] = code
  m.writeInt32BE(4 + body.length, 1)
  body.copy(m, 5)
  return m
}

/** @param {string} s @returns {Buffer} the string's UTF-8 bytes and a NUL */
export const cstr = (s) => Buffer.from(s + '\0', 'utf8')
/** @param {number} n @returns {Buffer} */
export const int32 = (n) => { const b = Buffer.alloc(4); b.writeInt32BE(n); return b }
/** @param {number} n @returns {Buffer} */
export const int16 = (n) => { const b = Buffer.alloc(2); b.writeInt16BE(n); return b }

export const PARSE_COMPLETE = message(0x31)
export const BIND_COMPLETE = message(0x32)
export const NO_DATA = message(0x6e)
/** ReadyForQuery by transaction status */
export const READY = { I: message(0x5a, Buffer.from('I')), T: message(0x5a, Buffer.from('T')), E: message(0x5a, Buffer.from('E')) }

/**
 * RowDescription of text columns.
 * @param {string[]} fields
 * @returns {Buffer}
 */
export function rowDescription (fields) {
  const parts = [int16(fields.length)]
  // table oid, column number, type oid, type size, type modifier, format (text)
  for (const f of fields) parts.push(cstr(f), int32(0), int16(0), int32(TEXT_OID), int16(-1), int32(-1), int16(0))
  return message(0x54, Buffer.concat(parts))
}

/**
 * DataRow of text values (null for NULL).
 * @param {(string|null)[]} row
 * @returns {Buffer}
 */
export function dataRow (row) {
  const parts = [int16(row.length)]
  for (const v of row) {
    if (v === null) { parts.push(int32(-1)); continue }
    const b = Buffer.from(v)
    parts.push(int32(b.length), b)
  }
  return message(0x44, Buffer.concat(parts))
}

/**
 * ParameterDescription of n text parameters.
 * @param {number} n
 * @returns {Buffer}
 */
export function parameterDescription (n) {
  return message(0x74, Buffer.concat([int16(n), ...Array.from({ length: n }, () => int32(TEXT_OID))]))
}
