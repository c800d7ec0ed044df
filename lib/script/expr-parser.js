// pgbench's expression grammar (exprparse.y) as a precedence-climbing parser producing a small
// AST; operators become functions exactly as pgbench builds them (`a > b` is `<(b, a)`).

import { TK } from './lexer.js'
import { T_BOOL, T_DBL, T_INT, T_NULL } from './values.js'

/** A parse error at an offset of the script text. */
export class ExprParseError extends Error {
  constructor (message, more, offset) {
    super(message)
    this.more = more
    this.offset = offset
  }
}

const VARIABLE = -1
const CASE = -2
const HASH = -3
const PERMUTE = -4

/** Functions by name (pgbench's PGBENCH_FUNCTIONS): argument count or a special rule. */
export const FUNCTIONS = new Map([
  ['+', 2], ['-', 2], ['*', 2], ['/', 2], ['mod', 2],
  ['abs', 1], ['least', VARIABLE], ['greatest', VARIABLE], ['debug', 1], ['pi', 0],
  ['sqrt', 1], ['ln', 1], ['exp', 1], ['int', 1], ['double', 1],
  ['random', 2], ['random_gaussian', 3], ['random_exponential', 3], ['random_zipfian', 3],
  ['pow', 2], ['power', 2],
  ['!and', 2], ['!or', 2], ['!not', 1],
  ['&', 2], ['|', 2], ['#', 2], ['<<', 2], ['>>', 2],
  ['=', 2], ['<>', 2], ['<=', 2], ['<', 2], ['!is', 2],
  ['!case_end', CASE],
  ['hash', HASH], ['hash_murmur2', HASH], ['hash_fnv1a', HASH],
  ['permute', PERMUTE]
])

// Function names of the left-associative operators that are not their own name.
const CHAIN_NAMES = { '%': 'mod', and: '!and', or: '!or' }

const BINARY = new Map([
  ['or', [1, 'L']], ['and', [2, 'L']],
  ['is', [4, 'N']], ['isnull', [4, 'N']], ['notnull', [4, 'N']],
  ['<', [5, 'N']], ['>', [5, 'N']], ['=', [5, 'N']], ['<=', [5, 'N']], ['>=', [5, 'N']], ['<>', [5, 'N']],
  ['|', [6, 'L']], ['#', [6, 'L']], ['&', [6, 'L']], ['<<', [6, 'L']], ['>>', [6, 'L']],
  ['+', [7, 'L']], ['-', [7, 'L']],
  ['*', [8, 'L']], ['/', [8, 'L']], ['%', [8, 'L']]
])

// How deep an expression may nest: parentheses, function calls, CASE, unary operators and
// operands of binary operators each add a level. pgbench's bison parser gives up at YYMAXDEPTH
// (10000) parser states, a few thousand levels, while real scripts nest a handful. 256 keeps each
// recursive pass here (this parser, compileExpr, the compiled closures) within about a quarter
// of Node's default stack, so an expression either works or is refused with one line.
export const MAX_EXPR_DEPTH = 256

// A run of same-precedence left-associative operators (`1 + 2 - 3 ...`) longer than this becomes
// one `chain` node evaluated by a loop; shorter runs stay nested binary nodes, whose closures
// took about half the time per term of the loop's in a micro-benchmark.
const CHAIN_NEST_MAX = 16

const cnst = (t, v) => ({ k: 'const', t, v, d: 1 })
const nullConst = () => cnst(T_NULL, null)
const seedVar = () => ({ k: 'var', name: 'default_seed', d: 1 })

/** The message of an expression over MAX_EXPR_DEPTH (the caller prints it without the line). */
const TOO_DEEP = 'expression nested too deeply'

/**
 * Parse one expression from the scanner's position to the end of the line.
 * @param {import('./lexer.js').ScriptScanner} scanner
 * @returns {object} AST: `const`, `var`, `func` (f, args) or `chain` (fs, args: args[0] fs[0] args[1] ...)
 */
export function parseExpression (scanner) {
  const p = new Parser(scanner)
  const e = p.expr(0)
  const t = p.peek()
  if (t.kind !== TK.EOL) p.syntaxError()
  return e
}

