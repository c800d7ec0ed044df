// `pgload init tpcb`: pgbench's exact schema and rows, refusal without --force, --force drops
// only pgbench_* tables, and pgbench itself runs on the loaded tables.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { getTestServer } from '../helpers/server.js'
import { openConnection } from '../../lib/db/connection.js'
import { initCommand } from '../../lib/cli/init.js'
import { PgloadError } from '../../lib/errors.js'

const DB = `pgload_tpcb_init_${process.pid}`
const REF_DB = `pgload_tpcb_ref_${process.pid}`
let server
let admin
let conn

const havePgbench = spawnSync('pgbench', ['--version']).status === 0

function urlFor (db) {
  const c = server.target.config
  return `postgres://${encodeURIComponent(c.user)}:${encodeURIComponent(c.password ?? '')}@${c.host}:${c.port}/${db}`
}

function targetFor (db) {
  return { ...server.target, config: { ...server.target.config, database: db } }
}

function sink () {
  const s = { text: '', write (c) { s.text += c } }
  return s
}

async function init (options, db = DB) {
  const stderr = sink()
  const result = await initCommand({ workload: 'tpcb', url: urlFor(db), env: {}, options, stderr })
  return { ...result, stderr: stderr.text }
}

async function rows (sql) {
  return (await conn.simpleQuery(sql)).rows
}

function pgEnv (db) {
  const c = server.target.config
  return { ...process.env, PGHOST: c.host, PGPORT: String(c.port), PGUSER: c.user, PGPASSWORD: c.password ?? '', PGDATABASE: db }
}

before(async () => {
  server = await getTestServer()
  admin = await openConnection(server.target)
  await admin.simpleQuery(`drop database if exists ${DB}`)
  await admin.simpleQuery(`create database ${DB}`)
  conn = await openConnection(targetFor(DB))
})

after(async () => {
  await conn?.close()
  await admin?.simpleQuery(`drop database if exists ${DB}`)
  await admin?.simpleQuery(`drop database if exists ${REF_DB}`)
  await admin?.close()
})

const FOUR = "('pgbench_accounts', 'pgbench_branches', 'pgbench_history', 'pgbench_tellers')"

// pgbench -i's schema (reference/pgbench.md section 2.2), as the catalog shows it.
const SCHEMA_SQL = `
  select table_name, column_name, data_type, character_maximum_length, is_nullable
  from information_schema.columns
  where table_schema = current_schema() and table_name in ${FOUR}
  order by table_name, ordinal_position`
const EXPECTED_COLUMNS = [
  ['pgbench_accounts', 'aid', 'integer', null, 'NO'],
  ['pgbench_accounts', 'bid', 'integer', null, 'YES'],
  ['pgbench_accounts', 'abalance', 'integer', null, 'YES'],
  ['pgbench_accounts', 'filler', 'character', '84', 'YES'],
  ['pgbench_branches', 'bid', 'integer', null, 'NO'],
  ['pgbench_branches', 'bbalance', 'integer', null, 'YES'],
  ['pgbench_branches', 'filler', 'character', '88', 'YES'],
  ['pgbench_history', 'tid', 'integer', null, 'YES'],
  ['pgbench_history', 'bid', 'integer', null, 'YES'],
  ['pgbench_history', 'aid', 'integer', null, 'YES'],
  ['pgbench_history', 'delta', 'integer', null, 'YES'],
  ['pgbench_history', 'mtime', 'timestamp without time zone', null, 'YES'],
  ['pgbench_history', 'filler', 'character', '22', 'YES'],
  ['pgbench_tellers', 'tid', 'integer', null, 'NO'],
  ['pgbench_tellers', 'bid', 'integer', null, 'YES'],
  ['pgbench_tellers', 'tbalance', 'integer', null, 'YES'],
  ['pgbench_tellers', 'filler', 'character', '84', 'YES']
]
const RELOPTIONS_SQL = `
  select c.relname, c.relpersistence, coalesce(array_to_string(c.reloptions, ','), '')
  from pg_class c where c.relname in ${FOUR} and c.relkind = 'r' order by 1`
