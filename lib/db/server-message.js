// The backend messages a lean connection meets rarely (errors, notices, descriptions, start-up
// and COPY), decoded from the read buffer into objects named and shaped as node-postgres names them.

import { DatabaseError } from 'pg-protocol'

// ErrorResponse / NoticeResponse field codes, by the property node-postgres gives them.
const FIELDS = {
  S: 'severity', // localized; V (not localized) wins when present
  V: 'severity',
  C: 'code',
  D: 'detail',
  H: 'hint',
  P: 'position',
  p: 'internalPosition',
  q: 'internalQuery',
  W: 'where',
  s: 'schema',
  t: 'table',
  c: 'column',
  d: 'dataType',
  n: 'constraint',
  F: 'file',
  L: 'line',
  R: 'routine'
}

/**
 * ErrorResponse ('E') or NoticeResponse ('N') as node-postgres builds them: a DatabaseError with
 * name 'error' or a plain object with name 'notice', each field a property.
 * @param {Buffer} b @param {number} at first byte of the body @param {number} next end of the body
 * @param {'error'|'notice'} name
 */
export function decodeErrorFields (b, at, next, name) {
  let message = ''
  const fields = {}
  let o = at
  while (o < next && b[o] !== 0) {
    const type = String.fromCharCode(b[o])
    const end = b.indexOf(0, o + 1)
    const text = b.toString('utf8', o + 1, end)
    o = end + 1
    if (type === 'M') message = text
    else if (type === 'V' || (type === 'S' && fields.severity === undefined)) fields.severity = text
    else if (FIELDS[type] !== undefined) fields[FIELDS[type]] = text
  }
  const length = next - at + 4
  const out = name === 'error' ? new DatabaseError(message, length, 'error') : { name, length, message }
  return Object.assign(out, fields)
}

/**
 * RowDescription ('T'): the field names.
 * @param {Buffer} b @param {number} at @returns {string[]}
 */
export function decodeFieldNames (b, at) {
  const n = (b[at] << 8) | b[at + 1]
  const names = new Array(n)
  let o = at + 2
  for (let i = 0; i < n; i++) {
    const end = b.indexOf(0, o)
    names[i] = b.toString('utf8', o, end)
    o = end + 19 // table oid 4, column 2, type oid 4, size 2, modifier 4, format 2
  }
  return names
}

/**
 * A NUL-terminated string and the offset after it.
 * @param {Buffer} b @param {number} at
 * @returns {[string, number]}
 */
export function cstring (b, at) {
  const end = b.indexOf(0, at)
  return [b.toString('utf8', at, end), end + 1]
}
