// Payment (clause 2.5): input generation and the transaction. Locks are taken district ->
// customer -> warehouse, so the hot warehouse row is held only for the last statement.

import { defineStatement } from '../../../lib/db/connection.js'
import { PgloadError } from '../../../lib/errors.js'
import { BEGIN, COMMIT, chooseCustomer, otherWarehouse, middleIndex, runs } from './common.js'

const DISTRICT = defineStatement(
  'UPDATE district SET d_ytd = d_ytd + $3 WHERE d_w_id = $1 AND d_id = $2 RETURNING d_name, d_street_1, d_street_2, d_city, d_state, d_zip')
const BY_NAME = defineStatement(
  'SELECT c_id FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_last = $3 ORDER BY c_first')
// Bad-credit customers get (C_ID, C_D_ID, C_W_ID, D_ID, W_ID, H_AMOUNT) prepended to C_DATA,
// kept to 500 characters (clause 2.5.2.2).
const CUSTOMER = defineStatement(`UPDATE customer SET c_balance = c_balance - $4, c_ytd_payment = c_ytd_payment + $4,
  c_payment_cnt = c_payment_cnt + 1,
  c_data = CASE WHEN c_credit = 'BC' THEN left(concat_ws(' ', c_id, c_d_id, c_w_id, $5::int, $6::int, $4::numeric) || ' ' || c_data, 500) ELSE c_data END
  WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3
  RETURNING c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit,
    c_credit_lim, c_discount, c_balance, CASE WHEN c_credit = 'BC' THEN left(c_data, 200) END`)
const WAREHOUSE_HISTORY = defineStatement(`WITH w AS (
    UPDATE warehouse SET w_ytd = w_ytd + $1 WHERE w_id = $2 RETURNING w_name, w_street_1, w_street_2, w_city, w_state, w_zip
  ), h AS (
    INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
    SELECT $3, $4, $5, $6, $2, now(), $1, w.w_name || '    ' || $7 FROM w
  )
  SELECT * FROM w`)

export const statements = [DISTRICT, BY_NAME, CUSTOMER, WAREHOUSE_HISTORY]

/**
 * Input of one Payment (clause 2.5.1): D_ID uniform [1..10]; the customer's warehouse is the
 * home one 85 % of the time, else a remote one (with a random district); customer by last name
 * 60 %; H_AMOUNT uniform [1.00..5000.00].
 * @param {import('./common.js').Random} random
 * @param {import('./common.js').TerminalState} state
 * @param {import('./common.js').Shared} shared
 */
export function paymentInput (random, state, shared) {
  const w = state.w
  const d = random.int(1, 10)
  let cW = w
  let cD = d
  if (random.int(1, 100) > 85) {
    cD = random.int(1, 10)
    cW = otherWarehouse(random, w, shared.warehouses)
  }
  const out = { w, d, cW, cD, byName: false, cLast: null, cId: 0, amountCents: 0 }
  chooseCustomer(random, shared, out)
  out.amountCents = random.int(100, 500000)
  return out
}

/**
 * Run one Payment on ctx.conn.
 * @param {object} ctx the engine's transaction context
 * @param {import('./common.js').Shared} shared
 */
export async function runPayment (ctx, shared) {
  const conn = ctx.conn
  const inp = paymentInput(ctx.random, ctx.state, shared)
  const amount = (inp.amountCents / 100).toFixed(2)
  runs(ctx, BEGIN)
  await conn.execute(BEGIN)
  runs(ctx, DISTRICT)
  const dist = (await conn.execute(DISTRICT, [inp.w, inp.d, amount])).rows[0]
  let cId = inp.cId
  if (inp.byName) {
    runs(ctx, BY_NAME)
    const rows = (await conn.execute(BY_NAME, [inp.cW, inp.cD, inp.cLast])).rows
    if (rows.length === 0) throw new PgloadError(`payment: no customer named ${inp.cLast} in warehouse ${inp.cW} district ${inp.cD}`, { code: 'TPCC_DATA' })
    cId = rows[middleIndex(rows.length)][0]
  }
  runs(ctx, CUSTOMER)
  await conn.execute(CUSTOMER, [inp.cW, inp.cD, cId, amount, inp.d, inp.w])
  runs(ctx, WAREHOUSE_HISTORY)
  await conn.execute(WAREHOUSE_HISTORY, [amount, inp.w, cId, inp.cD, inp.cW, inp.d, dist[0]])
  runs(ctx, COMMIT)
  await conn.execute(COMMIT)
  return undefined
}