const CONSTRAINTS_SQL = `
  select conrelid::regclass::text, conname, contype, pg_get_constraintdef(oid)
  from pg_constraint where conrelid::regclass::text in ${FOUR} and contype in ('p', 'f') order by 1, 2`
const COUNTS_SQL = `
  select (select count(*) from pgbench_branches), (select count(*) from pgbench_tellers),
         (select count(*) from pgbench_accounts), (select count(*) from pgbench_history)`

test('scale 1: pgbench\'s columns, fillfactor option, primary keys, rows and contents', async () => {
  const r = await init({ scale: 1 })
  assert.equal(r.rows, 100011)
  assert.deepEqual(r.steps.map(s => s.name), ['drop tables', 'create tables', 'client-side generate', 'vacuum', 'primary keys'])
  assert.match(r.stderr, /^done in \d+\.\d\d s \(drop tables \d+\.\d\d s, create tables \d+\.\d\d s, client-side generate \d+\.\d\d s, vacuum \d+\.\d\d s, primary keys \d+\.\d\d s\)\.$/m)
  assert.match(r.stderr, /generating pgbench_accounts: 100000 rows done/)

  assert.deepEqual(await rows(COUNTS_SQL), [['1', '10', '100000', '0']])
  assert.deepEqual(await rows(SCHEMA_SQL), EXPECTED_COLUMNS)
  assert.deepEqual(await rows(RELOPTIONS_SQL), [
    ['pgbench_accounts', 'p', 'fillfactor=100'],
    ['pgbench_branches', 'p', 'fillfactor=100'],
    ['pgbench_history', 'p', ''],
    ['pgbench_tellers', 'p', 'fillfactor=100']
  ])
  assert.deepEqual(await rows(CONSTRAINTS_SQL), [
    ['pgbench_accounts', 'pgbench_accounts_pkey', 'p', 'PRIMARY KEY (aid)'],
    ['pgbench_branches', 'pgbench_branches_pkey', 'p', 'PRIMARY KEY (bid)'],
    ['pgbench_tellers', 'pgbench_tellers_pkey', 'p', 'PRIMARY KEY (tid)']
  ])
  // contents as pgbench writes them: balances 0, bid from the id, filler '' (accounts) or NULL
  assert.deepEqual(await rows('select bid, bbalance, filler is null from pgbench_branches'), [['1', '0', 't']])
  assert.deepEqual(await rows('select count(*), min(tid), max(tid), sum(tbalance), bool_and(bid = (tid - 1) / 10 + 1), bool_and(filler is null) from pgbench_tellers'),
    [['10', '1', '10', '0', 't', 't']])
  assert.deepEqual(await rows('select min(aid), max(aid), sum(abalance), bool_and(bid = 1), bool_and(filler = \'\'), min(octet_length(filler)) from pgbench_accounts'),
    [['1', '100000', '0', 't', 't', '84']])
  // vacuum analyze ran: statistics exist
  assert.deepEqual(await rows(`select count(*) from pg_stat_user_tables where relname in ${FOUR} and last_vacuum is not null and last_analyze is not null`), [['4']])
})

test('refuses existing tables without --force; --force drops only the pgbench_* tables', async () => {
  await conn.simpleQuery('create table if not exists keep_me (x int); insert into keep_me values (1)')
  await conn.simpleQuery('create table if not exists pgbench_notes (x int); insert into pgbench_notes values (2)')
  await conn.simpleQuery('insert into pgbench_history (tid, bid, aid, delta, mtime) values (1, 1, 1, 5, now())')

  await assert.rejects(init({ scale: 1 }), (err) => {
    assert.ok(err instanceof PgloadError)
    assert.equal(err.exitCode, 1)
    assert.match(err.message, /^tables already exist: pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers/)
    assert.match(err.hint, /--force/)
    return true
  })
  assert.deepEqual(await rows('select count(*) from pgbench_history'), [['1']], 'nothing was touched')

  const r = await init({ scale: 2, force: true })
  assert.equal(r.rows, 200022)
  assert.deepEqual(await rows(COUNTS_SQL), [['2', '20', '200000', '0']])
  assert.deepEqual(await rows('select bid, count(*) from pgbench_accounts group by bid order by bid'), [['1', '100000'], ['2', '100000']])
  assert.deepEqual(await rows('select bid, count(*) from pgbench_tellers group by bid order by bid'), [['1', '10'], ['2', '10']])
  assert.deepEqual(await rows('select (select x from keep_me), (select x from pgbench_notes)'), [['1', '2']])
  assert.deepEqual(await rows(SCHEMA_SQL.replace("like 'pgbench\\\\_%'", "in ('pgbench_accounts', 'pgbench_branches', 'pgbench_history', 'pgbench_tellers')")), EXPECTED_COLUMNS)
  await conn.simpleQuery('drop table keep_me, pgbench_notes')
})

