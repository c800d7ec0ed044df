// `init chbench`: TPC-C's tables plus supplier, nation and region, loaded or added; the 22 queries
// run on them; another shape's table of the same name is never dropped.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { scratchDatabase } from '../helpers/scratch-database.js'
import { openConnection } from '../../lib/db/connection.js'
import { initCommand } from '../../lib/cli/init.js'
import { CH_QUERIES } from '../../workloads/chbench/queries.js'

const db = scratchDatabase(`pgload_chbench_${process.pid}`)
let conn
const quiet = { write () {} }

before(async () => {
  await db.create()
  conn = await openConnection(db.target)
})
after(async () => {
  await conn?.close()
  await db.drop()
})

const count = async (table) => Number((await conn.query(`select count(*) from ${table}`)).rows[0][0])
const init = (options) => initCommand({ workload: 'chbench', url: db.url, options, stderr: quiet })

test('a user table named supplier stops init before anything is loaded or dropped', async () => {
  await conn.query('create table supplier (id int primary key, note text)')
  await conn.query("insert into supplier values (1, 'mine')")
  await assert.rejects(init({ warehouses: 1, seed: '7', force: true }), (err) => err.code === 'FOREIGN_TABLE' && /supplier/.test(err.message))
  assert.equal(await count('supplier'), 1)
  assert.equal((await conn.query("select to_regclass('warehouse') is null")).rows[0][0], 't')
  await conn.query('drop table supplier')
})

test('loads the TPC-C tables and the three, and every query runs on them', async () => {
  const result = await init({ warehouses: 1, seed: '7' })
  assert.equal(result.warehouses, 1)
  assert.equal(await count('warehouse'), 1)
  assert.equal(await count('region'), 5)
  assert.equal(await count('nation'), 62)
  assert.equal(await count('supplier'), 10000)
  // every stock row has its supplier, and every customer's state a nation
  assert.equal(Number((await conn.query('select count(*) from stock s left join supplier su on su.su_suppkey = mod(s.s_w_id * s.s_i_id, 10000) where su.su_suppkey is null')).rows[0][0]), 0)
  assert.equal(Number((await conn.query('select count(*) from customer c left join nation n on n.n_nationkey = ascii(substr(c.c_state, 1, 1)) where n.n_nationkey is null')).rows[0][0]), 0)
  const returned = {}
  for (const q of CH_QUERIES) returned[q.name] = (await conn.query(q.sql)).rows.length
  // queries whose answer the initial population fixes: one row per order line number, one sum, ...
  assert.equal(returned.q1, 15)
  assert.equal(returned.q6, 1)
  assert.equal(returned.q14, 1)
  assert.ok(returned.q2 > 0 && returned.q5 > 0 && returned.q12 > 0, JSON.stringify(returned))
})

test('on TPC-C tables already loaded: the three are kept unless --force, and another size is refused', async () => {
  await assert.rejects(init({}), (err) => err.code === 'TABLES_EXIST')
  await conn.query('drop table supplier, nation, region')
  await assert.rejects(init({ warehouses: 2 }), (err) => err.code === 'BAD_OPTION' && /1 warehouse, not 2/.test(err.message))
  const before = Number((await conn.query('select sum(d_next_o_id) from district')).rows[0][0])
  await conn.query('update district set d_next_o_id = d_next_o_id + 1 where d_id = 1')
  const added = await init({})
  assert.equal(added.tpccLoaded, false)
  assert.equal(await count('supplier'), 10000)
  // the TPC-C tables were left as they were
  assert.equal(Number((await conn.query('select sum(d_next_o_id) from district')).rows[0][0]), before + 1)
  // the same load seed gives the same suppliers
  const digest = async () => (await conn.query('select md5(string_agg(su_name || su_address || su_acctbal, \',\' order by su_suppkey)) from supplier')).rows[0][0]
  const first = await digest()
  await conn.query('drop table supplier, nation, region')
  await init({})
  assert.equal(await digest(), first)
})