class Parser {
  constructor (scanner) {
    this.sc = scanner
    this.tok = null
    this.lastEnd = scanner.pos
    this.depth = 0 // nesting of the recursive descent
  }

  peek () {
    if (this.tok === null) {
      this.tok = this.sc.lexExpr()
      this.lastEnd = this.tok.end
    }
    return this.tok
  }

  next () {
    const t = this.peek()
    this.tok = null
    return t
  }

  fail (message, more) {
    throw new ExprParseError(message, more, this.lastEnd - 1)
  }

  syntaxError () { this.fail('syntax error') }

  tooDeep () {
    const e = new ExprParseError(TOO_DEEP, `limit ${MAX_EXPR_DEPTH}`, this.lastEnd - 1)
    e.tooDeep = true
    throw e
  }

  expectOp (op) {
    const t = this.next()
    if (t.kind !== TK.OP || t.value !== op) this.syntaxError()
  }

  expectKw (kw) {
    const t = this.next()
    if (t.kind !== TK.KW || t.value !== kw) this.syntaxError()
  }

  binaryKey (t) {
    if (t.kind === TK.OP) return t.value
    if (t.kind === TK.KW) return t.value
    return null
  }

  // Precedence climbing. Operators of one precedence level in a row are gathered by the loop,
  // not by recursion, so a flat chain of any length costs no stack.
  expr (minPrec) {
    if (++this.depth > MAX_EXPR_DEPTH) this.tooDeep()
    let left = this.unary()
    let lastNonAssoc = -1
    let chain = null // the left-associative run being gathered: { prec, fs, args }
    for (;;) {
      const t = this.peek()
      const key = this.binaryKey(t)
      const info = key === null ? undefined : BINARY.get(key)
      if (info === undefined || info[0] < minPrec) break
      const [prec, assoc] = info
      if (assoc === 'N' && lastNonAssoc === prec) this.syntaxError()
      this.next()
      if (chain !== null && (assoc !== 'L' || chain.prec !== prec)) {
        left = this.closeChain(chain)
        chain = null
      }
      if (key === 'isnull') left = this.makeOp('!is', left, nullConst())
      else if (key === 'notnull') left = this.makeUop('!not', this.makeOp('!is', left, nullConst()))
      else if (key === 'is') left = this.isTail(left)
      else if (assoc === 'L') {
        const right = this.expr(prec + 1)
        if (chain === null) chain = { prec, fs: [], args: [left] }
        chain.fs.push(CHAIN_NAMES[key] ?? key)
        chain.args.push(right)
      } else {
        const right = this.expr(prec + 1)
        left = this.binary(key, left, right)
      }
      lastNonAssoc = assoc === 'N' ? prec : -1
    }
    if (chain !== null) left = this.closeChain(chain)
    this.depth--
    return left
  }

  // A short run nests as binary nodes, exactly as pgbench's grammar builds it; a long one is
  // one node whose operands are applied left to right (the same order and the same result).
  closeChain ({ fs, args }) {
    if (args.length <= CHAIN_NEST_MAX) {
      let e = args[0]
      for (let i = 1; i < args.length; i++) e = this.makeOp(fs[i - 1], e, args[i])
      return e
    }
    let d = 0
    for (const a of args) if (a.d > d) d = a.d
    if (d + 1 > MAX_EXPR_DEPTH) this.tooDeep()
    return { k: 'chain', fs, args, d: d + 1 }
  }

  isTail (left) {
    let t = this.next()
    let negate = false
    if (t.kind === TK.KW && t.value === 'not') { negate = true; t = this.next() }
    let e
    if (t.kind === TK.NULL) e = this.makeOp('!is', left, nullConst())
    else if (t.kind === TK.BOOL) e = this.makeOp('!is', left, cnst(T_BOOL, t.value))
    else this.syntaxError()
    return negate ? this.makeUop('!not', e) : e
  }

  binary (key, a, b) {
    switch (key) {
      case '>': return this.makeOp('<', b, a)
      case '>=': return this.makeOp('<=', b, a)
      default: return this.makeOp(key, a, b)
    }
  }

