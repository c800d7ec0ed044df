// A query parameter that is not already a string or a number, as the text PostgreSQL reads:
// the forms node-postgres sends, so that either driver binds the same values.

/**
 * The text of one parameter (a Buffer for bytes, which the writer sends as bytea hex; null for
 * SQL NULL). Dates in local time with their offset, arrays as array literals, other objects as
 * JSON or through their `toPostgres()` when they have one.
 * @param {unknown} v
 * @param {unknown[]} [seen] objects whose toPostgres is being followed (a cycle is an error)
 * @returns {string|Buffer|null}
 */
export function parameterText (v, seen) {
  if (v === null || v === undefined) return null
  if (typeof v !== 'object') return String(v)
  if (Buffer.isBuffer(v)) return v
  if (ArrayBuffer.isView(v)) return Buffer.from(v.buffer, v.byteOffset, v.byteLength)
  if (v instanceof Date) return dateText(v)
  if (Array.isArray(v)) return arrayLiteral(v)
  if (typeof v.toPostgres === 'function') {
    const chain = seen ?? []
    if (chain.includes(v)) throw new Error(`circular reference while preparing ${String(v)} for a query`)
    chain.push(v)
    return parameterText(v.toPostgres(parameterText), chain)
  }
  return JSON.stringify(v)
}

const pad = (n, width) => String(n).padStart(width, '0')

/**
 * A Date as node-postgres sends it: local time with its UTC offset ("2021-06-07T10:09:10.011+02:00",
 * years before 1 as BC), so a timestamp column gets the wall-clock time and a timestamptz the
 * instant. An invalid Date goes as "Invalid Date", which the server refuses for that statement.
 * @param {Date} d
 */
export function dateText (d) {
  if (Number.isNaN(d.getTime())) return String(d)
  let year = d.getFullYear()
  const bc = year < 1
  if (bc) year = 1 - year // year 0 is 1 BC
  let offset = -d.getTimezoneOffset()
  const sign = offset < 0 ? '-' : '+'
  if (offset < 0) offset = -offset
  return `${pad(year, 4)}-${pad(d.getMonth() + 1, 2)}-${pad(d.getDate(), 2)}T${pad(d.getHours(), 2)}:${pad(d.getMinutes(), 2)}:${pad(d.getSeconds(), 2)}.${pad(d.getMilliseconds(), 3)}` +
    `${sign}${pad(Math.floor(offset / 60), 2)}:${pad(offset % 60, 2)}${bc ? ' BC' : ''}`
}

/**
 * A PostgreSQL array literal: elements quoted and escaped, NULL for null, nested arrays as
 * sub-arrays, bytes as bytea hex.
 * @param {unknown[]} values
 */
export function arrayLiteral (values) {
  let out = '{'
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ','
    const item = values[i]
    if (item === null || item === undefined) out += 'NULL'
    else if (Array.isArray(item)) out += arrayLiteral(item)
    else {
      const t = parameterText(item)
      if (Buffer.isBuffer(t)) out += '\\\\x' + t.toString('hex') // an escaped backslash, unquoted
      else out += '"' + t.replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"'
    }
  }
  return out + '}'
}
