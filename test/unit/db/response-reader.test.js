// Responses matched to requests without a server: command tags, pipeline aborts, statement
// states after failures, FATAL errors and connection loss.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ResponseReader, OP_EXEC, OP_SIMPLE, OP_PIPELINE, STMT_NEW, STMT_SENT, STMT_PARSED } from '../../../lib/db/response-reader.js'

function fakeConn () {
  return { _txStatus: 'I', lastResults: [], idle: 0, lostCalls: 0, forgot: 0, _onIdle () { this.idle++ }, _onLost () { this.lostCalls++ }, _forgetStatements () { this.forgot++ } }
}

function request (reader, kind, extra = {}) {
  const op = reader.acquire(kind)
  op.promise = new Promise((resolve, reject) => { op.resolve = resolve; op.reject = reject })
  Object.assign(op, extra)
  const p = op.promise
  reader.push(op)
  return p
}

const msg = {
  parse: { name: 'parseComplete' },
  bind: { name: 'bindComplete' },
  desc: (...names) => ({ name: 'rowDescription', fields: names.map(name => ({ name })) }),
  row: (...fields) => ({ name: 'dataRow', fields }),
  done: (text) => ({ name: 'commandComplete', text }),
  ready: (status = 'I') => ({ name: 'readyForQuery', status }),
  error: (code, severity = 'ERROR') => Object.assign(new Error(`e${code}`), { name: 'error', code, severity })
}

test('an execute: fields learnt from Describe are kept on the statement entry; tags parsed', async () => {
  const conn = fakeConn()
  const r = new ResponseReader(conn)
  const entry = { state: STMT_SENT, fields: undefined }
  const p = request(r, OP_EXEC, { entry })
  for (const m of [msg.parse, msg.bind, msg.desc('a', 'b'), msg.row('1', null), msg.row('2', 'x'), msg.done('SELECT 2'), msg.ready('T')]) r.onMessage(m)
  assert.deepEqual(await p, { command: 'SELECT', rowCount: 2, fields: ['a', 'b'], rows: [['1', null], ['2', 'x']] })
  assert.equal(entry.state, STMT_PARSED)
  assert.deepEqual(entry.fields, ['a', 'b'])
  assert.equal(conn._txStatus, 'T')
  assert.equal(conn.idle, 1)
  // Next time without Describe: the cached names are used.
  const p2 = request(r, OP_EXEC, { entry })
  for (const m of [msg.bind, msg.row('3', 'y'), msg.done('SELECT 1'), msg.ready()]) r.onMessage(m)
  assert.deepEqual(await p2, { command: 'SELECT', rowCount: 1, fields: ['a', 'b'], rows: [['3', 'y']] })
  for (const [tag, command, rowCount] of [['INSERT 0 5', 'INSERT', 5], ['UPDATE 12', 'UPDATE', 12], ['BEGIN', 'BEGIN', 0], ['CREATE TABLE', 'CREATE', 0], ['DELETE 0', 'DELETE', 0], ['COPY 1000', 'COPY', 1000]]) {
    const p3 = request(r, OP_EXEC, {})
    for (const m of [msg.bind, msg.done(tag), msg.ready()]) r.onMessage(m)
    const res = await p3
    assert.deepEqual([res.command, res.rowCount], [command, rowCount], tag)
  }
})

test('a failed Parse sends the statement back to "not parsed"', async () => {
  const r = new ResponseReader(fakeConn())
  const entry = { state: STMT_SENT, fields: undefined }
  const p = request(r, OP_EXEC, { entry })
  r.onMessage(msg.error('42601'))
  r.onMessage(msg.ready())
  await assert.rejects(p, { code: '42601' })
  assert.equal(entry.state, STMT_NEW)
})

test('simple query: one result per statement, the last one returned, DISCARD ALL forgets statements', async () => {
  const conn = fakeConn()
  const r = new ResponseReader(conn)
  const p = request(r, OP_SIMPLE)
  for (const m of [msg.done('BEGIN'), msg.desc('n'), msg.row('1'), msg.done('SELECT 1'), { name: 'emptyQuery' }, msg.done('DISCARD ALL'), msg.ready('T')]) r.onMessage(m)
  const last = await p
  assert.equal(last.command, 'DISCARD')
  assert.deepEqual(conn.lastResults.map(x => [x.command, x.rows.length]), [['BEGIN', 0], ['SELECT', 1], ['', 0], ['DISCARD', 0]])
  assert.equal(conn.forgot, 1)
})

test('pipeline: the error goes to its item, the rest of the batch is aborted, later batches run', async () => {
  const r = new ResponseReader(fakeConn())
  const a = { state: STMT_PARSED, fields: ['v'] }
  const b = { state: STMT_SENT, fields: undefined }
  const batches = [[{}, {}, {}], [{}]]
  const p = request(r, OP_PIPELINE, { batches, entries: [a, a, b, a] })
  for (const m of [msg.bind, msg.row('1'), msg.done('SELECT 1'), msg.bind, msg.error('22012'), msg.ready('I'), msg.bind, msg.row('4'), msg.done('SELECT 1'), msg.ready('I')]) r.onMessage(m)
  const out = await p
  assert.deepEqual(out[0][0].rows, [['1']])
  assert.equal(out[0][1].code, '22012')
  assert.equal(out[0][2].code, 'PIPELINE_ABORTED')
  assert.deepEqual(out[1][0], { command: 'SELECT', rowCount: 1, fields: ['v'], rows: [['4']] })
  assert.equal(b.state, STMT_NEW, 'a Parse skipped by the abort is to be sent again')
})

test('FATAL then close: every waiting request fails with CONNECTION_LOST caused by the server error', async () => {
  const conn = fakeConn()
  const r = new ResponseReader(conn)
  const p1 = request(r, OP_EXEC, {})
  const p2 = request(r, OP_SIMPLE)
  r.onMessage(msg.error('57P01', 'FATAL'))
  r.lost(new Error('server closed the connection'))
  for (const p of [p1, p2]) {
    const err = await p.then(() => null, e => e)
    assert.equal(err.code, 'CONNECTION_LOST')
    assert.equal(err.cause.code, '57P01')
  }
  assert.equal(conn.lostCalls, 1)
  assert.equal(r.idle(), true)
  r.lost(new Error('again'))
  assert.equal(conn.lostCalls, 1)
})
