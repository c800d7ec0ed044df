// The lean connection against node-postgres on a real server: same results for every type the
// workloads use, same errors, transaction status, pipelines, prepared statements, COPY.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { getTestServer } from '../helpers/server.js'
import { openConnection, defineStatement } from '../../lib/db/connection.js'
import { openLeanConnection } from '../../lib/db/lean-connection.js'
import { connectSocket } from '../../lib/db/connect-socket.js'

let target
let setup
before(async () => {
  ({ target } = await getTestServer())
  setup = await openConnection(target)
  await setup.simpleQuery(`
    DROP TABLE IF EXISTS lean_types;
    CREATE TABLE lean_types (id int4 PRIMARY KEY, big int8, num numeric(12,2), txt text, ch char(10), ts timestamp, nul int4);
    INSERT INTO lean_types VALUES
      (1, 9007199254740993, 12345.67, 'héllo wörld', 'abc', '2024-02-29 23:59:59.123456', NULL),
      (2, -42, -0.05, '', 'x', '1999-12-31 00:00:00', NULL),
      (3, 0, 0, NULL, NULL, NULL, 7)`)
})
after(async () => { await setup?.close() })

const readAll = defineStatement('SELECT id, big, num, txt, ch, ts, nul FROM lean_types WHERE id >= $1 ORDER BY id')
const echo = defineStatement('SELECT $1::int4 AS i, $2::int8 AS b, $3::numeric AS n, $4::text AS t, $5::char(4) AS c, $6::timestamp AS ts, $7::text AS z')
// (-2147483648 would not survive the simple protocol: inlined, -2147483648::int4 overflows before the minus)
const echoValues = [-2147483647, '9223372036854775807', '3.14159', "it's \\ \"quoted\" ✓ and long enough to skip the short-string loop: ..........", 'ab', '2020-01-02 03:04:05.5', null]

for (const protocol of ['prepared', 'extended', 'simple']) {
  test(`${protocol}: rows and values as text, identical to node-postgres`, async () => {
    const pgc = await openConnection(target, { protocol })
    const lean = await openLeanConnection(target, { protocol })
    try {
      for (const [stmt, values] of [[readAll, [1]], [echo, echoValues], [readAll, [3]]]) {
        const expected = await pgc.execute(stmt, values)
        const got = await lean.execute(stmt, values)
        assert.deepEqual(got, expected)
        assert.equal(got.command, 'SELECT')
      }
      const r = await lean.execute(readAll, [1])
      assert.deepEqual(r.fields, ['id', 'big', 'num', 'txt', 'ch', 'ts', 'nul'])
      assert.deepEqual(r.rows[0], ['1', '9007199254740993', '12345.67', 'héllo wörld', 'abc       ', '2024-02-29 23:59:59.123456', null])
      assert.deepEqual(r.rows[2], ['3', '0', '0.00', null, null, null, '7'])
      const e = await lean.execute(echo, echoValues)
      assert.deepEqual(e.rows[0], ['-2147483647', '9223372036854775807', '3.14159', echoValues[3], 'ab  ', '2020-01-02 03:04:05.5', null])
    } finally {
      await pgc.close()
      await lean.close()
    }
  })
}

test('numbers, booleans, bigints and dates as parameters are sent as node-postgres sends them', async () => {
  const pgc = await openConnection(target, { protocol: 'extended' })
  const lean = await openLeanConnection(target, { protocol: 'extended' })
  try {
    const stmt = defineStatement('SELECT $1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::timestamptz = $9::timestamptz')
    const d = new Date(Date.UTC(2021, 5, 7, 8, 9, 10, 11))
    const values = [0, -7, 2147483648, 1.5, true, 12345678901234567890n, 'ñ', d, '2021-06-07T08:09:10.011Z']
    assert.deepEqual(await lean.execute(stmt, values), await pgc.execute(stmt, values))
    assert.deepEqual((await lean.execute(stmt, values)).rows[0], ['0', '-7', '2147483648', '1.5', 'true', '12345678901234567890', 'ñ', 't'])
  } finally {
    await pgc.close()
    await lean.close()
  }
})

