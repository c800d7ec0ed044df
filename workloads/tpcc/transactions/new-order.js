// New-Order (clause 2.4): input generation and the transaction. 1 % of orders carry an unused
// item number on their last line and roll back: an expected rollback.

import { defineStatement } from '../../../lib/db/connection.js'
import { NURAND_A, nurand } from '../nurand.js'
import { BEGIN, COMMIT, ROLLBACK, otherWarehouse, toCents, fromCents, runs } from './common.js'

/** An item id that is never loaded (clause 2.4.1.5: "unused value"). */
export const UNUSED_ITEM = 100001

const CUSTOMER = defineStatement(
  'SELECT c_discount, c_last, c_credit, w_tax FROM customer JOIN warehouse ON w_id = c_w_id WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3')
const DISTRICT = defineStatement(
  'UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = $1 AND d_id = $2 RETURNING d_next_o_id - 1, d_tax')
const ITEMS = defineStatement('SELECT i_id, i_price, i_name, i_data FROM item WHERE i_id = ANY($1::int[])')
const ORDER = defineStatement(`WITH o AS (INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
  VALUES ($1, $2, $3, $4, now(), NULL, $5, $6))
  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES ($1, $2, $3)`)
// One statement per district: the S_DIST_xx column is the order's district (clause 2.4.2.2).
const STOCK = Array.from({ length: 11 }, (_, d) => d === 0
  ? null
  : defineStatement(`UPDATE stock SET s_quantity = CASE WHEN s_quantity >= $3::int + 10 THEN s_quantity - $3::int ELSE s_quantity - $3::int + 91 END,
  s_ytd = s_ytd + $3::int, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + $4::int
  WHERE s_i_id = $1 AND s_w_id = $2 RETURNING s_quantity, s_data, s_dist_${String(d).padStart(2, '0')}`))
const LINES = defineStatement(`INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
  SELECT $1, $2, $3, n, i, s, NULL, q, a, di
  FROM unnest($4::int[], $5::int[], $6::int[], $7::int[], $8::numeric[], $9::text[]) AS l (n, i, s, q, a, di)`)

export const statements = [CUSTOMER, DISTRICT, ITEMS, ORDER, LINES, ...STOCK.slice(1)]

/**
 * Input of one New-Order (clause 2.4.1): D_ID uniform [1..10] of the home warehouse,
 * C_ID NURand(1023, 1, 3000), 5..15 lines with OL_I_ID NURand(8191, 1, 100000), a remote
 * supply warehouse for 1 % of lines, quantity [1..10]; 1 % roll back (unused item on the last line).
 * @param {import('./common.js').Random} random
 * @param {import('./common.js').TerminalState} state
 * @param {import('./common.js').Shared} shared
 */
export function newOrderInput (random, state, shared) {
  const w = state.w
  const d = random.int(1, 10)
  const cId = nurand(random, NURAND_A.cId, shared.c.cId, 1, 3000)
  const olCnt = random.int(5, 15)
  const rollback = random.int(1, 100) === 1
  const lines = new Array(olCnt)
  let allLocal = 1
  for (let n = 0; n < olCnt; n++) {
    const iId = rollback && n === olCnt - 1 ? UNUSED_ITEM : nurand(random, NURAND_A.olIId, shared.c.olIId, 1, 100000)
    const supplyW = random.int(1, 100) === 1 ? otherWarehouse(random, w, shared.warehouses) : w
    if (supplyW !== w) allLocal = 0
    lines[n] = { number: n + 1, iId, supplyW, quantity: random.int(1, 10) }
  }
  return { w, d, cId, olCnt, rollback, allLocal, lines }
}

const byStockKey = (a, b) => a.supplyW - b.supplyW || a.iId - b.iId

/**
 * Run one New-Order on ctx.conn.
 * @param {object} ctx the engine's transaction context
 * @param {import('./common.js').Shared} shared
 * @returns {Promise<undefined|'rollback'>}
 */
export async function runNewOrder (ctx, shared) {
  const conn = ctx.conn
  const inp = newOrderInput(ctx.random, ctx.state, shared)
  const { w, d, lines } = inp
  runs(ctx, BEGIN)
  await conn.execute(BEGIN)
  runs(ctx, CUSTOMER)
  const cust = (await conn.execute(CUSTOMER, [w, d, inp.cId])).rows[0]
  runs(ctx, DISTRICT)
  const dist = (await conn.execute(DISTRICT, [w, d])).rows[0]
  const oId = dist[0]
  const ids = lines.map(l => l.iId)
  runs(ctx, ITEMS)
  const items = (await conn.execute(ITEMS, ['{' + ids.join(',') + '}'])).rows
  const byId = new Map()
  for (const row of items) byId.set(Number(row[0]), row)
  if (lines.some(l => !byId.has(l.iId))) {
    // "Item number is not valid": the whole transaction rolls back (clause 2.4.2.3).
    runs(ctx, ROLLBACK)
    await conn.execute(ROLLBACK)
    return 'rollback'
  }
  runs(ctx, ORDER)
  await conn.execute(ORDER, [oId, d, w, inp.cId, inp.olCnt, inp.allLocal])
  // Stock rows in (warehouse, item) order, so that concurrent New-Orders cannot deadlock.
  const sorted = lines.slice().sort(byStockKey)
  const distInfo = new Array(lines.length)
  let totalCents = 0
  const amounts = new Array(lines.length)
  for (const l of sorted) {
    runs(ctx, STOCK[d])
    const s = (await conn.execute(STOCK[d], [l.iId, l.supplyW, l.quantity, l.supplyW === w ? 0 : 1])).rows[0]
    distInfo[l.number - 1] = s[2]
    const amount = l.quantity * toCents(byId.get(l.iId)[1])
    amounts[l.number - 1] = fromCents(amount)
    totalCents += amount
  }
  runs(ctx, LINES)
  await conn.execute(LINES, [oId, d, w,
    '{' + lines.map(l => l.number).join(',') + '}',
    '{' + ids.join(',') + '}',
    '{' + lines.map(l => l.supplyW).join(',') + '}',
    '{' + lines.map(l => l.quantity).join(',') + '}',
    '{' + amounts.join(',') + '}',
    '{' + distInfo.join(',') + '}'])
  runs(ctx, COMMIT)
  await conn.execute(COMMIT)
  shared.orders?.add(w, d, Number(oId))
  // The terminal's output (clause 2.4.3.3): total = sum(OL_AMOUNT) * (1 - C_DISCOUNT) * (1 + W_TAX + D_TAX).
  ctx.state.lastTotal = totalCents / 100 * (1 - Number(cust[0])) * (1 + Number(cust[3]) + Number(dist[1]))
  return undefined
}
