// Runs the five TPC-C transactions on the engine (no waits) on a 2-warehouse load and checks that
// the database stays consistent and that ~1 % of New-Orders roll back.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { getTestServer } from '../helpers/server.js'
import { openConnection } from '../../lib/db/connection.js'
import { newRun } from '../unit/engine/test-settings.js'
import { Prng } from '../../lib/random/prng.js'
import tpcc from '../../workloads/tpcc/index.js'

let server
let conn

before(async () => {
  server = await getTestServer()
  conn = await openConnection(server.target)
  await conn.query(`DROP TABLE IF EXISTS ${tpcc.tables.join(', ')}, pgload_tpcc_meta`)
})
after(async () => { await conn?.close() })

const num = async (sql) => Number((await conn.query(sql)).rows[0][0])

test('run refuses a missing schema, --warehouses 0 and more warehouses than loaded', async () => {
  await assert.rejects(tpcc.createWorkload({ conn }, {}), /no TPC-C schema is loaded: run `pgload init tpcc --warehouses N`/)
  const loaded = await tpcc.init({ conn, target: server.target, openConnection }, { warehouses: 2, seed: '77', check: false, vacuum: false })
  assert.ok(loaded.steps.some(s => s.name === 'analyze') && !loaded.steps.some(s => /vacuum|checks/.test(s.name)))
  await assert.rejects(tpcc.createWorkload({ conn }, { warehouses: 0 }), /--warehouses must be an integer in 1..100000, got 0/)
  await assert.rejects(tpcc.createWorkload({ conn }, { warehouses: 3 }), /--warehouses 3 is more than the 2 loaded/)
  await assert.rejects(tpcc.createWorkload({ conn }, { mix: '40,40,10,5,4' }), /--mix must add up to 100/)
  await assert.rejects(tpcc.createWorkload({ conn }, { mix: '50,40,4,3,3' }), /breaks the TPC-C minimums/)
  const w = await tpcc.createWorkload({ conn }, { mix: '50,40,4,3,3', allowNonstandardMix: true, wait: false })
  assert.equal(w.transactions.find(t => t.name === 'new-order').weight, 50)
})

test('a few thousand transactions of all five types keep the twelve conditions; ~1 % New-Order rollbacks', async () => {
  const workload = await tpcc.createWorkload({ conn }, { wait: false, randomSeed: 99n })
  assert.equal(workload.terminals, 20)
  assert.equal(workload.defaultConnections, 20)
  assert.equal(workload.paced, false)
  assert.ok(workload.transactions.every(t => !t.keyingUs && !t.thinkUs))
  const paced = await tpcc.createWorkload({ conn }, { randomSeed: 99n })
  assert.ok(paced.transactions.every(t => t.keyingUs && t.thinkUs))
  assert.equal(paced.defaultConnections, 4)

  const startNextOId = await num('SELECT sum(d_next_o_id) FROM district')
  const startHistory = await num('SELECT count(*) FROM history')
  await workload.prepare(conn)

  const homes = [0, 19].map((i) => workload.createTerminalState(i))
  assert.deepEqual([homes[0].w, homes[0].d, homes[1].w, homes[1].d], [1, 1, 2, 10])

  // The engine drives them: its terminals, pool and retry path (serialization failures and
  // deadlocks tried again with the same random values, up to --max-tries). Under REPEATABLE READ,
  // Payments and New-Orders that update the same warehouse or district row at once fail with
  // 40001, so the retry path runs.
  const total = 3000
  const openRepeatableRead = async () => {
    const c = await openConnection(server.target)
    await c.query("SET default_transaction_isolation = 'repeatable read'")
    return c
  }
  const run = newRun(workload, {
    openConnection: openRepeatableRead,
    connections: 4,
    transactionsPerClient: total / workload.terminals,
    maxTries: 10,
    seed: 1000n
  })
  const outcome = await run.execute()
  const { summary } = outcome
  const stats = outcome.transactions
  assert.deepEqual(summary.errors, {})
  assert.equal(summary.failed, 0, 'every serialization failure or deadlock was retried until it committed')
  assert.equal(summary.transactions, total)
  // Retries are counted once per try, on the type that was tried again.
  const types = Object.values(stats)
  assert.equal(types.reduce((a, t) => a + t.retries, 0), summary.retries)
  assert.equal(types.reduce((a, t) => a + t.retried, 0), summary.retried)
  assert.ok(summary.retried > 0 && summary.retried <= summary.retries && summary.retries <= summary.retried * 9, JSON.stringify(summary))
  const counts = Object.fromEntries(Object.entries(stats).map(([k, v]) => [k, v.count]))
  const n = Object.values(counts).reduce((a, b) => a + b, 0)
  assert.equal(n, total)
  // The deck: per terminal, every 23 transactions are exactly 10/10/1/1/1.
  for (const [name, share] of Object.entries({ 'new-order': 10 / 23, payment: 10 / 23, 'order-status': 1 / 23, delivery: 1 / 23, 'stock-level': 1 / 23 })) {
    assert.ok(Math.abs(counts[name] / n - share) < 0.01, `${name}: ${counts[name]} of ${n}`)
  }
  const no = stats['new-order']
  const rate = no.rollbacks / no.count
  assert.ok(rate > 0.002 && rate < 0.025, `New-Order rollback rate ${(100 * rate).toFixed(2)} % of ${no.count}`)
  assert.equal(stats.payment.rollbacks, 0)

  // Side effects: each committed New-Order took one order number; each Payment wrote one history row.
  assert.equal(await num('SELECT sum(d_next_o_id) FROM district') - startNextOId, no.count - no.rollbacks)
  assert.equal(await num('SELECT count(*) FROM history') - startHistory, stats.payment.count)
  assert.ok(await num('SELECT count(*) FROM orders WHERE o_id > 3000 AND o_all_local = 0') > 0, 'remote supply lines occur with 2 warehouses')
  assert.ok(await num('SELECT count(*) FROM new_order') < 18000 + no.count, 'deliveries removed new orders')
  assert.ok(await num("SELECT count(*) FROM customer WHERE c_credit = 'BC' AND c_payment_cnt > 1 AND c_data ~ '^[0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9.]+ '") > 0,
    'bad-credit customers get the payment prepended to C_DATA')

  const { checks } = await tpcc.verify({ conn })
  assert.equal(checks.length, 12)
  for (const c of checks) assert.ok(c.pass, `${c.name}: ${c.violations} violations`)
  const c11 = checks.find(c => c.name.startsWith('11.'))
  assert.equal(c11.skipped, true)
  assert.match(c11.note, /Delivery has run since the load/)

  // The results object, from the engine's figures.
  const { durationS } = outcome
  const res = await workload.afterRun(conn, { durationS, transactions: stats })
  assert.equal(res.tpmC, Math.round((no.count - no.rollbacks) / (durationS / 60) * 100) / 100)
  assert.equal(res.nopm, res.tpmC, 'NOPM (sum of d_next_o_id) agrees with the committed New-Orders')
  assert.equal(res.pacing, 'unpaced')
  assert.equal(res.responseTimePass, true)
})

