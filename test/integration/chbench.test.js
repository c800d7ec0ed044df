// `init chbench`: TPC-C's tables plus supplier, nation and region, loaded or added; the 22 queries
// run on them; another shape's table of the same name is never dropped. `run chbench`: TPC-C's
// terminals and the analytic streams in one run, each query a transaction type.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { scratchDatabase } from '../helpers/scratch-database.js'
import { openConnection } from '../../lib/db/connection.js'
import { initCommand } from '../../lib/cli/init.js'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CH_QUERIES } from '../../workloads/chbench/queries.js'
import { runCli } from '../helpers/cli.js'
import { readResults } from '../../lib/results/read.js'

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

test('run chbench: the streams run the 22 queries beside TPC-C, counted apart from its figures', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pgload-chbench-'))
  try {
    const out = join(dir, 'ch.json')
    const r = await runCli(['run', 'chbench', '--url', db.url, '--no-wait', '-T', '6', '--streams', '2', '--connections', '6', '-o', out])
    assert.equal(r.code, 0, r.stderr)
    const doc = await readResults(out)
    const names = CH_QUERIES.map((q) => q.name)
    for (const name of ['new-order', 'payment', ...names]) assert.ok(doc.transactions[name], name)
    const queries = names.reduce((n, q) => n + doc.transactions[q].count, 0)
    assert.equal(doc.chbench.queries, queries)
    assert.ok(queries > 0)
    assert.equal(doc.chbench.streams, 2)
    // TPC-C's figures count its five types only
    const tpccCount = ['new-order', 'payment', 'order-status', 'delivery', 'stock-level'].reduce((n, t) => n + doc.transactions[t].count, 0)
    assert.ok(Math.abs(doc.tpcc.tpmTotal - tpccCount * 60 / doc.run.durationS) < 0.01)
    assert.deepEqual(Object.keys(doc.tpcc.mix).sort(), ['delivery', 'new-order', 'order-status', 'payment', 'stock-level'])
    // rows returned by the queries that ran
    for (const name of names) if (doc.transactions[name].count > 0) assert.ok(doc.chbench.perQuery[name].count === doc.transactions[name].count)
    assert.match(r.stdout, /CH-benCHmark: 2 analytic streams beside the TPC-C terminals/)
    assert.match(r.stdout, /queries per hour = /)
    assert.doesNotMatch(r.stdout.split('\n').filter((l) => /^q\d+ +-/.test(l)).join('\n'), /q1/, 'no query rows in the TPC-C type table')
    // the report renders it
    const rep = await runCli(['report', out, '-o', join(dir, 'ch.html')])
    assert.equal(rep.code, 0, rep.stderr)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('the answers: two runs on data that holds still agree on all 22; an altered order line changes q6\'s and compare says so', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pgload-chbench-'))
  try {
    // one stream, one set of the 22 queries each run, no TPC-C terminal writing under them
    const runOnce = async (name) => {
      const out = join(dir, `${name}.json`)
      const r = await runCli(['run', 'chbench', '--url', db.url, '--no-tpcc', '--streams', '1', '-t', '22', '--no-wait-sampling', '-o', out])
      assert.equal(r.code, 0, r.stderr)
      assert.match(r.stdout, /^answers checked: 22 queries on data that held still$/m)
      return { out, answers: (await readResults(out)).chbench.perQuery }
    }
    const first = await runOnce('a1')
    const second = await runOnce('a2')
    for (const q of CH_QUERIES) {
      const a = first.answers[q.name].answer
      assert.deepEqual(a, { checksum: second.answers[q.name].answer.checksum, agreed: 1, differing: [], checked: true }, q.name)
    }
    const same = await runCli(['compare', first.out, second.out, '--force'])
    assert.doesNotMatch(same.stdout, /answer changed/)
    await conn.query('update order_line set ol_amount = ol_amount + 1000 where ol_w_id = 1 and ol_d_id = 1 and ol_o_id = 1 and ol_number = 1')
    const altered = await runOnce('b')
    assert.notEqual(altered.answers.q6.answer.checksum, first.answers.q6.answer.checksum)
    // queries that read no order line keep their answers
    for (const q of ['q2', 'q11', 'q16']) assert.equal(altered.answers[q].answer.checksum, first.answers[q].answer.checksum, q)
    const changed = await runCli(['compare', first.out, altered.out, '--force'])
    assert.match(changed.stdout, new RegExp(`^answer changed: q6 \\(checksum A ${first.answers.q6.answer.checksum}, B ${altered.answers.q6.answer.checksum}\\)`, 'm'))
    assert.doesNotMatch(changed.stdout, /^answer changed: q16 /m)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('run chbench refuses -j, a negative --streams, an unknown query and nothing to run before connecting', async () => {
  const j = await runCli(['run', 'chbench', '--url', 'postgres://127.0.0.1:1/x', '-j', '2'])
  assert.equal(j.code, 1)
  assert.match(j.stderr, /^pgload: -j 2 does not apply to chbench/m)
  const s = await runCli(['run', 'chbench', '--url', 'postgres://127.0.0.1:1/x', '--streams', '-1'])
  assert.equal(s.code, 1)
  assert.match(s.stderr, /--streams must be an integer in 0\.\.1000/)
  const q = await runCli(['run', 'chbench', '--url', 'postgres://127.0.0.1:1/x', '--queries', 'q16,q23'])
  assert.equal(q.code, 1)
  assert.match(q.stderr, /^pgload: --queries must be a list of q1 \.\.\. q22, got "q16,q23"$/m)
  const none = await runCli(['run', 'chbench', '--url', 'postgres://127.0.0.1:1/x', '--no-tpcc', '--streams', '0'])
  assert.equal(none.code, 1)
  assert.match(none.stderr, /^pgload: --no-tpcc with --streams 0 leaves nothing to run$/m)
})
