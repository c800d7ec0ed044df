// Which requests can commit: the first keyword, the transaction status they are sent in.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { statementCommit, textCommit, COMMIT_NONE, COMMIT_EXPLICIT, COMMIT_IMPLICIT } from '../../../lib/db/commit-point.js'

test('COMMIT and END commit explicitly, in or out of a block, whatever their case and comments', () => {
  for (const text of ['COMMIT', 'end;', '  commit work', '-- done\nEND', '/* a /* nested */ one */ Commit', '\tEND TRANSACTION;']) {
    assert.equal(textCommit(text, 'T'), COMMIT_EXPLICIT, text)
    assert.equal(textCommit(text, 'I'), COMMIT_EXPLICIT, text)
    assert.equal(textCommit(text, 'E'), COMMIT_NONE, `${text}: a failed transaction only rolls back`)
  }
})

test('a statement outside a block is its own (implicit) commit; inside one it commits nothing', () => {
  for (const text of ['UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2', 'select 1', 'INSERT INTO t VALUES (1)']) {
    assert.equal(textCommit(text, 'I'), COMMIT_IMPLICIT, text)
    assert.equal(textCommit(text, 'T'), COMMIT_NONE, text)
    assert.equal(textCommit(text, 'E'), COMMIT_NONE, text)
  }
})

test('BEGIN, START TRANSACTION, ROLLBACK and ABORT never commit', () => {
  for (const text of ['BEGIN', 'begin;', 'START TRANSACTION ISOLATION LEVEL SERIALIZABLE', 'ROLLBACK', 'abort']) {
    assert.equal(textCommit(text, 'I'), COMMIT_NONE, text)
    assert.equal(textCommit(text, 'T'), COMMIT_NONE, text)
  }
})

test('several statements in one query may commit (settled by ReadyForQuery); a trailing ; is one statement', () => {
  assert.equal(textCommit('BEGIN; UPDATE t SET x = 1; COMMIT;', 'I'), COMMIT_IMPLICIT)
  assert.equal(textCommit('UPDATE t SET x = 1; SELECT 1', 'T'), COMMIT_IMPLICIT)
  assert.equal(textCommit('UPDATE t SET x = 1;  \n', 'T'), COMMIT_NONE)
})

test('a defined statement is classified once, by its id', () => {
  const stmt = { id: 900001, name: 'P_900001', text: 'END' }
  assert.equal(statementCommit(stmt, 'T'), COMMIT_EXPLICIT)
  const other = { id: 900002, name: 'P_900002', text: 'SELECT 1' }
  assert.equal(statementCommit(other, 'I'), COMMIT_IMPLICIT)
  assert.equal(statementCommit(other, 'T'), COMMIT_NONE)
})
