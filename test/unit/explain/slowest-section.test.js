// The slowest transactions' replay after the run: skipped with its reason after a stall, a second
// Ctrl-C or for a workload that keeps no statements; rolled back always, a failing statement rolled
// back to its savepoint and the next one replayed.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { slowestSection } from '../../../lib/explain/slowest-section.js'

const plan = { Plan: { 'Node Type': 'Result', 'Startup Cost': 0, 'Total Cost': 0.01, 'Plan Rows': 1, 'Plan Width': 4 }, 'Execution Time': 0.02 }
const unbounded = { within: (p) => p }

/** A connection that records what it is sent; EXPLAIN of `fails` throws. */
function fakeConn () {
  const sent = []
  return {
    sent,
    async simpleQuery (text) { sent.push(text); return { rows: [] } },
    async query (text, values) {
      sent.push(text)
      if (text.includes('fails')) throw new Error('duplicate key value violates unique constraint "t_pkey"')
      return { rows: [[JSON.stringify([plan])]] }
    }
  }
}

const workload = {
  name: 'script',
  transactions: [{ name: 'w' }],
  replayStatements: (type, ran) => ran.map((r) => ({ command: r.command, line: r.command + 1, sql: r.sql, values: [], reason: r.reason ?? null }))
}
const outcome = {
  slowest: [[{ latencyUs: 12345, parameters: [{ command: 0, sql: 'BEGIN', reason: 'BEGIN is not a statement EXPLAIN takes' }, { command: 1, sql: 'INSERT fails' }, { command: 2, sql: 'SELECT 1' }] }]]
}
const run = (hurried = false) => ({ status: { hurried } })

test('the replay: BEGIN ... ROLLBACK, a failed statement rolled back to its savepoint, the next replayed', async () => {
  const conn = fakeConn()
  const s = await slowestSection({ perType: 1, outcome, workload, conn, serverVersionNum: 160000, run: run(), stalled: false, limit: unbounded })
  assert.equal(s.available, true)
  assert.equal(s.explain, 'ANALYZE, BUFFERS, WAL, FORMAT JSON')
  const [t] = s.types.w
  assert.equal(t.latencyMs, 12.345)
  assert.deepEqual(t.statements.map((st) => st.reason ?? st.topNode), [
    'BEGIN is not a statement EXPLAIN takes',
    'it failed again: duplicate key value violates unique constraint "t_pkey"',
    'Result'
  ])
  assert.deepEqual(conn.sent, [
    'BEGIN',
    'SAVEPOINT pgload_explain', 'EXPLAIN (ANALYZE, BUFFERS, WAL, FORMAT JSON) INSERT fails', 'ROLLBACK TO SAVEPOINT pgload_explain',
    'SAVEPOINT pgload_explain', 'EXPLAIN (ANALYZE, BUFFERS, WAL, FORMAT JSON) SELECT 1', 'RELEASE SAVEPOINT pgload_explain',
    'ROLLBACK'
  ])
})

test('rolled back also when the connection fails mid-replay', async () => {
  const conn = fakeConn()
  conn.simpleQuery = async (text) => {
    conn.sent.push(text)
    if (text.startsWith('SAVEPOINT')) throw new Error('connection lost')
    return { rows: [] }
  }
  const s = await slowestSection({ perType: 1, outcome, workload, conn, serverVersionNum: 160000, run: run(), stalled: false, limit: unbounded })
  assert.equal(s.available, false)
  assert.match(s.reason, /the replay failed: connection lost/)
  assert.equal(conn.sent.at(-1), 'ROLLBACK')
})

test('skipped, with its reason: a stalled run, a second Ctrl-C, a workload without statements; none without the option', async () => {
  const conn = fakeConn()
  const args = { perType: 2, outcome, workload, conn, serverVersionNum: 160000, run: run(), stalled: false, limit: unbounded }
  assert.match((await slowestSection({ ...args, stalled: true })).reason, /transactions had to be cancelled/)
  assert.match((await slowestSection({ ...args, run: run(true) })).reason, /second Ctrl-C/)
  assert.match((await slowestSection({ ...args, workload: { name: 'tpcc', transactions: [] }, outcome: {} })).reason, /tpcc workload's transactions are not replayed/)
  assert.equal(await slowestSection({ ...args, perType: 0 }), undefined)
  assert.deepEqual(conn.sent, [], 'nothing sent')
})