test('deferred Delivery: the terminal only queues, workers deliver all ten districts, queue-to-completion is reported', async () => {
  const workload = await tpcc.createWorkload({ conn, target: server.target }, { delivery: 'deferred', wait: false, randomSeed: 5n })
  assert.ok(workload.deliveryQueue)
  const inline = await tpcc.createWorkload({ conn }, { wait: false, randomSeed: 5n })
  assert.equal(inline.deliveryQueue, null)
  assert.ok((await tpcc.createWorkload({ conn, target: server.target }, { randomSeed: 5n })).deliveryQueue, 'paced runs defer by default')
  await assert.rejects(tpcc.createWorkload({ conn }, { delivery: 'later' }), /--delivery must be deferred or inline/)

  const before = await num('SELECT count(*) FROM new_order')
  const delivery = workload.transactions.findIndex(t => t.name === 'delivery')
  const ctxs = Array.from({ length: 20 }, (_, i) => ({ terminalId: i, random: Prng.fromSeed(50 + i), state: workload.createTerminalState(i), conn }))
  const t0 = performance.now()
  for (const ctx of ctxs) assert.equal(await workload.transactions[delivery].run(ctx), undefined)
  assert.ok(performance.now() - t0 < 1000, 'queuing returns at once')
  const res = await workload.afterRun(conn, { durationS: 1, transactions: { delivery: { count: 20, rollbacks: 0, latencyMs: { p90: 0.1 } } } })
  const d = res.delivery
  assert.equal(d.mode, 'deferred')
  assert.deepEqual([d.queued, d.completed, d.pending, d.failed], [20, 20, 0, 0])
  assert.equal(d.within80sPct, 100)
  assert.equal(d.pass, true)
  assert.ok(d.queueToCompletionMs.p90 > 0)
  assert.equal(before - await num('SELECT count(*) FROM new_order'), 200 - d.skippedDistricts)
  const { checks } = await tpcc.verify({ conn })
  for (const c of checks) assert.ok(c.pass, `${c.name}: ${c.violations} violations`)
})

test('a corrupted database fails the matching condition with its violation count', async () => {
  await conn.query('UPDATE warehouse SET w_ytd = w_ytd + 1 WHERE w_id = 2')
  await conn.query('DELETE FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id = 5 AND ol_number = 1')
  const { checks } = await tpcc.verify({ conn })
  const byN = Object.fromEntries(checks.map(c => [c.name.split('.')[0], c]))
  assert.deepEqual([byN[1].pass, byN[1].violations], [false, 1])
  assert.deepEqual([byN[8].pass, byN[8].violations], [false, 1])
  assert.deepEqual([byN[4].pass, byN[4].violations], [false, 1])
  assert.deepEqual([byN[6].pass, byN[6].violations], [false, 1])
  assert.ok(byN[2].pass && byN[3].pass && byN[5].pass)
})
