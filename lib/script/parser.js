// Parses a pgbench script into SQL and meta-commands with every load-time check pgbench makes
// (meta-command arguments, expressions, \gset placement, \if nesting), in pgbench's words.

import { PgloadError } from '../errors.js'
import { LexError, ScriptScanner } from './lexer.js'
import { ExprParseError, parseExpression } from './expr-parser.js'
import { MAX_SLEEP_TEXT, SLEEP_UNIT_US, sleepCount, sleepTooLong } from './sleep-time.js'

const MAX_ARGS = 256
const META = new Set(['set', 'setshell', 'shell', 'sleep', 'if', 'elif', 'else', 'endif', 'gset', 'aset',
  'startpipeline', 'syncpipeline', 'endpipeline'])

/**
 * @typedef {{ type: 'sql', text: string, firstLine: string, line: number, column: number,
 *   meta: 'none'|'gset'|'aset', prefix: string|null }} SqlCommand
 * @typedef {{ type: 'meta', meta: string, argv: string[], firstLine: string, line: number, column: number,
 *   expr?: object, varName?: string }} MetaCommand
 * @typedef {{ desc: string, commands: (SqlCommand|MetaCommand)[] }} ParsedScript
 */

/**
 * pgbench's syntax_error(): `source:line[:column]: msg [(more)] [in command "x"]`, then the
 * line and a caret under the column.
 */
export function scriptError ({ source, line, column, fileColumn, sourceLine, command, msg, more }) {
  let head = `${source}:${line}${fileColumn ? ':' + fileColumn : ''}: ${msg}`
  if (more !== undefined && more !== null) head += ` (${more})`
  if (command !== undefined && command !== null) head += ` in command "${command}"`
  let text = head
  if (sourceLine !== undefined && sourceLine !== null) {
    text += '\n' + sourceLine
    if (column >= 0) text += '\n' + ' '.repeat(column) + '^ error found here'
  }
  const err = new PgloadError(text, { code: 'SCRIPT_SYNTAX', exitCode: 1 })
  err.file = source
  err.line = line
  err.column = fileColumn
  return err
}

/** The first line of an SQL command as pgbench shows it: up to 127 bytes, no newline. */
export function sqlFirstLine (text) {
  let b = Buffer.from(text, 'utf8')
  if (b.length > 127) b = b.subarray(0, 127)
  let s = b.toString('utf8')
  if (s.endsWith('\ufffd')) s = s.replace(/\ufffd+$/, '')
  const cut = s.search(/[\n\r]/)
  return cut < 0 ? s : s.slice(0, cut)
}

/**
 * Parse one script.
 * @param {string} text
 * @param {string} desc the script's name as pgbench shows it (file name as given, or builtin name)
 * @returns {ParsedScript}
 */
export function parseScript (text, desc) {
  const sc = new ScriptScanner(text)
  /** @type {(SqlCommand|MetaCommand)[]} */
  const commands = []
  for (;;) {
    const r = sc.scanSql()
    if (r.text.length > 0) {
      commands.push({
        type: 'sql',
        text: r.text,
        firstLine: sqlFirstLine(r.text),
        line: sc.lineOf(r.start),
        column: sc.columnOf(r.start),
        meta: 'none',
        prefix: null
      })
    }
    if (r.end === 'eof') break
    if (r.end === 'backslash') {
      const bs = sc.pos - 1
      const cmd = parseBackslash(sc, desc, bs)
      if (cmd === null) continue
      if (cmd.meta === 'gset' || cmd.meta === 'aset') {
        const lineno = sc.lineOf(bs)
        const prev = commands[commands.length - 1]
        if (prev === undefined) {
          throw scriptError({ source: desc, line: lineno, fileColumn: sc.columnOf(bs), msg: '\\gset must follow an SQL command' })
        }
        if (prev.type !== 'sql' || prev.prefix !== null) {
          throw scriptError({ source: desc, line: lineno, fileColumn: sc.columnOf(bs), msg: '\\gset must follow an SQL command', more: prev.type === 'sql' ? null : prev.firstLine })
        }
        prev.prefix = cmd.argv[1] ?? ''
        prev.meta = cmd.meta
        continue
      }
      commands.push(cmd)
    }
  }
  if (commands.length === 0) {
    throw new PgloadError(`empty command list for script "${desc}"`, { code: 'SCRIPT_EMPTY', exitCode: 1 })
  }
  checkConditional(desc, commands)
  return { desc, commands }
}

/**
 * \sleep's arguments as pgbench checks them: one count (or :variable) and an optional unit; a
 * unit written against the number (`10ms`) is split off into its own argument.
 * @param {any} sc the scanner
 * @param {number} bs offset of the backslash
 * @param {{ argv: string[], firstLine: string }} cmd the command being parsed (argv is updated)
 * @param {number[]} offsets each argument's offset
 * @param {(msg: string, more: string | null, column: number, withLine: boolean) => never} fail
 */
