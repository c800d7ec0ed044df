// `init --force` replaces only the workload's own tables (pgload's or pgbench's): a same-named
// table of another shape survives, row and all, wherever the search_path finds it; an interrupted
// load leaves its tables marked incomplete and `run` refuses them.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { scratchDatabase } from '../helpers/scratch-database.js'
import { runCli } from '../helpers/cli.js'
import { openConnection } from '../../lib/db/connection.js'
import { initCommand } from '../../lib/cli/init.js'

const DB = `pgload_own_tables_${process.pid}`
const OUT = join(tmpdir(), `pgload-own-tables-${process.pid}.json`) // never written: the runs are refused
const PGBENCH = ['pgbench_accounts', 'pgbench_branches', 'pgbench_history', 'pgbench_tellers']
const TPCC = ['warehouse', 'district', 'customer', 'history', 'new_order', 'orders', 'order_line', 'item', 'stock', 'pgload_tpcc_meta']
const scratch = scratchDatabase(DB)
let conn
let url

// A stderr that looks like a terminal (so progress draws at each step's start) and can run a
// callback when a text shows up: the tests interrupt a load at a known point this way.
function sink (when) {
  const s = {
    text: '',
    isTTY: true,
    write (c) {
      s.text += c
      if (when && when.pattern.test(s.text)) { const f = when.then; when = null; f() }
    }
  }
  return s
}

async function init (workload, options, { when } = {}) {
  const stderr = sink(when)
  const result = await initCommand({ workload, url, env: {}, options, stderr, signal: when?.signal })
  return { ...result, stderr: stderr.text }
}

const rows = async (sql) => (await conn.simpleQuery(sql)).rows
const clean = () => conn.simpleQuery(`drop schema if exists postgres cascade; drop table if exists ${[...PGBENCH, ...TPCC].join(', ')} cascade; drop view if exists my_view`)

// What `pgbench -i` creates, by plain SQL: no pgload marker on it.
const PGBENCH_DDL = `
  create table pgbench_history(tid int,bid int,aid int,delta int,mtime timestamp,filler char(22));
  create table pgbench_tellers(tid int not null,bid int,tbalance int,filler char(84)) with (fillfactor=100);
  create table pgbench_accounts(aid int not null,bid int,abalance int,filler char(84)) with (fillfactor=100);
  create table pgbench_branches(bid int not null,bbalance int,filler char(88)) with (fillfactor=100);
  insert into pgbench_branches values (1, 0, null);
  insert into pgbench_accounts values (1, 1, 0, '');`

before(async () => {
  await scratch.create()
  url = scratch.url
  conn = await openConnection(scratch.target)
})

after(async () => {
  await conn?.close()
  await scratch.drop()
  rmSync(OUT, { force: true })
})

for (const schema of ['"$user"', 'public']) {
  test(`tpcb: --force refuses a foreign pgbench_accounts(id, note) in the ${schema} schema; table and row survive`, async () => {
    await clean()
    const where = schema === 'public' ? 'public' : 'postgres' // "$user" of the test server's superuser
    if (where === 'postgres') await conn.simpleQuery('create schema postgres')
    await conn.simpleQuery(`create table ${where}.pgbench_accounts (id int, note text); insert into ${where}.pgbench_accounts values (1, 'keep me')`)
    const r = await runCli(['init', 'tpcb', '--force', '--url', url])
    assert.equal(r.code, 1, r.stderr)
    assert.deepEqual(r.stderr.trim().split('\n').slice(-2), [
      `pgload: ${where}.pgbench_accounts is not a pgbench table (columns id, note); init --force replaces only pgload's and pgbench's own tables`,
      `hint: drop it yourself: DROP TABLE ${where}.pgbench_accounts`
    ])
    assert.deepEqual(await rows(`select id, note from ${where}.pgbench_accounts`), [['1', 'keep me']])
    assert.deepEqual(await rows("select count(*) from pg_class where relname like 'pgbench\\_%'"), [['1']], 'nothing created, nothing dropped')
  })
}

