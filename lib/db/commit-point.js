// Which requests can commit, so that a connection lost in flight tells a committed transaction
// from a failed one and from one whose outcome only the server knows (docs/results-format.md,
// "Outcomes"). PostgreSQL commits an explicit COMMIT before its CommandComplete; an implicit
// (single-statement) transaction of the extended protocol only at the Sync, after it.

/** Not a commit: inside a transaction block, BEGIN, ROLLBACK. */
export const COMMIT_NONE = 0
/** COMMIT or END: its CommandComplete says the transaction committed. */
export const COMMIT_EXPLICIT = 1
/** A statement outside a transaction block (or a compound query, a pipeline): only ReadyForQuery settles it. */
export const COMMIT_IMPLICIT = 2

const KIND_OTHER = 0
const KIND_BEGIN = 1
const KIND_COMMIT = 2
const KIND_ROLLBACK = 3
const KIND_COMPOUND = 4

// A statement's kind by statement id, worked out on first use (ids are small and dense).
const kindsById = []

/**
 * What a request for `stmt` commits, sent when the connection's transaction status is `txStatus`.
 * @param {{ id: number, text: string }} stmt
 * @param {string} txStatus 'I', 'T' or 'E'
 * @returns {number} COMMIT_NONE, COMMIT_EXPLICIT or COMMIT_IMPLICIT
 */
export function statementCommit (stmt, txStatus) {
  let kind = kindsById[stmt.id]
  if (kind === undefined) kind = kindsById[stmt.id] = statementKind(stmt.text)
  return commitOf(kind, txStatus)
}

/**
 * As statementCommit, for query text that is not a defined statement (simple protocol).
 * @param {string} text
 * @param {string} txStatus
 */
export function textCommit (text, txStatus) {
  return commitOf(statementKind(text), txStatus)
}

function commitOf (kind, txStatus) {
  // COMMIT of a failed transaction rolls back (its tag says ROLLBACK): nothing to commit
  if (kind === KIND_COMMIT) return txStatus === 'E' ? COMMIT_NONE : COMMIT_EXPLICIT
  if (kind === KIND_COMPOUND) return COMMIT_IMPLICIT
  if (kind === KIND_OTHER && txStatus === 'I') return COMMIT_IMPLICIT
  return COMMIT_NONE
}

/**
 * The statement's first keyword, as far as committing goes. Several statements in one text
 * (simple protocol) count as a compound: any of them may commit.
 * @param {string} text
 * @returns {number}
 */
export function statementKind (text) {
  const start = skipBlank(text, 0)
  const semi = text.indexOf(';', start)
  if (semi >= 0 && skipBlank(text, semi + 1) < text.length) return KIND_COMPOUND
  let end = start
  while (end < text.length && isLetter(text.charCodeAt(end))) end++
  switch (text.slice(start, end).toUpperCase()) {
    case 'BEGIN': case 'START': return KIND_BEGIN
    case 'COMMIT': case 'END': return KIND_COMMIT
    case 'ROLLBACK': case 'ABORT': return KIND_ROLLBACK
    default: return KIND_OTHER
  }
}

// Past white space, `-- comments` and `/* comments */` (nested, as PostgreSQL's).
function skipBlank (text, i) {
  while (i < text.length) {
    const c = text.charCodeAt(i)
    if (c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0x3b) { i++; continue }
    if (c === 0x2d && text.charCodeAt(i + 1) === 0x2d) {
      const nl = text.indexOf('\n', i)
      i = nl < 0 ? text.length : nl + 1
      continue
    }
    if (c === 0x2f && text.charCodeAt(i + 1) === 0x2a) {
      let depth = 0
      while (i < text.length) {
        if (text.charCodeAt(i) === 0x2f && text.charCodeAt(i + 1) === 0x2a) { depth++; i += 2 } else if (text.charCodeAt(i) === 0x2a && text.charCodeAt(i + 1) === 0x2f) { depth--; i += 2; if (depth === 0) break } else i++
      }
      continue
    }
    break
  }
  return i
}

function isLetter (c) { return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) }