function checkSleep (sc, bs, cmd, offsets, fail) {
  const argv = cmd.argv
  if (argv.length < 2) fail('missing argument', null, -1, true)
  if (argv.length > 3) fail('too many arguments', null, offsets[3] - bs, true)
  if (argv[1][0] !== ':') {
    const m = /^([+-]?)([0-9]*)(.*)$/s.exec(argv[1])
    if (m[3] !== '') {
      if (argv.length === 2 && m[2] !== '') {
        argv[1] = m[1] + m[2]
        argv.push(m[3])
        offsets.push(offsets[1] + m[1].length + m[2].length)
      } else {
        cmd.firstLine = sc.substring(bs)
        fail('invalid sleep time, must be an integer', argv[1], offsets[1] - bs, true)
      }
    }
  }
  if (argv.length === 3 && !Object.hasOwn(SLEEP_UNIT_US, argv[2].toLowerCase())) {
    fail('unrecognized time unit, must be us, ms or s', argv[2], offsets[2] - bs, true)
  }
  if (argv[1][0] !== ':' && sleepTooLong(sleepCount(argv[1]), SLEEP_UNIT_US[argv[2]?.toLowerCase() ?? 's'])) {
    fail(`sleep time too long, must be ${MAX_SLEEP_TEXT}`, argv.slice(1).join(' '), offsets[1] - bs, true)
  }
}

function parseBackslash (sc, desc, bs) {
  const lineno = sc.lineOf(bs)
  const fail = (msg, more, column, withLine) => {
    const sourceLine = withLine ? sc.substring(bs) : null
    throw scriptError({
      source: desc,
      line: column >= 0 ? sc.lineOf(bs + column) : lineno,
      fileColumn: column >= 0 ? sc.columnOf(bs + column) : sc.columnOf(bs),
      sourceLine,
      command: argv[0],
      msg,
      more,
      column
    })
  }
  const first = sc.lexWord()
  if (first === null) return null
  const argv = [first.word]
  const offsets = [first.offset]
  const lower = first.word.toLowerCase()
  const meta = META.has(lower) ? lower : 'none'
  const cmd = { type: 'meta', meta, argv, firstLine: '', line: lineno, column: sc.columnOf(bs) }

  if (meta === 'set' || meta === 'if' || meta === 'elif') {
    if (meta === 'set') {
      const w = sc.lexWord()
      if (w === null) fail('missing argument', null, -1, false)
      argv.push(w.word)
      offsets.push(w.offset)
      cmd.varName = w.word
    }
    try {
      cmd.expr = parseExpression(sc)
    } catch (e) {
      sc.skipToEndOfLine()
      // a stack overflow despite the nesting limit is still this command's error
      if (e instanceof RangeError) fail(e.message, null, -1, false)
      if (!(e instanceof ExprParseError) && !(e instanceof LexError)) throw e
      // a too deep expression is a long line: its location says enough
      fail(e.message, e.more, e.offset - bs, e.tooDeep !== true)
    }
    cmd.firstLine = sc.substring(bs)
    return cmd
  }

  for (let w = sc.lexWord(); w !== null; w = sc.lexWord()) {
    if (argv.length >= MAX_ARGS) fail('too many arguments', null, -1, false)
    argv.push(w.word)
    offsets.push(w.offset)
  }
  cmd.firstLine = sc.substring(bs)

  switch (meta) {
    case 'sleep':
      checkSleep(sc, bs, cmd, offsets, fail)
      break
    case 'setshell':
      if (argv.length < 3) fail('missing argument', null, -1, true)
      break
    case 'shell':
      if (argv.length < 2) fail('missing command', null, -1, true)
      break
    case 'else': case 'endif': case 'startpipeline': case 'endpipeline': case 'syncpipeline':
      if (argv.length !== 1) fail('unexpected argument', null, -1, true)
      break
    case 'gset': case 'aset':
      if (argv.length > 2) fail('too many arguments', null, -1, true)
      break
    default:
      fail('invalid command', null, -1, true)
  }
  return cmd
}

/** CheckConditional(): \if nesting is checked statically, with pgbench's messages. */
function checkConditional (desc, commands) {
  const stack = [] // true once an \else was seen at that level
  const fail = (i, msg) => {
    const c = commands[i] ?? commands[commands.length - 1]
    const err = new PgloadError(`${desc}:${c.line}:${c.column}: condition error in script "${desc}" command ${i + 1}: ${msg}`,
      { code: 'SCRIPT_SYNTAX', exitCode: 1 })
    err.file = desc
    err.line = c.line
    err.column = c.column
    throw err
  }
  for (let i = 0; i < commands.length; i++) {
    const c = commands[i]
    if (c.type !== 'meta') continue
    switch (c.meta) {
      case 'if': stack.push(false); break
      case 'elif':
        if (stack.length === 0) fail(i, '\\elif without matching \\if')
        if (stack[stack.length - 1]) fail(i, '\\elif after \\else')
        break
      case 'else':
        if (stack.length === 0) fail(i, '\\else without matching \\if')
        if (stack[stack.length - 1]) fail(i, '\\else after \\else')
        stack[stack.length - 1] = true
        break
      case 'endif':
        if (stack.length === 0) fail(i, '\\endif without matching \\if')
        stack.pop()
        break
    }
  }
  if (stack.length > 0) fail(commands.length, '\\if without matching \\endif')
}
