// The one stand-in server of the tests and benchmarks (test/helpers/stand-in-server.js): both
// drivers connect to it and run statements over the extended and simple protocols, with a
// server's transaction status; canned answers; the Result answerFor() gives.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { PGLOAD_SET_UP_ANSWERS, answerFor, startStandInServer } from '../../helpers/stand-in-server.js'
import { openLeanConnection } from '../../../lib/db/lean-connection.js'
import { openConnection, defineStatement } from '../../../lib/db/connection.js'

let server
before(async () => { server = await startStandInServer() })
after(async () => { await server.close() })

for (const [name, open] of [['lean', openLeanConnection], ['pg', openConnection]]) {
  for (const protocol of ['prepared', 'extended', 'simple']) {
    test(`${name} driver, ${protocol} protocol: statements are answered from their first word, BEGIN and END move the status`, async () => {
      const c = await open(server.target, { protocol })
      try {
        assert.equal(c.transactionStatus, 'I')
        const begin = await c.execute(defineStatement('BEGIN'), [])
        assert.equal(begin.command, 'BEGIN')
        assert.equal(c.transactionStatus, 'T')
        const sel = await c.execute(defineStatement('SELECT abalance FROM pgbench_accounts WHERE aid = $1'), [7])
        assert.equal(sel.rowCount, 1)
        assert.deepEqual(sel.rows, [['0']])
        const upd = await c.execute(defineStatement('UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2'), [1, 7])
        assert.equal(upd.command, 'UPDATE')
        assert.equal(upd.rowCount, 1)
        const ins = await c.execute(defineStatement('INSERT INTO pgbench_history (tid) VALUES ($1)'), [3])
        assert.equal(ins.command, 'INSERT')
        await c.execute(defineStatement('END'), [])
        assert.equal(c.transactionStatus, 'I')
      } finally {
        await c.close()
      }
    })
  }
}

test('with a password: SCRAM-SHA-256, whose server signature both drivers check', async () => {
  const scram = await startStandInServer({ password: 'pa55 wörd' })
  try {
    for (const open of [openLeanConnection, openConnection]) {
      const c = await open(scram.target, { protocol: 'prepared' })
      if (open === openLeanConnection) assert.equal(c.authentication, 'SCRAM-SHA-256')
      else assert.ok(Object.hasOwn(c.client, 'saslSession'), 'the client went through SASL')
      assert.deepEqual((await c.execute(defineStatement('SELECT 1'), [])).rows, [['0']])
      await c.close()
    }
    // a client with another password is refused before the server's signature is sent
    const wrong = { ...scram.target, config: { ...scram.target.config, password: 'other' } }
    for (const open of [openLeanConnection, openConnection]) {
      await assert.rejects(open(wrong, { protocol: 'simple' }), (err) => err.code === '28P01' && /password authentication failed/.test(err.message))
    }
  } finally {
    await scram.close()
  }
})

test('simple queries with several statements: every one is answered, the last status holds', async () => {
  const c = await openLeanConnection(server.target, { protocol: 'simple' })
  try {
    await c.simpleQuery('select 1; begin')
    assert.equal(c.transactionStatus, 'T')
    await c.simpleQuery('rollback')
    assert.equal(c.transactionStatus, 'I')
  } finally {
    await c.close()
  }
})

// Raw protocol: what the stand-in sends back for a byte sequence.
async function exchange (chunks) {
  const { connect } = await import('node:net')
  const socket = connect(server.port, '127.0.0.1')
  const received = []
  socket.on('data', (d) => received.push(d))
  for (const c of chunks) {
    socket.write(c)
    await new Promise((resolve) => setTimeout(resolve, 30))
  }
  socket.destroy()
  return Buffer.concat(received)
}
const msg = (type, body) => {
  const b = Buffer.alloc(5 + body.length)
  b[0] = type.charCodeAt(0)
  b.writeInt32BE(4 + body.length, 1)
  body.copy(b, 5)
  return b
}
const startup = () => {
  const body = Buffer.concat([Buffer.from([0, 3, 0, 0]), Buffer.from('user\0x\0\0')])
  const b = Buffer.alloc(4 + body.length)
  b.writeInt32BE(4 + body.length)
  body.copy(b, 4)
  return b
}
function types (buf) {
  const out = []
  for (let at = 0; at < buf.length; at += 1 + buf.readInt32BE(at + 1)) out.push(String.fromCharCode(buf[at]))
  return out.join('')
}

test('SSL is refused with N, start-up gets AuthenticationOk, parameters, key data and ReadyForQuery', async () => {
  const ssl = Buffer.alloc(8)
  ssl.writeInt32BE(8)
  ssl.writeInt32BE(80877103, 4)
  const got = await exchange([ssl, startup()])
  assert.equal(String.fromCharCode(got[0]), 'N')
  assert.match(types(got.subarray(1)), /^RS+KZ$/)
})

test('a Bind of an unknown statement is an ErrorResponse with SQLSTATE 26000; after Sync the session goes on', async () => {
  const bind = msg('B', Buffer.from('\0nope\0\0\0\0\0\0\0', 'latin1'))
  const sync = msg('S', Buffer.alloc(0))
  const parse = msg('P', Buffer.from('s1\0SELECT 1\0\0\0', 'latin1'))
  const bind1 = msg('B', Buffer.from('\0s1\0\0\0\0\0\0\0', 'latin1'))
  const exec = msg('E', Buffer.from('\0\0\0\0\0', 'latin1'))
  const got = await exchange([startup(), Buffer.concat([bind, exec, sync]), Buffer.concat([parse, bind1, exec, sync])])
  const t = types(got)
  assert.match(t, /^RS+KZ/)
  const after = t.replace(/^RS+KZ/, '')
  assert.equal(after, 'EZ12DCZ') // error, ready; then parse, bind, row, complete, ready
  assert.ok(got.includes(Buffer.from('C26000\0')), 'the error carries SQLSTATE 26000')
})

test('canned answers: a statement that contains the text gets its rows, over the wire and from answerFor()', async () => {
  const canned = await startStandInServer({ answers: PGLOAD_SET_UP_ANSWERS })
  try {
    const c = await openLeanConnection(canned.target, { protocol: 'extended' })
    const r = await c.execute(defineStatement("select current_setting('server_version'), current_setting('server_version_num')"), [])
    assert.deepEqual(r.rows, [['18.4', '180004']])
    assert.equal(r.fields.length, 2)
    assert.deepEqual((await c.simpleQuery('select count(*) from pgbench_branches')).rows, [['10']])
    assert.deepEqual((await c.simpleQuery('select 1')).rows, [['0']], 'no canned answer: one row "0"')
    await c.close()
  } finally {
    await canned.close()
  }
  assert.deepEqual(answerFor('select count(*) from pgbench_branches', PGLOAD_SET_UP_ANSWERS), { command: 'SELECT', rowCount: 1, fields: ['?column?'], rows: [['10']] })
  assert.deepEqual(answerFor('UPDATE t SET x = 1'), { command: 'UPDATE', rowCount: 1, fields: [], rows: [] })
  assert.deepEqual(answerFor('BEGIN'), { command: 'BEGIN', rowCount: 0, fields: [], rows: [] })
  assert.deepEqual(answerFor('select abalance from pgbench_accounts where aid = $1'), { command: 'SELECT', rowCount: 1, fields: ['?column?'], rows: [['0']] })
})