  // Prefix signs are counted by a loop (`- - - 1` nests only in the tree it builds).
  unary () {
    let minuses = 0
    for (let levels = this.depth; ; levels++) {
      const t = this.peek()
      if (t.kind !== TK.OP || (t.value !== '+' && t.value !== '-')) break
      if (levels >= MAX_EXPR_DEPTH) this.tooDeep()
      this.next()
      if (t.value === '+') continue
      if (this.peek().kind === TK.MAXINT1) { this.next(); return this.negate(cnst(T_INT, -(2n ** 63n)), minuses) }
      minuses++
    }
    return this.negate(this.prefixed(), minuses)
  }

  negate (e, times) {
    for (let i = 0; i < times; i++) e = this.makeOp('-', cnst(T_INT, 0), e)
    return e
  }

  prefixed () {
    const t = this.peek()
    if (t.kind === TK.OP && t.value === '~') { this.next(); return this.makeOp('#', cnst(T_INT, -1), this.expr(7)) }
    if (t.kind === TK.KW && t.value === 'not') { this.next(); return this.makeUop('!not', this.expr(4)) }
    return this.primary()
  }

  primary () {
    const t = this.next()
    switch (t.kind) {
      case TK.INT: return cnst(T_INT, t.value)
      case TK.DBL: return cnst(T_DBL, t.value)
      case TK.BOOL: return cnst(T_BOOL, t.value)
      case TK.NULL: return nullConst()
      case TK.VAR: return { k: 'var', name: t.value, d: 1 }
      case TK.OP:
        if (t.value === '(') {
          const e = this.expr(0)
          this.expectOp(')')
          return e
        }
        break
      case TK.FUNC: return this.call(t)
      case TK.KW:
        if (t.value === 'case') return this.caseExpr()
        break
    }
    this.syntaxError()
  }

  call (t) {
    const name = t.value.toLowerCase()
    if (!FUNCTIONS.has(name)) this.fail('unexpected function name', t.value)
    this.expectOp('(')
    const args = []
    if (!(this.peek().kind === TK.OP && this.peek().value === ')')) {
      args.push(this.expr(0))
      while (this.peek().kind === TK.OP && this.peek().value === ',') {
        this.next()
        args.push(this.expr(0))
      }
    }
    this.expectOp(')')
    return this.makeFunc(name, args)
  }

  caseExpr () {
    const args = []
    let t = this.next()
    if (!(t.kind === TK.KW && t.value === 'when')) this.syntaxError()
    for (;;) {
      args.push(this.expr(0))
      this.expectKw('then')
      args.push(this.expr(0))
      t = this.next()
      if (t.kind === TK.KW && t.value === 'when') continue
      if (t.kind === TK.KW && t.value === 'else') {
        args.push(this.expr(0))
        this.expectKw('end')
        break
      }
      if (t.kind === TK.KW && t.value === 'end') { args.push(nullConst()); break }
      this.syntaxError()
    }
    return this.makeFunc('!case_end', args)
  }

  makeOp (name, a, b) { return this.makeFunc(name, [a, b]) }
  makeUop (name, a) { return this.makeFunc(name, [a]) }

  makeFunc (name, args) {
    const nargs = FUNCTIONS.get(name)
    const len = args.length
    switch (nargs) {
      case VARIABLE:
        if (len === 0) this.fail('at least one argument expected', name)
        break
      case CASE:
        if (len < 3 || len % 2 !== 1) this.fail('odd and >= 3 number of arguments expected', 'case control structure')
        break
      case HASH:
        if (len < 1 || len > 2) this.fail('unexpected number of arguments', name)
        if (len === 1) args.push(seedVar())
        break
      case PERMUTE:
        if (len < 2 || len > 3) this.fail('unexpected number of arguments', name)
        if (len === 2) args.push(seedVar())
        break
      default:
        if (nargs !== len) this.fail('unexpected number of arguments', name)
    }
    let d = 0
    for (let i = 0; i < args.length; i++) if (args[i].d > d) d = args[i].d
    if (d + 1 > MAX_EXPR_DEPTH) this.tooDeep()
    return { k: 'func', f: name, args, d: d + 1 }
  }
}
