// Links a compiled script for a workload: variable slots, compiled expressions, \if jump tables
// and per-command statistics, so the interpreter only indexes arrays.

import { compileExpr } from './expr-eval.js'
import { validVariableName } from './values.js'
import { scriptError } from './parser.js'
import { SLEEP_UNIT_US, sleepCount } from './sleep-time.js'

export const K = {
  SQL: 0,
  SET: 1,
  SLEEP: 2,
  SETSHELL: 3,
  SHELL: 4,
  IF: 5,
  ELIF: 6,
  ELSE: 7,
  ENDIF: 8,
  STARTPIPE: 9,
  SYNCPIPE: 10,
  ENDPIPE: 11
}
const META_KIND = {
  set: K.SET,
  sleep: K.SLEEP,
  setshell: K.SETSHELL,
  shell: K.SHELL,
  if: K.IF,
  elif: K.ELIF,
  else: K.ELSE,
  endif: K.ENDIF,
  startpipeline: K.STARTPIPE,
  syncpipeline: K.SYNCPIPE,
  endpipeline: K.ENDPIPE
}

// Nesting is bounded when parsing (expr-parser.js); should compiling still overflow the stack,
// it is this command's script error, not a crash.
function compileAt (desc, c, slotOf) {
  try {
    return compileExpr(c.expr, slotOf)
  } catch (e) {
    if (!(e instanceof RangeError)) throw e
    throw scriptError({ source: desc, line: c.line, fileColumn: c.column, command: c.argv[0], msg: e.message })
  }
}

/**
 * Link a compiled script: resolve variable slots, compile expressions, build jump tables.
 * @param {import('./compile.js').CompiledScript} compiled
 * @param {number} scriptIndex pgbench's script number (0-based)
 * @param {import('./variables.js').VarRegistry} registry
 * @param {{ nextSqlId: number }} counter numbering of SQL commands across scripts
 */
export function linkScript (compiled, scriptIndex, registry, counter) {
  const slotOf = (name) => registry.slotOf(name)
  const commands = compiled.commands.map((c, index) => {
    const lc = {
      kind: c.type === 'sql' ? K.SQL : META_KIND[c.meta],
      index,
      line: c.line,
      text: c.firstLine,
      cmdName: c.type === 'sql' ? 'SQL' : c.argv[0],
      expr: null,
      slot: -1,
      varName: null,
      argv: c.type === 'sql' ? null : c.argv,
      shellSlots: null,
      sleepUs: 0,
      sleepSlot: -1,
      sleepUnit: SLEEP_UNIT_US.s,
      nextBranch: -1,
      endif: -1,
      sqlId: -1,
      gset: c.type === 'sql' ? (c.meta === 'gset' ? 1 : c.meta === 'aset' ? 2 : 0) : 0,
      prefix: c.type === 'sql' ? (c.prefix ?? '') : '',
      isCopy: c.type === 'sql' ? c.isCopy : false,
      stmt: c.stmt ?? null,
      lits: c.lits ?? null,
      paramNames: c.type === 'sql' ? c.names : null,
      paramSlots: null
    }
    if (c.type === 'sql') {
      lc.sqlId = counter.nextSqlId++
      lc.paramSlots = Int32Array.from(c.names.map(slotOf))
    } else if (c.meta === 'set') {
      lc.expr = compileAt(compiled.desc, c, slotOf)
      lc.varName = c.varName
      lc.slot = validVariableName(c.varName) ? slotOf(c.varName) : -1
    } else if (c.meta === 'if' || c.meta === 'elif') {
      lc.expr = compileAt(compiled.desc, c, slotOf)
    } else if (c.meta === 'sleep') {
      if (c.argv[1][0] === ':') {
        lc.varName = c.argv[1].slice(1)
        lc.sleepSlot = slotOf(lc.varName)
      } else {
        lc.sleepUs = sleepCount(c.argv[1])
      }
      if (c.argv.length > 2) lc.sleepUnit = SLEEP_UNIT_US[c.argv[2].toLowerCase()]
    } else if (c.meta === 'setshell' || c.meta === 'shell') {
      const words = c.meta === 'setshell' ? c.argv.slice(2) : c.argv.slice(1)
      lc.shellSlots = words.map(w => (w[0] === ':' && w[1] !== ':') ? slotOf(w.slice(1)) : -1)
      if (c.meta === 'setshell') {
        lc.varName = c.argv[1]
        lc.slot = validVariableName(c.argv[1]) ? slotOf(c.argv[1]) : -1
      }
    }
    return lc
  })
  // \if jump tables: each branch command points at the next branch of its block and its \endif
  const stack = []
  for (const c of commands) {
    if (c.kind === K.IF) stack.push([c])
    else if (c.kind === K.ELIF || c.kind === K.ELSE) {
      const block = stack[stack.length - 1]
      block[block.length - 1].nextBranch = c.index
      block.push(c)
    } else if (c.kind === K.ENDIF) {
      const block = stack.pop()
      block[block.length - 1].nextBranch = c.index
      for (const b of block) b.endif = c.index
    }
  }
  const n = commands.length
  return {
    name: compiled.name,
    desc: compiled.desc,
    weight: compiled.weight,
    index: scriptIndex,
    protocol: compiled.protocol,
    commands,
    stats: { count: new Float64Array(n), sumUs: new Float64Array(n), failures: new Float64Array(n), retries: new Float64Array(n) }
  }
}
