// What a script transaction ran, for its replay under EXPLAIN (--explain-slowest): the SQL
// commands of the execution that just ended with the values they were sent, and per command
// whether it can be replayed alone at all, and if not why.

import { K } from './link.js'

/**
 * @typedef {{ command: number, values: (string|null)[] }} RanStatement a command and its values
 * @typedef {{ command: number, line: number, sql: string, values: (string|null)[], reason: string|null }} ReplayStatement
 */

/**
 * A script workload's part in --explain-slowest: `captureParameters(type, st)`, what a terminal's
 * transaction just ran (kept for the slowest), and `replayStatements(type, ran)`, a kept
 * transaction's statements to replay.
 * @param {any[]} linked the linked scripts, by type index
 * @param {{ simple: boolean, givenSlots: Set<number> }} p givenSlots: the variables set before
 *   any transaction (-D, client_id, scale...)
 */
export function scriptReplay (linked, { simple, givenSlots }) {
  return {
    /** @param {number} type @param {import('./workload.js').ScriptTerminal} st */
    captureParameters: (type, st) => ranStatements(linked[type], st, simple),
    /** @param {number} type @param {RanStatement[]} ran */
    replayStatements: (type, ran) => replayStatements(linked[type], ran, givenSlots)
  }
}

/**
 * The SQL commands the terminal's last execution of `script` ran, with their values: as sent
 * (extended and prepared protocols keep each command's bind values), or with the simple protocol
 * the variables' values at the end of the transaction.
 * @param {any} script a linked script (link.js)
 * @param {import('./workload.js').ScriptTerminal} st
 * @param {boolean} simple the simple query protocol
 * @returns {RanStatement[]}
 */
export function ranStatements (script, st, simple) {
  const out = []
  for (const c of script.commands) {
    if (c.kind !== K.SQL || st.ranSql[c.sqlId] !== st.runNo) continue
    const values = simple ? Array.from(c.paramSlots, (slot) => st.vars.getParam(slot)) : st.sqlValues[c.sqlId]
    out.push({ command: c.index, values: values.map((v) => v === null || v === undefined ? null : String(v)) })
  }
  return out
}

/**
 * The statements to replay of a kept transaction, each with its SQL ($n for its values) and why it
 * cannot be replayed (null when it can).
 * @param {any} script a linked script
 * @param {RanStatement[]} ran
 * @param {Set<number>} givenSlots variables set before any transaction (-D, client_id, scale, ...)
 * @returns {ReplayStatement[]}
 */
export function replayStatements (script, ran, givenSlots) {
  const setSlots = new Set(givenSlots)
  for (const c of script.commands) if (c.kind === K.SET && c.slot >= 0) setSlots.add(c.slot)
  return ran.map(({ command, values }) => {
    const c = script.commands[command]
    const sql = c.stmt?.text ?? dollarText(c.lits)
    return { command, line: c.line, sql, values, reason: whyNotReplayable(script, c, sql, setSlots) }
  })
}

// statements EXPLAIN takes (CREATE TABLE AS aside, which a script would not repeat)
const EXPLAINABLE = /^(with|select|insert|update|delete|merge|values|table|execute|declare)$/i
const SEQUENCE = /\b(nextval|setval)\s*\(/i

/** One line on why a command cannot be replayed alone under EXPLAIN, or null. */
function whyNotReplayable (script, c, sql, setSlots) {
  if (c.isCopy) return 'a COPY: EXPLAIN does not take it'
  const keyword = firstKeyword(sql)
  if (!EXPLAINABLE.test(keyword)) return `${keyword.toUpperCase() || 'an empty statement'} is not a statement EXPLAIN takes`
  if (/;\s*\S/.test(sql)) return 'several statements in one command: EXPLAIN takes one'
  if (SEQUENCE.test(sql)) return 'it uses a sequence, which a rollback does not undo'
  const fromResult = [...c.paramSlots].some((slot) => !setSlots.has(slot))
  if (fromResult && script.commands.some((o) => o.kind === K.SQL && o.gset !== 0 && o.index < c.index)) {
    return 'it depends on an earlier statement\'s result (\\gset or \\aset), which its replay under EXPLAIN does not give'
  }
  return null
}

/** The first word of a statement, past comments and parentheses. */
function firstKeyword (sql) {
  const s = sql.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, ' ').replace(/^[\s(]+/, '')
  return /^[a-z_]+/i.exec(s)?.[0] ?? ''
}

/** The text of a simple-protocol command with $1, $2... for its variables. */
function dollarText (lits) {
  let sql = lits[0]
  for (let i = 1; i < lits.length; i++) sql += '$' + i + lits[i]
  return sql
}
