import { test } from 'node:test'
import assert from 'node:assert/strict'
import { explainingConnection } from '../../../workloads/tpcc/explaining-connection.js'

const PLAN = JSON.stringify([{ Plan: { 'Node Type': 'Result', 'Actual Total Time': 0.01 }, 'Execution Time': 0.02 }])

function fakeConnection () {
  const log = []
  return {
    log,
    async simpleQuery (text) { log.push(text); return { rows: [] } },
    async query (text, values) {
      log.push(text)
      if (text.startsWith('EXPLAIN')) return { rows: [[PLAN]] }
      return { rows: [['real', values]] }
    }
  }
}

test('each statement is explained in a rolled-back savepoint, then run for real', async () => {
  const conn = fakeConnection()
  const c = explainingConnection(conn, 'ANALYZE, FORMAT JSON')
  await c.execute({ text: 'BEGIN' })
  const r = await c.execute({ text: 'UPDATE t SET a = $1' }, [7])
  assert.deepEqual(r.rows, [['real', [7]]])
  await c.execute({ text: 'COMMIT' })
  await c.end()
  assert.deepEqual(conn.log, ['BEGIN', 'SAVEPOINT pgload_explain', 'EXPLAIN (ANALYZE, FORMAT JSON) UPDATE t SET a = $1',
    'ROLLBACK TO SAVEPOINT pgload_explain', 'UPDATE t SET a = $1', 'ROLLBACK'])
  assert.equal(c.statements.length, 1)
  assert.deepEqual(c.statements[0].parameters, [7])
  assert.ok(c.statements[0].plan)
  assert.equal(c.rolledBack, false)
})

test("the transaction's own ROLLBACK ends the replay once and is recorded", async () => {
  const conn = fakeConnection()
  const c = explainingConnection(conn, 'ANALYZE, FORMAT JSON')
  await c.execute({ text: 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' })
  await c.execute({ text: 'ROLLBACK' })
  await c.end()
  assert.deepEqual(conn.log, ['BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', 'ROLLBACK'])
  assert.equal(c.rolledBack, true)
})

test('a statement that fails under EXPLAIN says why and still runs', async () => {
  const conn = fakeConnection()
  conn.query = async (text) => {
    conn.log.push(text)
    if (text.startsWith('EXPLAIN')) throw new Error('boom')
    return { rows: [[1]] }
  }
  const c = explainingConnection(conn, 'ANALYZE, FORMAT JSON')
  await c.execute({ text: 'BEGIN' })
  const r = await c.execute({ text: 'SELECT 1' })
  await c.end()
  assert.deepEqual(r.rows, [[1]])
  assert.equal(c.statements[0].reason, 'it failed under EXPLAIN: boom')
  assert.equal(conn.log.at(-1), 'ROLLBACK')
})

test('a transaction of one statement, sent without BEGIN (Stock-Level): the replay begins its own and rolls it back', async () => {
  const calls = []
  const conn = {
    async simpleQuery (text) { calls.push(text); return { rows: [] } },
    async query (text) { calls.push(text); return { rows: text.startsWith('EXPLAIN') ? [[JSON.stringify([{ Plan: { 'Node Type': 'Aggregate' }, 'Execution Time': 1.5 }])]] : [['7']] } }
  }
  const ex = explainingConnection(conn, 'ANALYZE, FORMAT JSON')
  const r = await ex.execute({ text: 'SELECT count(*) FROM stock' }, [])
  await ex.end()
  assert.deepEqual(r.rows, [['7']])
  assert.deepEqual(calls, ['BEGIN', 'SAVEPOINT pgload_explain', 'EXPLAIN (ANALYZE, FORMAT JSON) SELECT count(*) FROM stock', 'ROLLBACK TO SAVEPOINT pgload_explain', 'SELECT count(*) FROM stock', 'ROLLBACK'])
  assert.ok(ex.statements[0].plan)
})
