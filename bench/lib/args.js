// Command-line options of the bench scripts: node:util parseArgs plus durations ("10s", "10m", "2").

import { parseArgs } from 'node:util'
import { PgloadError } from '../../lib/errors.js'

/**
 * Parse argv against option specs ({ name: { type, default?, short? } }).
 * @param {string[]} argv
 * @param {Record<string, { type: 'string'|'boolean', short?: string, default?: any, multiple?: boolean }>} options
 * @returns {Record<string, any>}
 */
export function parseBenchArgs (argv, options) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: false, strict: true }).values
  } catch (err) {
    throw new PgloadError(err.message)
  }
}

/**
 * Seconds from "500ms", "10s", "10m", "1h" or a bare number of seconds.
 * @param {string} flag for the error message
 * @param {string|number} text
 */
export function parseSeconds (flag, text) {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(String(text).trim())
  if (!m) throw new PgloadError(`${flag} must be a duration like 10s, 10m or 1h, got ${JSON.stringify(text)}`)
  const n = Number(m[1])
  const unit = m[2] ?? 's'
  return unit === 'ms' ? n / 1000 : unit === 's' ? n : unit === 'm' ? n * 60 : n * 3600
}

/**
 * A list of positive integers from "1,8,32".
 * @param {string} flag
 * @param {string} text
 * @returns {number[]}
 */
export function parseIntList (flag, text) {
  const list = String(text).split(',').map(s => Number(s.trim()))
  if (list.length === 0 || list.some(n => !Number.isInteger(n) || n < 1)) {
    throw new PgloadError(`${flag} must be a comma-separated list of integers >= 1, got ${JSON.stringify(text)}`)
  }
  return list
}
