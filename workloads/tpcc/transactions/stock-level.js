// Stock-Level (clause 2.8): one read-only statement at READ COMMITTED (clause 3.4 allows it),
// over the last 20 orders of the terminal's own district.

import { defineStatement } from '../../../lib/db/connection.js'
import { runs } from './common.js'

const LOW_STOCK = defineStatement(`SELECT count(DISTINCT s.s_i_id)
  FROM district d
  JOIN order_line ol ON ol.ol_w_id = d.d_w_id AND ol.ol_d_id = d.d_id
    AND ol.ol_o_id < d.d_next_o_id AND ol.ol_o_id >= d.d_next_o_id - 20
  JOIN stock s ON s.s_w_id = ol.ol_w_id AND s.s_i_id = ol.ol_i_id
  WHERE d.d_w_id = $1 AND d.d_id = $2 AND s.s_quantity < $3`)

export const statements = [LOW_STOCK]

/**
 * Input of one Stock-Level (clause 2.8.1): the terminal's (W_ID, D_ID), threshold uniform [10..20].
 * @param {import('./common.js').Random} random
 * @param {import('./common.js').TerminalState} state
 */
export function stockLevelInput (random, state) {
  return { w: state.w, d: state.d, threshold: random.int(10, 20) }
}

/**
 * Run one Stock-Level on ctx.conn.
 * @param {object} ctx the engine's transaction context
 */
export async function runStockLevel (ctx) {
  const inp = stockLevelInput(ctx.random, ctx.state)
  runs(ctx, LOW_STOCK)
  const r = await ctx.conn.execute(LOW_STOCK, [inp.w, inp.d, inp.threshold])
  ctx.state.lowStock = Number(r.rows[0][0])
  return undefined
}
