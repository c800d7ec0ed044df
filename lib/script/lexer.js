// Script lexing as pgbench does it with psql's lexer: SQL commands end at a top-level `;` or a
// backslash; meta-commands are words to end of line (with `\` continuation); expressions are tokens.

const IDENT_START = /[A-Za-z_\x80-\uffff]/
const IDENT_CONT = /[A-Za-z0-9_$\x80-\uffff]/
const VAR_CHAR = /[A-Za-z0-9_\x80-\uffff]/
const DOLQ_START = /[A-Za-z_\x80-\uffff]/
const DOLQ_CONT = /[A-Za-z0-9_\x80-\uffff]/
const SPACE = /[ \t\n\r\f\v]/
// a number token at lastIndex, however long (sticky: no copy of the rest of the line)
const NUMBER = /[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9]+(?:[eE][-+]?[0-9]+)?/y

/** Expression token kinds. */
export const TK = {
  EOL: 'EOL',
  OP: 'OP', // + - * / % = < > <> != <= >= << >> | & # ~ ( ) ,
  INT: 'INT',
  MAXINT1: 'MAXINT1', // 9223372036854775808, valid only after unary minus
  DBL: 'DBL',
  VAR: 'VAR',
  FUNC: 'FUNC',
  KW: 'KW', // AND OR NOT IS ISNULL NOTNULL CASE WHEN THEN ELSE END
  NULL: 'NULL',
  BOOL: 'BOOL'
}

const KEYWORDS = new Set(['and', 'or', 'not', 'is', 'isnull', 'notnull', 'case', 'when', 'then', 'else', 'end'])
const TWO_CHAR_OPS = new Set(['<>', '!=', '<=', '>=', '<<', '>>'])
const ONE_CHAR_OPS = new Set(['+', '-', '*', '/', '%', '=', '<', '>', '|', '&', '#', '~', '(', ')', ','])

/** A lexing error at an offset (the parser turns it into pgbench's syntax_error text). */
export class LexError extends Error {
  constructor (message, more, offset) {
    super(message)
    this.more = more
    this.offset = offset
  }
}

/**
 * One scanner over a whole script text, shared by the SQL, word and expression lexers
 * (as pgbench shares psql's scan state between them).
 */