test('command tags and row counts of writes; simpleQuery keeps every result', async () => {
  const lean = await openLeanConnection(target)
  try {
    const r = await lean.simpleQuery('CREATE TEMP TABLE t (a int); INSERT INTO t SELECT generate_series(1, 5); UPDATE t SET a = a + 1 WHERE a > 2; SELECT count(*) FROM t')
    assert.deepEqual(lean.lastResults.map(x => [x.command, x.rowCount]), [['CREATE', 0], ['INSERT', 5], ['UPDATE', 3], ['SELECT', 1]])
    assert.deepEqual(r.rows, [['5']])
    const del = await lean.query('DELETE FROM t WHERE a > $1', [3])
    assert.deepEqual([del.command, del.rowCount, del.rows], ['DELETE', 3, []])
    const empty = await lean.simpleQuery('')
    assert.equal(empty.command, '')
  } finally {
    await lean.close()
  }
})

test('a result larger than a socket read arrives whole', async () => {
  const lean = await openLeanConnection(target)
  try {
    const stmt = defineStatement("SELECT g, repeat('x', $2) FROM generate_series(1, $1) g")
    const r = await lean.execute(stmt, [20000, 100])
    assert.equal(r.rows.length, 20000)
    assert.equal(r.rowCount, 20000)
    assert.deepEqual(r.rows[19999], ['20000', 'x'.repeat(100)])
    assert.ok(r.rows.every((row, i) => row[0] === String(i + 1) && row[1].length === 100))
  } finally {
    await lean.close()
  }
})

test('server errors keep SQLSTATE, detail, hint and where as node-postgres reports them', async () => {
  await setup.simpleQuery(`CREATE OR REPLACE FUNCTION lean_raise() RETURNS int LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'custom failure' USING ERRCODE = 'P0042', DETAIL = 'some detail', HINT = 'some hint'; END $$`)
  const pgc = await openConnection(target)
  const lean = await openLeanConnection(target)
  try {
    for (const [stmt, values] of [
      [defineStatement('SELECT lean_raise()'), []],
      [defineStatement('INSERT INTO lean_types (id) VALUES ($1)'), [1]],
      [defineStatement('SELECT 1 / $1::int'), [0]],
      [defineStatement('SELEC oops'), []]
    ]) {
      const expected = await pgc.execute(stmt, values).then(() => null, e => e)
      const got = await lean.execute(stmt, values).then(() => null, e => e)
      assert.ok(got instanceof Error)
      for (const k of ['code', 'message', 'severity', 'detail', 'hint', 'where', 'constraint', 'position']) {
        assert.equal(got[k], expected[k], `${stmt.text}: ${k}`)
      }
    }
    // A statement that failed to parse is parsed again next time (not "does not exist").
    const bad = defineStatement('SELECT * FROM lean_missing_table')
    for (let i = 0; i < 2; i++) await assert.rejects(lean.execute(bad, []), { code: '42P01' })
    assert.equal((await lean.execute(readAll, [2])).rows.length, 2)
  } finally {
    await pgc.close()
    await lean.close()
  }
})

test('transactionStatus follows BEGIN, an error and ROLLBACK', async () => {
  const lean = await openLeanConnection(target)
  try {
    assert.equal(lean.transactionStatus, 'I')
    await lean.simpleQuery('BEGIN')
    assert.equal(lean.transactionStatus, 'T')
    await lean.execute(readAll, [1])
    assert.equal(lean.transactionStatus, 'T')
    await assert.rejects(lean.execute(defineStatement('SELECT 1 / 0'), []), { code: '22012' })
    assert.equal(lean.transactionStatus, 'E')
    await assert.rejects(lean.execute(readAll, [1]), { code: '25P02' })
    await lean.simpleQuery('ROLLBACK')
    assert.equal(lean.transactionStatus, 'I')
  } finally {
    await lean.close()
  }
})