test('tpcb: the foreign table is refused even when the other three are pgbench\'s; nothing is half-dropped', async () => {
  await clean()
  await conn.simpleQuery(PGBENCH_DDL)
  await conn.simpleQuery('drop table pgbench_accounts; create table pgbench_accounts (id int, note text); insert into pgbench_accounts values (2, \'mine\')')
  await assert.rejects(init('tpcb', { force: true }), (err) => {
    assert.equal(err.code, 'FOREIGN_TABLE')
    assert.equal(err.exitCode, 1)
    assert.equal(err.message, 'public.pgbench_accounts is not a pgbench table (columns id, note); init --force replaces only pgload\'s and pgbench\'s own tables')
    return true
  })
  assert.deepEqual(await rows('select (select note from pgbench_accounts), (select count(*) from pgbench_branches), to_regclass(\'pgbench_tellers\') is not null'), [['mine', '1', 't']])
})

test('tpcb: pgbench\'s own tables, plain and partitioned as pgbench -i makes them, are replaced with --force', async () => {
  await clean()
  await conn.simpleQuery(PGBENCH_DDL)
  const r = await init('tpcb', { force: true })
  assert.equal(r.rows, 100011)
  assert.deepEqual(await rows('select count(*), sum(abalance) from pgbench_accounts'), [['100000', '0']])
  assert.deepEqual(await rows(`select relname, obj_description(oid, 'pg_class') from pg_class where relname in (${PGBENCH.map(t => `'${t}'`)}) order by 1`),
    PGBENCH.map(t => [t, 'pgload:tpcb']))

  // pgbench -i --partitions 2: pgbench_accounts is a partitioned table of the same columns
  await clean()
  await conn.simpleQuery(PGBENCH_DDL.replace('create table pgbench_accounts(aid int not null,bid int,abalance int,filler char(84)) with (fillfactor=100);',
    `create table pgbench_accounts(aid int not null,bid int,abalance int,filler char(84)) partition by range (aid);
     create table pgbench_accounts_1 partition of pgbench_accounts for values from (minvalue) to (50001) with (fillfactor=100);
     create table pgbench_accounts_2 partition of pgbench_accounts for values from (50001) to (maxvalue) with (fillfactor=100);`))
  await init('tpcb', { force: true })
  assert.deepEqual(await rows("select relkind, (select count(*) from pg_class where relname like 'pgbench\\_accounts\\__') from pg_class where relname = 'pgbench_accounts'"), [['r', '0']])
})

