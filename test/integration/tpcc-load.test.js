// Loads 1 then 2 TPC-C warehouses and checks every population rule of clause 4.3.3.1.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { getTestServer } from '../helpers/server.js'
import { openConnection } from '../../lib/db/connection.js'
import tpcc from '../../workloads/tpcc/index.js'
import { LAST_NAMES } from '../../workloads/tpcc/nurand.js'

let server
let conn
const SEED = 4242

before(async () => {
  server = await getTestServer()
  conn = await openConnection(server.target)
})
after(async () => { await conn?.close() })

const one = async (sql) => (await conn.query(sql)).rows[0]
const num = async (sql) => Number((await one(sql))[0])

/** Exact probabilities of NURand(255, C, 0, 999). */
function nurandLastNameProbabilities (C) {
  const p = new Float64Array(1000)
  for (let a = 0; a <= 255; a++) for (let b = 0; b <= 999; b++) p[((a | b) + C) % 1000] += 1 / (256 * 1000)
  return p
}

async function checkPopulation (W, result) {
  // Cardinalities (exact).
  assert.equal(await num('SELECT count(*) FROM item'), 100000)
  assert.equal(await num('SELECT count(*) FROM warehouse'), W)
  assert.equal(await num('SELECT count(*) FROM district'), 10 * W)
  assert.equal(await num('SELECT count(*) FROM customer'), 30000 * W)
  assert.equal(await num('SELECT count(*) FROM history'), 30000 * W)
  assert.equal(await num('SELECT count(*) FROM orders'), 30000 * W)
  assert.equal(await num('SELECT count(*) FROM new_order'), 9000 * W)
  assert.equal(await num('SELECT count(*) FROM stock'), 100000 * W)
  const olRows = await num('SELECT count(*) FROM order_line')
  assert.equal(olRows, await num('SELECT sum(o_ol_cnt) FROM orders'))
  assert.ok(Math.abs(olRows / (30000 * W) - 10) < 0.1, `mean lines per order ${olRows / (30000 * W)}`)
  assert.equal(result.rows, 100000 + W * (100000 + 1 + 10 + 60000 + 30000 + 9000) + olRows)

  // Per district and per warehouse.
  assert.deepEqual(await one('SELECT count(*) FILTER (WHERE d_next_o_id <> 3001 OR d_ytd <> 30000 OR d_tax NOT BETWEEN 0 AND 0.2), count(DISTINCT (d_w_id, d_id)) FROM district'), ['0', String(10 * W)])
  assert.equal(await num('SELECT count(*) FROM warehouse WHERE w_ytd <> 300000 OR w_tax NOT BETWEEN 0 AND 0.2 OR w_zip NOT LIKE \'____11111\''), 0)
  assert.equal(await num(`SELECT count(*) FROM (SELECT c_w_id, c_d_id FROM customer GROUP BY 1, 2
    HAVING count(*) <> 3000 OR min(c_id) <> 1 OR max(c_id) <> 3000) x`), 0)
  // O_C_ID is a permutation of 1..3000 per district; o_id 1..3000.
  assert.equal(await num(`SELECT count(*) FROM (SELECT o_w_id, o_d_id FROM orders GROUP BY 1, 2
    HAVING count(DISTINCT o_c_id) <> 3000 OR min(o_c_id) <> 1 OR max(o_c_id) <> 3000 OR min(o_id) <> 1 OR max(o_id) <> 3000) x`), 0)
  assert.equal(await num(`SELECT count(*) FROM (SELECT no_w_id, no_d_id FROM new_order GROUP BY 1, 2
    HAVING count(*) <> 900 OR min(no_o_id) <> 2101 OR max(no_o_id) <> 3000) x`), 0)
  // Delivered orders (o_id < 2101): carrier 1..10, lines delivered with amount 0; the rest undelivered.
  assert.equal(await num(`SELECT count(*) FROM orders WHERE o_ol_cnt NOT BETWEEN 5 AND 15 OR o_all_local <> 1
    OR (o_id < 2101 AND (o_carrier_id IS NULL OR o_carrier_id NOT BETWEEN 1 AND 10)) OR (o_id >= 2101 AND o_carrier_id IS NOT NULL)`), 0)
  assert.equal(await num(`SELECT count(*) FROM order_line WHERE ol_quantity <> 5 OR ol_supply_w_id <> ol_w_id OR ol_i_id NOT BETWEEN 1 AND 100000
    OR length(ol_dist_info) <> 24
    OR (ol_o_id < 2101 AND (ol_delivery_d IS NULL OR ol_amount <> 0))
    OR (ol_o_id >= 2101 AND (ol_delivery_d IS NOT NULL OR ol_amount NOT BETWEEN 0.01 AND 9999.99))`), 0)
  assert.deepEqual(await one('SELECT min(o_ol_cnt), max(o_ol_cnt) FROM orders'), ['5', '15'])

  // Customers.
  assert.equal(await num(`SELECT count(*) FROM customer WHERE c_middle <> 'OE' OR c_credit_lim <> 50000 OR c_balance <> -10
    OR c_ytd_payment <> 10 OR c_payment_cnt <> 1 OR c_delivery_cnt <> 0 OR c_discount NOT BETWEEN 0 AND 0.5
    OR length(c_data) NOT BETWEEN 300 AND 500 OR length(c_first) NOT BETWEEN 8 AND 16 OR length(c_phone) <> 16
    OR c_credit NOT IN ('GC', 'BC') OR c_zip NOT LIKE '____11111'`), 0)
  const bc = await num("SELECT avg((c_credit = 'BC')::int) FROM customer")
  assert.ok(Math.abs(bc - 0.10) < 0.01, `bad credit share ${bc}`)
  assert.equal(await num('SELECT count(*) FROM history WHERE h_amount <> 10 OR h_c_w_id <> h_w_id OR h_c_d_id <> h_d_id OR length(h_data) NOT BETWEEN 12 AND 24'), 0)

  // C_LAST: c_id 1..1000 from c_id - 1; the rest NURand(255, 0, 999) with the recorded C-Load.
  const names = (await conn.query('SELECT c_id, c_last FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_id <= 1000 ORDER BY c_id')).rows
  assert.equal(names.length, 1000)
  names.forEach(([id, last]) => assert.equal(last, LAST_NAMES[Number(id) - 1]))
  assert.equal(await num(`SELECT count(*) FROM customer WHERE c_last <> ALL ('{${LAST_NAMES.join(',')}}'::text[])`), 0)
  const meta = await one('SELECT warehouses, c_last_load, seed, rows, steps FROM pgload_tpcc_meta')
  assert.equal(Number(meta[0]), W)
  assert.equal(meta[2], String(SEED))
  assert.equal(Number(meta[3]), result.rows)
  assert.deepEqual(JSON.parse(meta[4]).map(s => s.name), result.steps.map(s => s.name), 'per-step times recorded')
  const cLoad = Number(meta[1])
  assert.equal(cLoad, result.cLoad)
  assert.ok(cLoad >= 0 && cLoad <= 255)
  const observed = new Float64Array(1000)
  const rows = (await conn.query('SELECT c_last, count(*) FROM customer WHERE c_id > 1000 GROUP BY c_last')).rows
  const index = new Map(LAST_NAMES.map((n, i) => [n, i]))
  let n = 0
  for (const [last, c] of rows) { observed[index.get(last)] = Number(c); n += Number(c) }
  const distance = (C) => { const p = nurandLastNameProbabilities(C); let d = 0; for (let i = 0; i < 1000; i++) d += Math.abs(observed[i] / n - p[i]); return d }
  const right = distance(cLoad)
  const wrong = Math.min(distance((cLoad + 37) % 256), distance((cLoad + 100) % 256))
  assert.ok(right < 0.25 && right < wrong / 2, `c_last distribution: distance ${right} with C-Load, ${wrong} with another C`)

  // Items and stock, with ~10 % ORIGINAL.
  assert.equal(await num(`SELECT count(*) FROM item WHERE i_im_id NOT BETWEEN 1 AND 10000 OR i_price NOT BETWEEN 1 AND 100
    OR length(i_name) NOT BETWEEN 14 AND 24 OR length(i_data) NOT BETWEEN 26 AND 50`), 0)
  assert.equal(await num(`SELECT count(*) FROM stock WHERE s_quantity NOT BETWEEN 10 AND 100 OR s_ytd <> 0 OR s_order_cnt <> 0
    OR s_remote_cnt <> 0 OR length(s_data) NOT BETWEEN 26 AND 50 OR length(s_dist_01) <> 24 OR length(s_dist_10) <> 24`), 0)
  for (const [table, col] of [['item', 'i_data'], ['stock', 's_data']]) {
    const share = await num(`SELECT avg((${col} LIKE '%ORIGINAL%')::int) FROM ${table}`)
    assert.ok(Math.abs(share - 0.10) < 0.01, `${table} ORIGINAL share ${share}`)
  }

  // Keys and the customer name index exist; consistency checks ran and passed.
  const idx = (await conn.query("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename IN ('warehouse','district','customer','new_order','orders','order_line','item','stock') ORDER BY 1")).rows.map(r => r[0])
  for (const name of ['customer_name_idx', 'customer_pkey', 'district_pkey', 'item_pkey', 'new_order_pkey', 'order_line_pkey', 'orders_pkey', 'stock_pkey', 'warehouse_pkey']) {
    assert.ok(idx.includes(name), `index ${name} missing`)
  }
  assert.equal(result.checks.length, 12)
  assert.ok(result.checks.every(c => c.pass && !c.skipped), JSON.stringify(result.checks.filter(c => !c.pass)))
  const verified = await tpcc.verify({ conn })
  assert.ok(verified.checks.every(c => c.pass && !c.skipped), 'verify after load: condition 11 applies, nothing delivered')
  assert.deepEqual(result.steps.filter(s => s.rows !== undefined).map(s => s.name), ['item', 'warehouse, district', 'stock', 'customer, history', 'orders, new_order, order_line'])
  assert.ok(result.steps.every(s => s.seconds >= 0))
  assert.ok(result.rowsPerS > 0)
}

