import { test } from 'node:test'
import assert from 'node:assert/strict'
import { preparedStatementsProblem } from '../../../../lib/server/pooler/prepared-statements.js'

test('-M prepared in transaction pooling before 1.21: a line that says why it fails and what to do', () => {
  const p = preparedStatementsProblem({ protocol: 'prepared', version: '1.18.0', poolMode: 'transaction', maxPreparedStatements: null })
  assert.match(p.message, /^-M prepared through PgBouncer 1\.18\.0 in transaction pooling fails: it keeps prepared statements only from version 1\.21 on/)
  assert.match(p.hint, /-M extended/)
})

test('1.21+ keeps them when max_prepared_statements is set, and says so when it is 0', () => {
  assert.equal(preparedStatementsProblem({ protocol: 'prepared', version: '1.21.0', poolMode: 'transaction', maxPreparedStatements: 100 }), null)
  const off = preparedStatementsProblem({ protocol: 'prepared', version: '1.22.1', poolMode: 'statement', maxPreparedStatements: 0 })
  assert.match(off.message, /max_prepared_statements is 0/)
  assert.match(off.hint, /set max_prepared_statements/)
})

test('session pooling, and the protocols without named statements, have no problem', () => {
  assert.equal(preparedStatementsProblem({ protocol: 'prepared', version: '1.18.0', poolMode: 'session', maxPreparedStatements: null }), null)
  assert.equal(preparedStatementsProblem({ protocol: 'extended', version: '1.18.0', poolMode: 'transaction', maxPreparedStatements: null }), null)
  assert.equal(preparedStatementsProblem({ protocol: 'simple', version: '1.18.0', poolMode: 'transaction', maxPreparedStatements: null }), null)
})