for (const protocol of ['prepared', 'extended']) {
  test(`${protocol}: pipeline: an error skips the rest of its batch only`, async () => {
    const lean = await openLeanConnection(target, { protocol })
    const pgc = await openConnection(target, { protocol })
    try {
      const one = defineStatement('SELECT $1::int AS v')
      const div = defineStatement('SELECT 10 / $1::int')
      const batches = [
        [{ stmt: one, values: [1] }, { stmt: div, values: [0] }, { stmt: one, values: [3] }],
        [{ stmt: one, values: [4] }, { stmt: div, values: [5] }],
        [],
        [{ stmt: defineStatement('SELECT * FROM lean_nowhere'), values: [] }, { stmt: one, values: [6] }]
      ]
      const got = await lean.runPipeline(batches)
      const expected = await pgc.runPipeline(batches)
      const shape = (out) => out.map(b => b.map(x => x instanceof Error ? x.code : x.rows))
      assert.deepEqual(shape(got), [[[['1']], '22012', 'PIPELINE_ABORTED'], [[['4']], [['2']]], [], ['42P01', 'PIPELINE_ABORTED']])
      assert.deepEqual(shape(got), shape(expected))
      assert.deepEqual(got[1][0], expected[1][0])
      assert.equal(lean.transactionStatus, 'I')
      // The connection is fine afterwards, and the statement after the failing parse works.
      assert.deepEqual((await lean.execute(one, [7])).rows, [['7']])
    } finally {
      await lean.close()
      await pgc.close()
    }
  })
}

test('pipeline inside a transaction: a failed batch leaves it failed, as the server says', async () => {
  const lean = await openLeanConnection(target)
  try {
    const begin = defineStatement('BEGIN')
    const one = defineStatement('SELECT $1::int')
    const out = await lean.runPipeline([
      [{ stmt: begin, values: [] }, { stmt: one, values: ['x'] }],
      [{ stmt: one, values: [1] }]
    ])
    assert.equal(out[0][1].code, '22P02')
    assert.equal(out[1][0].code, '25P02')
    assert.equal(lean.transactionStatus, 'E')
    await lean.simpleQuery('ROLLBACK')
    assert.equal(lean.transactionStatus, 'I')
  } finally {
    await lean.close()
  }
})

test('prepared: each statement is parsed once per connection, named P_<id>', async () => {
  const lean = await openLeanConnection(target)
  try {
    const a = defineStatement('SELECT $1::int + 1')
    await lean.prepare(a)
    await lean.prepare(a)
    for (let i = 0; i < 5; i++) assert.deepEqual((await lean.execute(a, [i])).rows, [[String(i + 1)]])
    // Several executes in flight at once on one connection (responses come back in order).
    const many = await Promise.all(Array.from({ length: 50 }, (_, i) => lean.execute(readAll, [i % 4])))
    assert.deepEqual(many.map(r => r.rows.length), Array.from({ length: 50 }, (_, i) => [3, 3, 2, 1][i % 4]))
    const names = await lean.simpleQuery('SELECT name, statement FROM pg_prepared_statements ORDER BY name')
    assert.deepEqual(names.rows, [[a.name, a.text], [readAll.name, readAll.text]].sort((x, y) => x[0] < y[0] ? -1 : 1))
    // A statement without parameters: after its first execute it is sent as a constant message.
    const now = defineStatement('SELECT 7 AS seven')
    for (let i = 0; i < 3; i++) assert.deepEqual(await lean.execute(now), { command: 'SELECT', rowCount: 1, fields: ['seven'], rows: [['7']] })
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => i % 2 ? lean.execute(now) : lean.execute(a, [i])))
    assert.deepEqual(burst.map(r => r.rows[0][0]), Array.from({ length: 20 }, (_, i) => i % 2 ? '7' : String(i + 1)))
    // DISCARD ALL drops them: they are parsed again.
    await lean.simpleQuery('DISCARD ALL')
    assert.deepEqual((await lean.execute(a, [41])).rows, [['42']])
    assert.deepEqual((await lean.execute(now)).rows, [['7']])
    assert.deepEqual((await lean.execute(now)).rows, [['7']])
  } finally {
    await lean.close()
  }
})