export class ScriptScanner {
  /** @param {string} text */
  constructor (text) {
    this.text = text
    this.pos = 0
    this.lineStarts = [0]
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1)
    // psql's BEGIN ATOMIC tracking
    this.identifiers = ''
    this.identifierCount = 0
    this.beginDepth = 0
    this.lastWasNewline = false
  }

  /** 1-based line of an offset. */
  lineOf (offset) {
    let lo = 0
    let hi = this.lineStarts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (this.lineStarts[mid] <= offset) lo = mid
      else hi = mid - 1
    }
    return lo + 1
  }

  /** 1-based column of an offset. */
  columnOf (offset) {
    return offset - this.lineStarts[this.lineOf(offset) - 1] + 1
  }

  /**
   * Scan one SQL command (psql_scan). Whitespace and `--` comments are dropped until the
   * command has some text; `\;` and `\:` emit `;` and `:`.
   * @returns {{ text: string, start: number, end: 'semicolon'|'backslash'|'eof' }}
   */
  // eslint-disable-next-line max-lines-per-function -- psql's SQL scanner rules, one branch per token kind, read as a table
  scanSql () {
    const s = this.text
    const n = s.length
    let out = ''
    let start = -1
    let parenDepth = 0
    let i = this.pos
    const emit = (from, to) => {
      if (start < 0) start = from
      out += s.slice(from, to)
    }
    while (i < n) {
      const c = s[i]
      if (SPACE.test(c)) {
        let j = i + 1
        while (j < n && SPACE.test(s[j])) j++
        if (out.length > 0) out += s.slice(i, j)
        i = j
        continue
      }
      if (c === '-' && s[i + 1] === '-') {
        let j = s.indexOf('\n', i)
        j = j < 0 ? n : j
        if (out.length > 0) out += s.slice(i, j)
        i = j
        continue
      }
      if (c === '/' && s[i + 1] === '*') {
        let depth = 1
        let j = i + 2
        while (j < n && depth > 0) {
          if (s[j] === '/' && s[j + 1] === '*') { depth++; j += 2 } else if (s[j] === '*' && s[j + 1] === '/') { depth--; j += 2 } else j++
        }
        emit(i, j)
        i = j
        continue
      }
      if (c === "'") { const j = this._skipQuote(i, "'", false); emit(i, j); i = j; continue }
      if (c === '"') { const j = this._skipQuote(i, '"', false); emit(i, j); i = j; continue }
      if (c === '$') {
        const j = this._dollarQuoteEnd(i)
        if (j > 0) { emit(i, j); i = j; continue }
        let k = i + 1
        while (k < n && /[0-9]/.test(s[k])) k++
        emit(i, k)
        i = k
        continue
      }
      if (c === ':') {
        // :'var' and :"var" are variable references to psql, not quotes
        const q = s[i + 1]
        if (q === "'" || q === '"') {
          let k = i + 2
          while (k < n && VAR_CHAR.test(s[k])) k++
          if (k > i + 2 && s[k] === q) { emit(i, k + 1); i = k + 1; continue }
        }
        emit(i, i + 1)
        i++
        continue
      }
      if (c === '\\') {
        const d = s[i + 1]
        if (d === ';' || d === ':') {
          if (start < 0) start = i
          out += d
          if (d === ';') this.identifierCount = 0
          i += 2
          continue
        }
        this.pos = i + 1
        return { text: out, start, end: 'backslash' }
      }
      if (c === '(') { parenDepth++; emit(i, i + 1); i++; continue }
      if (c === ')') { if (parenDepth > 0) parenDepth--; emit(i, i + 1); i++; continue }
      if (c === ';') {
        emit(i, i + 1)
        i++
        if (parenDepth === 0 && this.beginDepth === 0) {
          this.identifierCount = 0
          this.identifiers = ''
          this.pos = i
          return { text: out, start, end: 'semicolon' }
        }
        continue
      }
      if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(s[i + 1] ?? ''))) {
        let j = i + 1
        while (j < n && /[0-9A-Za-z_.]/.test(s[j])) {
          if ((s[j] === 'e' || s[j] === 'E') && (s[j + 1] === '+' || s[j + 1] === '-')) j++
          j++
        }
        emit(i, j)
        i = j
        continue
      }
      if (IDENT_START.test(c)) {
        let j = i + 1
        while (j < n && IDENT_CONT.test(s[j])) j++
        const word = s.slice(i, j)
        if ((word === 'e' || word === 'E') && s[j] === "'") {
          const k = this._skipQuote(j, "'", true)
          emit(i, k)
          i = k
          continue
        }
        if ((word === 'u' || word === 'U') && s[j] === '&' && (s[j + 1] === "'" || s[j + 1] === '"')) {
          const k = this._skipQuote(j + 1, s[j + 1], false)
          emit(i, k)
          i = k
          continue
        }
        this._trackIdentifier(word, parenDepth)
        emit(i, j)
        i = j
        continue
      }
      emit(i, i + 1)
      i++
    }
    this.pos = n
    return { text: out, start, end: 'eof' }
  }

  _skipQuote (i, q, backslashEscapes) {
    const s = this.text
    const n = s.length
    let j = i + 1
    while (j < n) {
      const c = s[j]
      if (backslashEscapes && c === '\\') { j += 2; continue }
      if (c === q) {
        if (s[j + 1] === q) { j += 2; continue }
        return j + 1
      }
      j++
    }
    return n
  }

  _dollarQuoteEnd (i) {
    const s = this.text
    let j = i + 1
    if (j < s.length && DOLQ_START.test(s[j])) {
      j++
      while (j < s.length && DOLQ_CONT.test(s[j])) j++
    }
    if (s[j] !== '$') return -1
    const tag = s.slice(i, j + 1)
    const close = s.indexOf(tag, j + 1)
    return close < 0 ? s.length : close + tag.length
  }

  _trackIdentifier (word, parenDepth) {
    const w = word.toLowerCase()
    if (this.identifierCount === 0) this.identifiers = ''
    if (this.identifierCount < 4 && ['create', 'function', 'procedure', 'or', 'replace'].includes(w)) {
      this.identifiers = this.identifiers.padEnd(this.identifierCount, ' ') + w[0]
    }
    this.identifierCount++
    const ids = this.identifiers
    if (ids[0] === 'c' && (ids[1] === 'f' || ids[1] === 'p' || (ids[1] === 'o' && ids[2] === 'r' && (ids[3] === 'f' || ids[3] === 'p'))) && parenDepth === 0) {
      if (w === 'begin') this.beginDepth++
      else if (w === 'case') { if (this.beginDepth >= 1) this.beginDepth++ } else if (w === 'end') { if (this.beginDepth > 0) this.beginDepth-- }
    }
  }

  /** Skip blanks and `\`-newline continuations on the current line. */
  _skipBlanks () {
    const s = this.text
    for (;;) {
      const c = s[this.pos]
      if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') { this.pos++; continue }
      if (c === '\\' && (s[this.pos + 1] === '\n' || (s[this.pos + 1] === '\r' && s[this.pos + 2] === '\n'))) {
        this.pos += s[this.pos + 1] === '\n' ? 2 : 3
        continue
      }
      return
    }
  }

  /**
   * expr_lex_one_word(): the next whitespace-separated word of a meta-command, or null at the
   * end of the line (the newline is consumed) or of the text.
   * @returns {{ word: string, offset: number } | null}
   */
  lexWord () {
    this.lastWasNewline = false
    this._skipBlanks()
    const s = this.text
    if (this.pos >= s.length) return null
    if (s[this.pos] === '\n') { this.pos++; this.lastWasNewline = true; return null }
    const start = this.pos
    let j = start
    while (j < s.length && !/[ \t\r\f\v\n]/.test(s[j])) j++
    let word = s.slice(start, j)
    // "word\" + newline is the word followed by a continuation
    if (word.endsWith('\\') && (s[j] === '\n' || (s[j] === '\r' && s[j + 1] === '\n'))) {
      word = word.slice(0, -1)
      this.pos = j + (s[j] === '\n' ? 1 : 2)
      return { word, offset: start }
    }
    if (word.endsWith('\\') && s[j - 1] === '\\' && s[j] === '\r' && s[j + 1] === '\n') word = word.slice(0, -1)
    this.pos = j
    return { word, offset: start }
  }

  /**
   * Next expression token (EXPR state). `end` is the offset just after the token; pgbench
   * reports errors at end - 1.
   * @returns {{ kind: string, value?: any, text: string, end: number }}
   */
  lexExpr () {
    this.lastWasNewline = false
    this._skipBlanks()
    const s = this.text
    const i = this.pos
    if (i >= s.length) return { kind: TK.EOL, text: '', end: s.length }
    const c = s[i]
    if (c === '\n') { this.pos = i + 1; this.lastWasNewline = true; return { kind: TK.EOL, text: '\n', end: i + 1 } }
    const two = s.slice(i, i + 2)
    if (TWO_CHAR_OPS.has(two)) { this.pos = i + 2; return { kind: TK.OP, value: two === '!=' ? '<>' : two, text: two, end: i + 2 } }
    if (ONE_CHAR_OPS.has(c)) { this.pos = i + 1; return { kind: TK.OP, value: c, text: c, end: i + 1 } }
    if (c === ':') {
      let j = i + 1
      while (j < s.length && VAR_CHAR.test(s[j])) j++
      if (j > i + 1) { this.pos = j; return { kind: TK.VAR, value: s.slice(i + 1, j), text: s.slice(i, j), end: j } }
    }
    NUMBER.lastIndex = i
    const num = NUMBER.exec(s)
    if (num) {
      const t = num[0]
      const end = i + t.length
      this.pos = end
      if (/^[0-9]+$/.test(t)) {
        if (t === '9223372036854775808') return { kind: TK.MAXINT1, text: t, end }
        const b = BigInt(t)
        if (b > 9223372036854775807n) throw new LexError('bigint constant overflow', t, end - 1)
        return { kind: TK.INT, value: b <= 9007199254740991n ? Number(b) : b, text: t, end }
      }
      const d = Number(t)
      if (!Number.isFinite(d) || (d === 0 && /[1-9]/.test(t.replace(/[eE].*$/, '')))) throw new LexError('double constant overflow', t, end - 1)
      return { kind: TK.DBL, value: d, text: t, end }
    }
    if (/[A-Za-z_\x80-\uffff]/.test(c)) {
      let j = i + 1
      while (j < s.length && VAR_CHAR.test(s[j])) j++
      const word = s.slice(i, j)
      const low = word.toLowerCase()
      this.pos = j
      if (KEYWORDS.has(low)) return { kind: TK.KW, value: low, text: word, end: j }
      if (low === 'null') return { kind: TK.NULL, text: word, end: j }
      if (low === 'true' || low === 'false') return { kind: TK.BOOL, value: low === 'true', text: word, end: j }
      return { kind: TK.FUNC, value: word, text: word, end: j }
    }
    this.pos = i + 1
    throw new LexError('unexpected character', c, i)
  }

  /** Consume the rest of the current line (as pgbench does before printing an error). */
  skipToEndOfLine () {
    if (this.lastWasNewline) return
    for (;;) {
      this._skipBlanks()
      const s = this.text
      if (this.pos >= s.length) return
      if (s[this.pos] === '\n') { this.pos++; this.lastWasNewline = true; return }
      this.pos++
    }
  }

  /** The source from an offset to the current position, trailing newlines removed. */
  substring (from, to = this.pos) {
    let t = this.text.slice(from, to)
    while (t.endsWith('\n') || t.endsWith('\r')) t = t.slice(0, -1)
    return t
  }
}