test('options: --fillfactor, --unlogged-tables, --foreign-keys, --no-vacuum; bad values name the flag', async () => {
  const r = await init({ scale: 1, force: true, fillfactor: 80, unloggedTables: true, foreignKeys: true, vacuum: false })
  assert.deepEqual(r.steps.map(s => s.name), ['drop tables', 'create tables', 'client-side generate', 'primary keys', 'foreign keys'])
  assert.deepEqual(await rows(RELOPTIONS_SQL), [
    ['pgbench_accounts', 'u', 'fillfactor=80'],
    ['pgbench_branches', 'u', 'fillfactor=80'],
    ['pgbench_history', 'u', ''],
    ['pgbench_tellers', 'u', 'fillfactor=80']
  ])
  const fks = (await rows(CONSTRAINTS_SQL)).filter(r => r[2] === 'f').map(r => r[1])
  assert.deepEqual(fks, ['pgbench_accounts_bid_fkey', 'pgbench_history_aid_fkey', 'pgbench_history_bid_fkey', 'pgbench_history_tid_fkey', 'pgbench_tellers_bid_fkey'])

  await assert.rejects(init({ scale: 0, force: true }), /^PgloadError: --scale must be an integer in 1..2147483647, got 0$/)
  await assert.rejects(init({ scale: 1, fillfactor: 5, force: true }), /--fillfactor must be an integer in 10\.\.100, got 5$/)
  await assert.rejects(initCommand({ workload: 'tpcz', url: urlFor(DB), env: {}, stderr: sink() }), /^PgloadError: unknown workload "tpcz": valid workloads are tpcb, tpcc, chbench$/)
})

test('same schema as pgbench -i, and pgbench -n -t 10 runs on pgload\'s tables', { skip: havePgbench ? false : 'pgbench is not on PATH' }, async () => {
  await init({ scale: 1, force: true })
  const out = spawnSync('pgbench', ['-n', '-t', '10', '-c', '1'], { env: pgEnv(DB), encoding: 'utf8', timeout: 60000 })
  assert.equal(out.status, 0, out.stderr)
  assert.match(out.stdout, /number of transactions actually processed: 10\/10/)
  assert.match(out.stdout, /scaling factor: 1/)
  assert.deepEqual(await rows('select count(*) from pgbench_history'), [['10']])

  // pgbench's own init in another database: identical catalog picture
  await admin.simpleQuery(`drop database if exists ${REF_DB}`)
  await admin.simpleQuery(`create database ${REF_DB}`)
  const ref = spawnSync('pgbench', ['-i', '-q', '-s', '1'], { env: pgEnv(REF_DB), encoding: 'utf8', timeout: 60000 })
  assert.equal(ref.status, 0, ref.stderr)
  const refConn = await openConnection(targetFor(REF_DB))
  try {
    await conn.simpleQuery('truncate pgbench_history')
    for (const sql of [SCHEMA_SQL, RELOPTIONS_SQL, CONSTRAINTS_SQL, COUNTS_SQL]) {
      assert.deepEqual((await conn.simpleQuery(sql)).rows, (await refConn.simpleQuery(sql)).rows, sql)
    }
  } finally {
    await refConn.close()
  }
})