test('copyFrom loads on the connection itself, and requests made meanwhile wait for it', async () => {
  const lean = await openLeanConnection(target)
  try {
    await lean.simpleQuery('CREATE TEMP TABLE c (a int, b text)')
    const before = lean.execute(readAll, [3])
    const stream = lean.copyFrom('COPY c FROM STDIN')
    const during = lean.execute(defineStatement('SELECT count(*) FROM c'), [])
    await pipeline(Readable.from(Array.from({ length: 1000 }, (_, i) => `${i}\trow ${i}\n`)), stream)
    assert.deepEqual((await before).rows.length, 1)
    assert.deepEqual((await during).rows, [['1000']])
    assert.equal(lean.transactionStatus, 'I')
    // A COPY the server rejects fails as node-postgres reports it; the connection comes back.
    await assert.rejects(pipeline(Readable.from(['1\tok\n', 'x\tbad\n']), lean.copyFrom('COPY c FROM STDIN')), { code: '22P02' })
    assert.deepEqual((await lean.execute(defineStatement('SELECT count(*) FROM c'), [])).rows, [['1000']])
    // COPY FROM STDIN through the simple protocol is refused, and the connection stays usable.
    await assert.rejects(lean.simpleQuery('COPY c FROM STDIN'), { code: '57014' })
    assert.deepEqual((await lean.simpleQuery('SELECT count(*) FROM c')).rows, [['1000']])
  } finally {
    await lean.close()
  }
})

