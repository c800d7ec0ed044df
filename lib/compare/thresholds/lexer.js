// Tokens of a threshold expression (k6 syntax plus units, relative % and windows), each with its
// 1-based column so that errors can point at it.

import { PgloadError } from '../../errors.js'

/**
 * @typedef {{ type: 'ident'|'number'|'punct'|'op'|'tag'|'end', text: string, col: number,
 *   value?: number, key?: string, tagValue?: string }} Token
 */

const OPS = ['<=', '>=', '==', '!=', '<', '>']
const PUNCT = '():[],%+-'

/**
 * A syntax error in a threshold expression: names the flag and the column, and shows the
 * expression with a caret under the column in the hint (aligned after the CLI's "hint: ").
 * @param {string} expr
 * @param {number} col 1-based
 * @param {string} message
 * @returns {PgloadError}
 */
export function thresholdError (expr, col, message) {
  const err = new PgloadError(`--threshold '${expr}': ${message} at column ${col}`, {
    code: 'THRESHOLD_SYNTAX',
    hint: `${expr}\n${' '.repeat('hint: '.length + col - 1)}^`
  })
  err.column = col
  err.expression = expr
  return err
}

/**
 * Split an expression into tokens. `{key:value}` is one tag token (values may hold any
 * character but `}`, e.g. `{txn:my-script.sql}`).
 * @param {string} expr
 * @returns {Token[]}
 */
export function lexThreshold (expr) {
  const tokens = []
  let i = 0
  while (i < expr.length) {
    const ch = expr[i]
    const col = i + 1
    if (ch === ' ' || ch === '\t') { i++; continue }
    if (/[0-9.]/.test(ch)) {
      const m = /^(?:\d+(?:\.\d+)?|\.\d+)/.exec(expr.slice(i))
      if (!m) throw thresholdError(expr, col, `unexpected '${ch}'`)
      tokens.push({ type: 'number', text: m[0], value: Number(m[0]), col })
      i += m[0].length
      continue
    }
    if (/[A-Za-z_\u00b5]/.test(ch)) {
      const m = /^[A-Za-z_\u00b5][A-Za-z0-9_]*/.exec(expr.slice(i))
      tokens.push({ type: 'ident', text: m[0], col })
      i += m[0].length
      continue
    }
    const op = OPS.find(o => expr.startsWith(o, i))
    if (op) {
      tokens.push({ type: 'op', text: op, col })
      i += op.length
      continue
    }
    if (ch === '=') throw thresholdError(expr, col, "unexpected '=' (use == to compare)")
    if (ch === '{') {
      const end = expr.indexOf('}', i)
      if (end < 0) throw thresholdError(expr, col, "unclosed '{'")
      const body = expr.slice(i + 1, end)
      const colon = body.indexOf(':')
      if (colon < 0) throw thresholdError(expr, col + 1, 'expected a tag as {txn:name}')
      const key = body.slice(0, colon).trim()
      const value = body.slice(colon + 1).trim().replace(/^(['"])(.*)\1$/, '$2')
      if (!value) throw thresholdError(expr, col + colon + 2, 'expected a transaction type name')
      tokens.push({ type: 'tag', text: expr.slice(i, end + 1), key, tagValue: value, col })
      i = end + 1
      continue
    }
    if (PUNCT.includes(ch)) {
      tokens.push({ type: 'punct', text: ch, col })
      i++
      continue
    }
    throw thresholdError(expr, col, `unexpected '${ch}'`)
  }
  tokens.push({ type: 'end', text: '', col: expr.length + 1 })
  return tokens
}
