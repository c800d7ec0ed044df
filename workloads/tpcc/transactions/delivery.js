// Delivery (clause 2.7): the oldest undelivered order of each of the warehouse's ten districts,
// in one transaction, run by the terminal (inline) or by a delivery worker (deferred-queue.js).

import { defineStatement } from '../../../lib/db/connection.js'
import { BEGIN, COMMIT, runs } from './common.js'

// FOR UPDATE: a concurrent Delivery of the same warehouse waits, then moves to the next order
// instead of finding nothing (READ COMMITTED re-checks the locked row).
const OLDEST = defineStatement(
  'SELECT no_o_id FROM new_order WHERE no_w_id = $1 AND no_d_id = $2 ORDER BY no_o_id LIMIT 1 FOR UPDATE')
const DELIVER = defineStatement(`WITH n AS (
    DELETE FROM new_order WHERE no_w_id = $1 AND no_d_id = $2 AND no_o_id = $3
  ), o AS (
    UPDATE orders SET o_carrier_id = $4 WHERE o_w_id = $1 AND o_d_id = $2 AND o_id = $3 RETURNING o_c_id
  ), l AS (
    UPDATE order_line SET ol_delivery_d = now() WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3 RETURNING ol_amount
  )
  UPDATE customer SET c_balance = c_balance + (SELECT coalesce(sum(ol_amount), 0) FROM l), c_delivery_cnt = c_delivery_cnt + 1
  WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = (SELECT o_c_id FROM o)
  RETURNING c_id`)

export const statements = [OLDEST, DELIVER]

/**
 * Input of one Delivery (clause 2.7.1): O_CARRIER_ID uniform [1..10].
 * @param {import('./common.js').Random} random
 * @param {import('./common.js').TerminalState} state
 */
export function deliveryInput (random, state) {
  return { w: state.w, carrier: random.int(1, 10) }
}

/**
 * Deliver the oldest new order of each of the warehouse's ten districts, in one transaction.
 * @param {{ execute(stmt: object, values?: any[]): Promise<{ rows: any[][] }> }} conn
 * @param {number} w @param {number} carrier
 * @returns {Promise<number>} districts skipped because they had no order to deliver
 */
export async function deliverWarehouse (conn, w, carrier, ctx = null) {
  runs(ctx, BEGIN)
  await conn.execute(BEGIN)
  let skipped = 0
  for (let d = 1; d <= 10; d++) {
    runs(ctx, OLDEST)
    const row = (await conn.execute(OLDEST, [w, d])).rows[0]
    if (!row) { skipped++; continue }
    runs(ctx, DELIVER)
    await conn.execute(DELIVER, [w, d, row[0], carrier])
  }
  runs(ctx, COMMIT)
  await conn.execute(COMMIT)
  return skipped
}

/**
 * Run one Delivery on ctx.conn (inline mode); counts districts without an order to deliver in ctx.state.
 * @param {object} ctx the engine's transaction context
 */
export async function runDelivery (ctx) {
  const inp = deliveryInput(ctx.random, ctx.state)
  const skipped = await deliverWarehouse(ctx.conn, inp.w, inp.carrier, ctx)
  ctx.state.deliverySkipped = (ctx.state.deliverySkipped ?? 0) + skipped
  return undefined
}