// Warehouse 1's data without the load-time timestamps, to compare two loads.
const W1_DIGEST = `SELECT md5(string_agg(x, '|' ORDER BY x)) FROM (
  SELECT concat_ws(',', c_id, c_d_id, c_first, c_last, c_credit, c_discount, c_data) AS x FROM customer WHERE c_w_id = 1
  UNION ALL SELECT concat_ws(',', s_i_id, s_quantity, s_dist_05, s_data) FROM stock WHERE s_w_id = 1
  UNION ALL SELECT concat_ws(',', ol_d_id, ol_o_id, ol_number, ol_i_id, ol_amount, ol_dist_info) FROM order_line WHERE ol_w_id = 1
  UNION ALL SELECT concat_ws(',', o_d_id, o_id, o_c_id, o_carrier_id, o_ol_cnt) FROM orders WHERE o_w_id = 1) t`

test('1 warehouse, 1 job, --foreign-keys: every cardinality and distribution rule; refuses to reload without --force', async () => {
  await conn.query(`DROP TABLE IF EXISTS ${tpcc.tables.join(', ')}, pgload_tpcc_meta`)
  const result = await tpcc.init({ conn, target: server.target, openConnection }, { warehouses: 1, jobs: 1, seed: String(SEED), foreignKeys: true })
  assert.equal(result.warehouses, 1)
  await checkPopulation(1, result)
  assert.equal(await num("SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND conrelid::regclass::text IN ('district','customer','history','new_order','orders','order_line','stock')"), 10)
  assert.ok(result.steps.some(s => s.name === 'foreign keys'))
  assert.ok(result.steps.some(s => s.name === 'vacuum analyze'))
  assert.equal(await num("SELECT count(*) FROM pg_class WHERE relname IN ('stock', 'order_line', 'customer') AND relallvisible > 0"), 3, 'VACUUM set the visibility map')
  await assert.rejects(tpcc.init({ conn, target: server.target, openConnection }, { warehouses: 1, seed: '1' }),
    /TPC-C tables already exist \(.*warehouse.*\): use --force/)
})

