// Order-Status (clause 2.6): a read-only transaction at REPEATABLE READ, so that the customer,
// the last order and its lines come from one snapshot.

import { defineStatement } from '../../../lib/db/connection.js'
import { PgloadError } from '../../../lib/errors.js'
import { BEGIN_READ_ONLY, COMMIT, chooseCustomer, middleIndex, runs } from './common.js'

const BY_NAME = defineStatement(
  'SELECT c_id, c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_last = $3 ORDER BY c_first')
const BY_ID = defineStatement(
  'SELECT c_id, c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3')
const LAST_ORDER = defineStatement(
  'SELECT o_id, o_entry_d, o_carrier_id FROM orders WHERE o_w_id = $1 AND o_d_id = $2 AND o_c_id = $3 ORDER BY o_id DESC LIMIT 1')
const LINES = defineStatement(
  'SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3')

export const statements = [BY_NAME, BY_ID, LAST_ORDER, LINES]

/**
 * Input of one Order-Status (clause 2.6.1): D_ID uniform [1..10] of the home warehouse,
 * customer by last name 60 %, else by C_ID.
 * @param {import('./common.js').Random} random
 * @param {import('./common.js').TerminalState} state
 * @param {import('./common.js').Shared} shared
 */
export function orderStatusInput (random, state, shared) {
  const out = { w: state.w, d: random.int(1, 10), byName: false, cLast: null, cId: 0 }
  return chooseCustomer(random, shared, out)
}

/**
 * Run one Order-Status on ctx.conn.
 * @param {object} ctx the engine's transaction context
 * @param {import('./common.js').Shared} shared
 */
export async function runOrderStatus (ctx, shared) {
  const conn = ctx.conn
  const inp = orderStatusInput(ctx.random, ctx.state, shared)
  runs(ctx, BEGIN_READ_ONLY)
  await conn.execute(BEGIN_READ_ONLY)
  let customer
  if (inp.byName) {
    runs(ctx, BY_NAME)
    const rows = (await conn.execute(BY_NAME, [inp.w, inp.d, inp.cLast])).rows
    if (rows.length === 0) throw new PgloadError(`order-status: no customer named ${inp.cLast} in warehouse ${inp.w} district ${inp.d}`, { code: 'TPCC_DATA' })
    customer = rows[middleIndex(rows.length)]
  } else {
    runs(ctx, BY_ID)
    customer = (await conn.execute(BY_ID, [inp.w, inp.d, inp.cId])).rows[0]
  }
  runs(ctx, LAST_ORDER)
  const order = (await conn.execute(LAST_ORDER, [inp.w, inp.d, customer[0]])).rows[0]
  if (order) { runs(ctx, LINES); await conn.execute(LINES, [inp.w, inp.d, order[0]]) }
  runs(ctx, COMMIT)
  await conn.execute(COMMIT)
  return undefined
}