test('a terminated backend surfaces as CONNECTION_LOST, idle or mid-query', async () => {
  for (const midQuery of [false, true]) {
    const lean = await openLeanConnection(target)
    const pid = lean.backendPid
    assert.ok(Number.isInteger(pid) && pid > 0)
    assert.equal(lean.broken, false)
    // the outcome is taken at once: the rejection may come before the test awaits it
    const sleeping = midQuery ? lean.simpleQuery('SELECT pg_sleep(30)').then(() => null, e => e) : null
    if (midQuery) await waitFor(async () => (await setup.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND state = 'active'", [pid])).rows.length === 1)
    await setup.query('SELECT pg_terminate_backend($1)', [pid])
    if (midQuery) {
      const err = await sleeping
      assert.equal(err?.code, 'CONNECTION_LOST')
      assert.equal(err.cause?.code, '57P01')
    } else {
      await waitFor(async () => (await setup.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rows.length === 0)
    }
    await assert.rejects(lean.execute(readAll, [1]), { code: 'CONNECTION_LOST' })
    assert.equal(lean.broken, true, 'the pool sees it as broken')
    await assert.rejects(lean.runPipeline([[{ stmt: readAll, values: [1] }]]), { code: 'CONNECTION_LOST' })
    await lean.close()
  }
})

// executeTo as a promise, checking that the receiver is never called before executeTo returns.
function executeTo (conn, stmt, values) {
  return new Promise((resolve, reject) => {
    let returned = false
    const check = () => { if (!returned) reject(new Error('receiver called before executeTo returned')) }
    conn.executeTo(stmt, values, {
      onResult (r) { check(); resolve(r) },
      onError (e) { check(); reject(e) }
    })
    returned = true
  })
}

for (const protocol of ['prepared', 'extended', 'simple']) {
  test(`${protocol}: executeTo gives what execute gives: rows, errors with their SQLSTATE, lost connections`, async () => {
    const lean = await openLeanConnection(target, { protocol })
    try {
      for (const [stmt, values] of [[readAll, [1]], [echo, echoValues]]) {
        assert.deepEqual(await executeTo(lean, stmt, values), await lean.execute(stmt, values))
      }
      // an error, then a working statement on the same connection
      await assert.rejects(executeTo(lean, defineStatement('SELECT 1 / $1::int'), [0]), { code: '22012' })
      await assert.rejects(executeTo(lean, echo, ['x', null, null, null, null, null, null]), { code: '22P02' })
      assert.deepEqual((await executeTo(lean, readAll, [3])).rows, [['3', '0', '0.00', null, null, null, '7']])
      // several in flight on one connection: answered in order
      const many = await Promise.all([1, 2, 3].map((id) => executeTo(lean, readAll, [id])))
      assert.deepEqual(many.map(r => r.rows.length), [3, 2, 1])
      await lean.close()
      await assert.rejects(executeTo(lean, readAll, [1]), { code: 'CONNECTION_LOST' })
    } finally {
      await lean.close()
    }
  })
}

// executeTo without rows: what the receiver saw during onResult (the result is only lent).
function executeToCount (conn, stmt, values) {
  return new Promise((resolve, reject) => {
    conn.executeTo(stmt, values, {
      onResult (r) { resolve({ command: r.command, rowCount: r.rowCount, rows: r.rows.length, fields: r.fields }) },
      onError: reject
    }, false)
  })
}

for (const protocol of ['prepared', 'extended']) {
  test(`${protocol}: executeTo without rows decodes neither rows nor tag, keeps the stream in step, and still sees DEALLOCATE ALL`, async () => {
    const lean = await openLeanConnection(target, { protocol })
    try {
      const full = await lean.execute(readAll, [1])
      assert.equal(full.rows.length, 3)
      const empty = { command: '', rowCount: 0, rows: 0, fields: [] }
      assert.deepEqual(await executeToCount(lean, readAll, [1]), empty)
      // interleaved with requests that keep their rows, several in flight
      const [a, b, c] = await Promise.all([executeToCount(lean, readAll, [2]), executeTo(lean, readAll, [2]), executeToCount(lean, echo, echoValues)])
      assert.deepEqual([a, c], [empty, empty])
      assert.deepEqual(b.rows, full.rows.slice(1))
      const update = defineStatement('UPDATE lean_types SET ch = ch WHERE id <= $1')
      assert.deepEqual(await executeToCount(lean, update, [2]), empty)
      assert.deepEqual(await executeTo(lean, update, [2]), { command: 'UPDATE', rowCount: 2, rows: [], fields: [] })
      await assert.rejects(executeToCount(lean, defineStatement('SELECT 1 / $1::int'), [0]), { code: '22012' })
      assert.deepEqual((await lean.execute(readAll, [3])).rows, full.rows.slice(2))
      // the server forgets the prepared statements: so must the connection, tag decoded or not
      await executeToCount(lean, defineStatement('DEALLOCATE ALL'), [])
      assert.deepEqual((await executeTo(lean, readAll, [3])).rows, full.rows.slice(2))
    } finally {
      await lean.close()
    }
  })
}

test('a statement larger than the socket takes at once is queued whole, and the statements behind it keep their own bytes', async () => {
  let transport = null
  const connect = async (...args) => { transport = await connectSocket(...args); return transport }
  const lean = await openLeanConnection(target, { connect })
  try {
    const size = defineStatement('SELECT length($1::text), left($1::text, 3), right($1::text, 3)')
    const big = 'abc' + 'x'.repeat(48 * 1024 * 1024) + 'xyz' // far more than the loopback's buffers
    const first = lean.execute(size, [big])
    assert.equal(transport.queued, 1, 'libuv holds the rest of the first statement')
    // written into the connection's message buffer while libuv still holds the first statement's bytes
    const second = lean.execute(size, ['short'])
    const third = lean.execute(echo, echoValues)
    assert.deepEqual((await first).rows, [[String(big.length), 'abc', 'xyz']])
    assert.deepEqual((await second).rows, [['5', 'sho', 'ort']])
    assert.equal((await third).rows[0][3], echoValues[3])
    assert.equal(transport.queued, 0)
  } finally {
    await lean.close()
  }
})

test('close: later requests fail with CONNECTION_LOST', async () => {
  const lean = await openLeanConnection(target)
  await lean.close()
  await lean.close()
  await assert.rejects(lean.simpleQuery('SELECT 1'), { code: 'CONNECTION_LOST' })
})

async function waitFor (check, timeoutMs = 5000) {
  const end = Date.now() + timeoutMs
  while (Date.now() < end) {
    if (await check()) return
    await new Promise(resolve => setTimeout(resolve, 20))
  }
  throw new Error('condition not reached in time')
}
