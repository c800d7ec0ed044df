// Every statement a TPC-C transaction runs on a terminal is announced first with its number in
// the workload's list (the wait sampler's attribution), whatever branch the transaction takes.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { STATEMENTS } from '../../../workloads/tpcc/workload.js'
import { runNewOrder } from '../../../workloads/tpcc/transactions/new-order.js'
import { runPayment } from '../../../workloads/tpcc/transactions/payment.js'
import { runOrderStatus } from '../../../workloads/tpcc/transactions/order-status.js'
import { runDelivery } from '../../../workloads/tpcc/transactions/delivery.js'
import { runStockLevel } from '../../../workloads/tpcc/transactions/stock-level.js'
import { Prng } from '../../../lib/random/prng.js'

/** A context whose connection answers every statement with a row of plausible values. */
function fakeContext (seed) {
  const announced = []
  const executed = []
  const ctx = {
    random: Prng.fromSeed(seed),
    state: { w: 1, d: 1 },
    statement (n) { announced.push(n) },
    conn: {
      async execute (stmt, values) {
        executed.push(stmt)
        if (stmt.text.includes('FROM item')) {
          // every item asked for exists (ids are the first value, as an array literal)
          return { rows: values[0].slice(1, -1).split(',').map((id) => [id, '1.00', 'name', 'data']) }
        }
        return { rows: [['0.1', 'a', 'b', '0.1', '1', '1', '1', '1', '1', '1', '1', '1', '1', '1', '1']] }
      }
    }
  }
  return { ctx, announced, executed }
}

const shared = { warehouses: 1, c: { cLast: 100, cId: 100, olIId: 100 } }

for (const [name, run] of [['new-order', runNewOrder], ['payment', runPayment], ['order-status', runOrderStatus], ['delivery', runDelivery], ['stock-level', runStockLevel]]) {
  test(`${name}: each statement is announced with its number before it runs`, async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const { ctx, announced, executed } = fakeContext(seed)
      try { await run(ctx, shared) } catch { /* a fake row a transaction cannot use: what ran before counts */ }
      assert.ok(executed.length > 0)
      assert.deepEqual(announced.slice(0, executed.length), executed.map((s) => STATEMENTS.indexOf(s)))
      assert.ok(announced.every((n) => n >= 0))
    }
  })
}
