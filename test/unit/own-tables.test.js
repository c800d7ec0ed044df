import { test } from 'node:test'
import assert from 'node:assert/strict'
import { isOwnTable, refuseForeignTables, markTablesSql, markerComment } from '../../workloads/own-tables.js'
import { OWN_TABLES } from '../../workloads/tpcb/init.js'

const table = (name, columns, { kind = 'r', comment = null, schema = 'public' } = {}) => ({ name, qualified: `${schema}.${name}`, kind, comment, columns })
const ACCOUNTS = ['aid integer', 'bid integer', 'abalance integer', 'filler character(84)']

test('a table is the workload\'s own by its exact columns (pgbench\'s, aid int or bigint) or by pgload\'s marker', () => {
  assert.equal(isOwnTable(table('pgbench_accounts', ACCOUNTS), OWN_TABLES), true)
  assert.equal(isOwnTable(table('pgbench_accounts', ['aid bigint', ...ACCOUNTS.slice(1)]), OWN_TABLES), true)
  assert.equal(isOwnTable(table('pgbench_accounts', ACCOUNTS, { kind: 'p' }), OWN_TABLES), true, 'pgbench -i --partitions')
  assert.equal(isOwnTable(table('pgbench_accounts', [...ACCOUNTS, 'note text']), OWN_TABLES), false, 'one column more')
  assert.equal(isOwnTable(table('pgbench_accounts', [ACCOUNTS[1], ACCOUNTS[0], ...ACCOUNTS.slice(2)]), OWN_TABLES), false, 'another order')
  assert.equal(isOwnTable(table('pgbench_accounts', ['id integer', 'note text']), OWN_TABLES), false)
  assert.equal(isOwnTable(table('pgbench_accounts', ['id integer'], { comment: 'pgload:tpcb' }), OWN_TABLES), true)
  assert.equal(isOwnTable(table('pgbench_accounts', ['id integer'], { comment: 'pgload:tpcb:incomplete' }), OWN_TABLES), true)
  assert.equal(isOwnTable(table('pgbench_accounts', ['id integer'], { comment: 'pgload:tpcc' }), OWN_TABLES), false, 'another workload\'s marker')
  assert.equal(isOwnTable(table('pgbench_accounts', ACCOUNTS, { kind: 'v', comment: 'pgload:tpcb' }), OWN_TABLES), false, 'a view is never ours')
})

test('refusals name every foreign table, schema-qualified, with how to drop it', () => {
  assert.doesNotThrow(() => refuseForeignTables([table('pgbench_accounts', ACCOUNTS)], OWN_TABLES))
  assert.throws(() => refuseForeignTables([table('pgbench_accounts', ['id integer', 'note text'], { schema: 'alice' })], OWN_TABLES), (err) => {
    assert.equal(err.code, 'FOREIGN_TABLE')
    assert.equal(err.exitCode, 1)
    assert.equal(err.message, 'alice.pgbench_accounts is not a pgbench table (columns id, note); init --force replaces only pgload\'s and pgbench\'s own tables')
    assert.equal(err.hint, 'drop it yourself: DROP TABLE alice.pgbench_accounts')
    return true
  })
  assert.throws(() => refuseForeignTables([
    table('pgbench_accounts', ['id integer']),
    table('pgbench_branches', ['bid integer', 'bbalance integer', 'filler character(88)']),
    table('pgbench_tellers', [], { kind: 'v' })
  ], OWN_TABLES), (err) => {
    assert.equal(err.message, 'public.pgbench_accounts (columns id), public.pgbench_tellers (a view) are not pgbench tables; init --force replaces only pgload\'s and pgbench\'s own tables')
    assert.equal(err.hint, 'rename or drop public.pgbench_accounts, public.pgbench_tellers yourself')
    return true
  })
})

test('markers are table comments, complete and incomplete', () => {
  assert.equal(markerComment('tpcc', 'complete'), 'pgload:tpcc')
  assert.equal(markTablesSql('tpcb', ['a', 'b'], 'incomplete'), "comment on table a is 'pgload:tpcb:incomplete';\ncomment on table b is 'pgload:tpcb:incomplete';")
})