test('2 warehouses, 3 jobs, --force: same rules; warehouse 1 identical to the 1-job load of the same seed', async () => {
  const before = (await one(W1_DIGEST))[0]
  const result = await tpcc.init({ conn, target: server.target, openConnection }, { warehouses: 2, jobs: 3, seed: String(SEED), force: true })
  assert.equal(result.warehouses, 2)
  assert.equal(result.steps[0].name, 'drop tables')
  await checkPopulation(2, result)
  assert.equal((await one(W1_DIGEST))[0], before, 'the data depend on the seed only, not on --jobs or --warehouses')
  assert.equal(await num('SELECT count(*) FROM pgload_tpcc_meta'), 1)
  assert.equal(await num("SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND conrelid::regclass::text = 'order_line'"), 0, '--force dropped the foreign keys with the tables')
})

test('bad init options are refused with the flag named', async () => {
  const ctx = { conn, target: server.target, openConnection }
  await assert.rejects(tpcc.init(ctx, { warehouses: 0 }), /--warehouses must be an integer in 1..100000, got 0/)
  await assert.rejects(tpcc.init(ctx, { warehouses: 1, jobs: 0 }), /--jobs must be an integer in 1..64/)
  await assert.rejects(tpcc.init(ctx, { warehouses: 1, seed: 'abc' }), /--seed must be a non-negative integer/)
})