test('tpcb: a view of the user\'s on pgbench_accounts stops --force (no CASCADE); nothing is dropped', async () => {
  await clean()
  await conn.simpleQuery(PGBENCH_DDL + 'create view my_view as select aid from pgbench_accounts;')
  await assert.rejects(init('tpcb', { force: true }), (err) => {
    assert.equal(err.code, 'DEPENDENT_OBJECTS')
    assert.match(err.message, /^cannot replace public\.pgbench_accounts, .*: objects that are not the workload's depend on them \(view my_view depends on table pgbench_accounts\); nothing was dropped$/)
    return true
  })
  assert.deepEqual(await rows('select (select count(*) from my_view), (select count(*) from pgbench_branches)'), [['1', '1']])
})

test('tpcb: Ctrl-C during the load says what is left incomplete; run refuses until init --force', async () => {
  await clean()
  const controller = new AbortController()
  await assert.rejects(init('tpcb', { scale: 2 }, { when: { pattern: /generating pgbench_accounts/, then: () => controller.abort(), signal: controller.signal } }), (err) => {
    assert.equal(err.code, 'INTERRUPTED')
    assert.equal(err.exitCode, 130)
    assert.equal(err.message, 'init interrupted during client-side generate (generating pgbench_accounts): ' +
      'public.pgbench_accounts, public.pgbench_branches, public.pgbench_history, public.pgbench_tellers are left incomplete; run pgload init tpcb --force again')
    return true
  })
  assert.deepEqual(await rows('select count(*) from pgbench_accounts'), [['0']], 'the load\'s transaction was rolled back')

  const run = await runCli(['run', 'tpcb', '-T', '1s', '--no-server-stats', '--url', url, '-o', OUT])
  assert.equal(run.code, 1, run.stderr)
  assert.equal(run.stderr.trim().split('\n').pop(), 'pgload: the tpcb tables are incomplete (public.pgbench_accounts, public.pgbench_branches, ' +
    'public.pgbench_history, public.pgbench_tellers): an earlier pgload init tpcb did not finish; run `pgload init tpcb --scale N --force` again')

  await init('tpcb', { force: true })
  assert.deepEqual(await rows('select count(*) from pgbench_accounts'), [['100000']])
})

test('tpcb: SIGINT to the CLI during init exits 130 with one line', async () => {
  await clean()
  let sent = false
  const r = await runCli(['init', 'tpcb', '--scale', '20', '--url', url], {
    timeoutMs: 60_000,
    onSpawn (child) {
      let err = ''
      child.stderr.on('data', (d) => {
        err += d
        if (/generating data/.test(err) && !sent) { sent = true; child.kill('SIGINT') }
      })
    }
  })
  assert.equal(r.code, 130, r.stderr)
  assert.match(r.stderr.trim().split('\n').pop(), /^pgload: init interrupted during client-side generate( \(generating pgbench_\w+\))?: public\.pgbench_accounts, .* are left incomplete; run pgload init tpcb --force again$/)
  assert.deepEqual(await rows('select obj_description(\'pgbench_accounts\'::regclass, \'pg_class\')'), [['pgload:tpcb:incomplete']])
})

test('tpcc: a foreign warehouse is refused with --force; tpcc-shaped tables made without pgload are replaced', async () => {
  await clean()
  await conn.simpleQuery('create table warehouse (id int, note text); insert into warehouse values (1, \'keep me\')')
  await assert.rejects(init('tpcc', { warehouses: 1, force: true, check: false }), (err) => {
    assert.equal(err.code, 'FOREIGN_TABLE')
    assert.equal(err.message, 'public.warehouse is not a TPC-C table (columns id, note); init --force replaces only pgload\'s own TPC-C tables')
    assert.equal(err.hint, 'drop it yourself: DROP TABLE public.warehouse')
    return true
  })
  assert.deepEqual(await rows('select note from warehouse'), [['keep me']])

  await clean()
  await conn.simpleQuery(readFileSync(new URL('../../workloads/tpcc/schema.sql', import.meta.url), 'utf8'))
  await conn.simpleQuery('insert into item (i_id) values (1)')
  const r = await init('tpcc', { warehouses: 1, jobs: 2, force: true, check: false, vacuum: false, seed: '7' })
  assert.equal(r.steps[0].name, 'drop tables')
  assert.deepEqual(await rows('select count(*) from item'), [['100000']])
  assert.deepEqual(await rows(`select count(*) from pg_class where relname in (${TPCC.map(t => `'${t}'`)}) and obj_description(oid, 'pg_class') = 'pgload:tpcc'`), [['10']])
})

test('tpcc: an interrupted load is refused by run with one line', async () => {
  await clean()
  const controller = new AbortController()
  await assert.rejects(init('tpcc', { warehouses: 1, jobs: 2, seed: '7' }, { when: { pattern: /\ritem \[/, then: () => controller.abort(), signal: controller.signal } }), (err) => {
    assert.equal(err.code, 'INTERRUPTED')
    assert.match(err.message, /^init interrupted during loading item: public\.customer, .*public\.warehouse are left incomplete; run pgload init tpcc --force again$/)
    return true
  })
  const run = await runCli(['run', 'tpcc', '-T', '1s', '--no-wait', '--no-server-stats', '--url', url, '-o', OUT])
  assert.equal(run.code, 1, run.stderr)
  assert.match(run.stderr.trim().split('\n').pop(), /^pgload: the tpcc tables are incomplete \(public\.customer, .*\): an earlier pgload init tpcc did not finish; run `pgload init tpcc --warehouses N --force` again$/)
})
