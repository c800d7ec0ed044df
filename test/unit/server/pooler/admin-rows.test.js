import { test } from 'node:test'
import assert from 'node:assert/strict'
import { pgbouncerVersion, versionAtLeast, poolReading, statsTotals, databasePool, configValue } from '../../../../lib/server/pooler/admin-rows.js'
import { VERSION_1_18, POOLS_1_18, STATS_1_18, POOLS_LATER, STATS_LATER, DATABASES_1_18, CONFIG_1_18 } from './recorded.js'

test('SHOW VERSION: PgBouncer\'s version, and null from anything else', () => {
  assert.equal(pgbouncerVersion(VERSION_1_18), '1.18.0')
  assert.equal(pgbouncerVersion({ fields: ['version'], rows: [['PgBouncer 1.23.1 (experimental)']] }), '1.23.1')
  assert.equal(pgbouncerVersion({ fields: ['version'], rows: [['PostgreSQL 18.4 on x86_64']] }), null)
  assert.equal(pgbouncerVersion({ fields: ['version'], rows: [] }), null)
})

test('versionAtLeast compares major and minor as numbers', () => {
  assert.equal(versionAtLeast('1.18.0', 1, 21), false)
  assert.equal(versionAtLeast('1.21.0', 1, 21), true)
  assert.equal(versionAtLeast('1.100.0', 1, 21), true)
  assert.equal(versionAtLeast('2.0', 1, 21), true)
})

test('SHOW POOLS: the run\'s pool by database and user, the longest wait from maxwait and maxwait_us', () => {
  assert.deepEqual(poolReading(POOLS_1_18, { database: 'postgres', user: 'postgres' }), {
    clientsActive: 3, clientsWaiting: 7, maxWaitMs: 17.579, serversActive: 2, serversIdle: 0, serversUsed: 0, poolMode: 'transaction'
  })
  // force_user: the database's one pool is under another user
  assert.equal(poolReading(POOLS_1_18, { database: 'postgres', user: 'app' }).clientsWaiting, 7)
  assert.equal(poolReading(POOLS_1_18, { database: 'other', user: 'postgres' }), null)
  const twoPools = { fields: POOLS_1_18.fields, rows: [POOLS_1_18.rows[1], POOLS_1_18.rows[1].map((v, i) => i === 1 ? 'admin' : v)] }
  assert.equal(poolReading(twoPools, { database: 'postgres', user: 'app' }), null, 'two pools and neither the run\'s: none')
})

test('SHOW POOLS and SHOW STATS are read by column name, whatever the order and the extra columns', () => {
  assert.deepEqual(poolReading(POOLS_LATER, { database: 'bench', user: 'app' }), {
    clientsActive: 20, clientsWaiting: 4, maxWaitMs: 2500, serversActive: 19, serversIdle: 1, serversUsed: 0, poolMode: 'session'
  })
  assert.deepEqual(statsTotals(STATS_LATER, 'bench'), { transactions: 80, queries: 400, waitUs: 1500 })
  // a column this version lacks is null, not a neighbour's value
  const noWaitUs = { fields: POOLS_1_18.fields.filter((f) => f !== 'maxwait_us'), rows: [POOLS_1_18.rows[1].filter((_, i) => POOLS_1_18.fields[i] !== 'maxwait_us')] }
  assert.equal(poolReading(noWaitUs, { database: 'postgres', user: 'postgres' }).maxWaitMs, 0)
  assert.deepEqual(statsTotals({ fields: ['database', 'total_requests'], rows: [['postgres', '9']] }, 'postgres'), { transactions: null, queries: null, waitUs: null })
})

test('SHOW STATS: the database\'s cumulative counters', () => {
  assert.deepEqual(statsTotals(STATS_1_18, 'postgres'), { transactions: 5000, queries: 35000, waitUs: 20000000 })
  assert.equal(statsTotals(STATS_1_18, 'missing'), null)
})

test('SHOW DATABASES and SHOW CONFIG: pool size and mode, an empty mode meaning the default', () => {
  assert.deepEqual(databasePool(DATABASES_1_18, 'postgres'), { poolSize: 2, poolMode: null })
  assert.deepEqual(databasePool(DATABASES_1_18, 'nope'), { poolSize: null, poolMode: null })
  assert.equal(configValue(CONFIG_1_18, 'pool_mode'), 'transaction')
  assert.equal(configValue(CONFIG_1_18, 'max_prepared_statements'), null)
})
