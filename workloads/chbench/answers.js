// The answers of the analytic queries, checked: a checksum of each execution's rows, computed on
// the client, and per query how many executions agreed with the first. A configuration change
// that alters an answer (a wrong-results bug) then shows as a differing checksum, not as a time.

import { createHash } from 'node:crypto'

/** Decimal places every decimal value is rounded to before it is hashed (float noise stays out). */
export const ANSWER_DECIMALS = 4

const DECIMAL = /^-?\d+\.\d+(e[+-]?\d+)?$/i
// TPC-C dates its rows by the clock at load and at run time, not by the seed: left out
const TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/
const NEGATIVE_ZERO = `-${(0).toFixed(ANSWER_DECIMALS)}`

/** One value as hashed: decimals rounded, timestamps left out, NULL apart from every text. */
function valueText (v) {
  if (v === null) return '\u0000'
  if (DECIMAL.test(v)) {
    const s = Number(v).toFixed(ANSWER_DECIMALS)
    return s === NEGATIVE_ZERO ? s.slice(1) : s
  }
  return TIMESTAMP.test(v) ? 'timestamp' : v
}

function rowText (row) {
  let s = ''
  for (let i = 0; i < row.length; i++) s += (i ? '\u001f' : '') + valueText(row[i])
  return s
}

/**
 * The checksum of a query's result rows: in order when the query has an ORDER BY, else
 * independent of the order the server returned them in (a sum of the rows' hashes).
 * @param {(string|null)[][]} rows rows as text (the simple or extended protocol's text format)
 * @param {boolean} ordered
 * @returns {string} 16 hex digits
 */
export function answerChecksum (rows, ordered) {
  if (ordered) {
    const h = createHash('sha1')
    for (const row of rows) h.update(rowText(row) + '\u001e')
    return h.digest('hex').slice(0, 16)
  }
  // two 32-bit sums: commutative, so the rows' order does not matter, and a row twice counts twice
  let hi = 0
  let lo = rows.length >>> 0
  for (const row of rows) {
    const d = createHash('sha1').update(rowText(row)).digest()
    hi = (hi + d.readUInt32BE(0)) >>> 0
    lo = (lo + d.readUInt32BE(4)) >>> 0
  }
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0')
}

/**
 * The checksums seen per query over a run.
 */
export class AnswerTally {
  constructor () {
    /** @type {Map<string, Map<string, number>>} query name -> checksum -> executions, first seen first */
    this.seen = new Map()
  }

  /** @param {string} name the query @param {string} checksum */
  record (name, checksum) {
    let m = this.seen.get(name)
    if (!m) { m = new Map(); this.seen.set(name, m) }
    m.set(checksum, (m.get(checksum) ?? 0) + 1)
  }

  /**
   * A query's answer: the first execution's checksum, how many executions agreed with it, and
   * the differing ones; null when it never completed.
   * @param {string} name
   * @param {boolean} checked whether the data held still under the query, so every execution must agree
   * @returns {{ checksum: string, agreed: number, differing: { checksum: string, count: number }[], checked: boolean } | null}
   */
  answer (name, checked) {
    const m = this.seen.get(name)
    if (!m) return null
    const [[checksum, agreed], ...rest] = m
    return { checksum, agreed, differing: rest.map(([c, count]) => ({ checksum: c, count })), checked }
  }
}
