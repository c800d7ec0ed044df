// compileScript(): parse once and prepare every SQL command for the chosen protocol
// (simple: text pieces around :variables; extended/prepared: $n parameters and a Statement).

import { PgloadError } from '../errors.js'
import { PROTOCOLS, defineStatement, protocolConstant } from '../db/connection.js'
import { parseScript } from './parser.js'

const MAX_PARAMS = 255
const NAME_START = /[A-Za-z_\x80-\uffff]/
const NAME_CONT = /[A-Za-z0-9_\x80-\uffff]/

/**
 * Split SQL at pgbench's `:name` references (parseVariable/assignVariables rules, applied to
 * the whole text, quotes included; a run of colons not followed by a name is skipped).
 * @param {string} sql
 * @returns {{ lits: string[], names: string[] }} sql = lits[0] + :names[0] + lits[1] + ...
 */
export function splitVariables (sql) {
  const lits = []
  const names = []
  let last = 0
  let p = sql.indexOf(':')
  while (p >= 0) {
    if (p + 1 < sql.length && NAME_START.test(sql[p + 1])) {
      let j = p + 2
      while (j < sql.length && NAME_CONT.test(sql[j])) j++
      lits.push(sql.slice(last, p))
      names.push(sql.slice(p + 1, j))
      last = j
      p = sql.indexOf(':', j)
    } else {
      while (sql[p] === ':') p++
      p = sql.indexOf(':', p)
    }
  }
  lits.push(sql.slice(last))
  return { lits, names }
}

/**
 * @typedef {object} CompiledScript
 * @property {string} name transaction type name
 * @property {string} desc pgbench's description (file name as given, or builtin description)
 * @property {number} weight
 * @property {string} protocol
 * @property {object[]} commands parsed commands, SQL ones with `lits/names` (simple) or `stmt/names` (extended, prepared)
 * @property {import('../db/connection.js').Statement[]} statements
 */

/**
 * Parse and check a script before connecting. Throws PgloadError (exit 1) with
 * `file:line:column`, the line and a caret.
 * @param {{ name: string, text: string|Uint8Array, file?: string, weight?: number, desc?: string }} source
 * @param {{ protocol?: 'simple'|'extended'|'prepared' }} [opts]
 * @returns {CompiledScript}
 */
export function compileScript (source, { protocol = 'simple' } = {}) {
  if (!PROTOCOLS.includes(protocol)) throw new PgloadError(`invalid query mode (-M): "${protocol}"`, { code: 'BAD_PROTOCOL' })
  protocol = protocolConstant(protocol) // the interpreter compares it on every statement
  const desc = source.desc ?? source.file ?? source.name
  let text = source.text
  if (typeof text !== 'string') {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(text)
    } catch {
      throw new PgloadError(`script "${desc}" is not valid UTF-8`, { code: 'SCRIPT_ENCODING', hint: 'save the script as UTF-8' })
    }
  }
  if (text.includes('\0')) text = text.slice(0, text.indexOf('\0')) // C strings end at NUL
  const parsed = parseScript(text, desc)
  const statements = []
  for (const c of parsed.commands) {
    if (c.type !== 'sql') continue
    c.isCopy = /^\s*copy\b[\s\S]*\b(stdin|stdout)\b/i.test(c.text)
    const split = splitVariables(c.text)
    c.names = split.names
    if (protocol === 'simple') {
      c.lits = split.lits
    } else {
      if (split.names.length > MAX_PARAMS) {
        throw new PgloadError(`${desc}:${c.line}:${c.column}: statement has too many arguments (maximum is ${MAX_PARAMS}): ${c.text}`,
          { code: 'SCRIPT_SYNTAX', exitCode: 1 })
      }
      let sql = split.lits[0]
      for (let i = 0; i < split.names.length; i++) sql += '$' + (i + 1) + split.lits[i + 1]
      c.sql = sql
      c.stmt = defineStatement(sql)
      statements.push(c.stmt)
    }
  }
  return {
    name: source.name,
    desc,
    weight: source.weight ?? 1,
    protocol,
    commands: parsed.commands,
    statements
  }
}
