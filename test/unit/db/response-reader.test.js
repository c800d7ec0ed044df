// Responses matched to requests without a server: backend messages as wire bytes go through
// ResponseParser (whole, and split at every byte) into the ResponseReader: command tags,
// pipeline aborts, statement states after failures, FATAL errors and connection loss.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ResponseParser, decodeText } from '../../../lib/db/response-parser.js'
import { ResponseReader, OP_EXEC, OP_SIMPLE, OP_PIPELINE, STMT_NEW, STMT_SENT, STMT_PARSED } from '../../../lib/db/response-reader.js'

// Counts of the reader's calls to its connection's hooks.
function fakeHooks () {
  return { idle: 0, lostCalls: 0, forgot: 0, reader: null }
}

// A reader with its parser; feed(...messages) parses the bytes in pieces of `chunk` bytes.
function setup (chunk = 0) {
  const conn = fakeHooks()
  const r = new ResponseReader({
    forgetStatements () { conn.forgot++ },
    refuseCopy () {},
    copyOver () {},
    idle () { conn.idle++ },
    lost () { conn.lostCalls++ }
  })
  conn.reader = r
  const parser = new ResponseParser(r, { notice () {}, parameter () {} })
  r.feed = (...messages) => {
    const bytes = Buffer.concat(messages)
    if (chunk === 0) { parser.parse(bytes); return }
    // a reused read buffer larger than each read, overwritten after each parse, as the socket's:
    // the parser reads only the n bytes it is given
    const readBuf = Buffer.alloc(chunk + 16, 0xee)
    for (let o = 0; o < bytes.length; o += chunk) {
      const n = bytes.copy(readBuf, 0, o, o + chunk)
      parser.parse(readBuf, n)
      readBuf.fill(0xee)
    }
  }
  return { conn, r }
}

function request (reader, kind, extra = {}) {
  const op = reader.acquire(kind)
  op.promise = new Promise((resolve, reject) => { op.resolve = resolve; op.reject = reject })
  Object.assign(op, extra)
  const p = op.promise
  reader.push(op)
  return p
}

// Backend messages on the wire.
function message (code, ...parts) {
  const body = Buffer.concat(parts.map(p => typeof p === 'string' ? Buffer.from(p + '\0') : p))
  const head = Buffer.alloc(5)
  head[0] = code.charCodeAt(0)
  head.writeInt32BE(body.length + 4, 1)
  return Buffer.concat([head, body])
}
const int16 = (n) => { const b = Buffer.alloc(2); b.writeInt16BE(n); return b }
const int32 = (n) => { const b = Buffer.alloc(4); b.writeInt32BE(n); return b }
const msg = {
  parse: message('1'),
  bind: message('2'),
  desc: (...names) => message('T', int16(names.length), ...names.flatMap(n => [n, Buffer.alloc(18)])),
  row: (...fields) => message('D', int16(fields.length), ...fields.flatMap(f => f === null ? [int32(-1)] : [int32(Buffer.byteLength(f)), Buffer.from(f)])),
  done: (text) => message('C', text),
  empty: message('I'),
  ready: (status = 'I') => message('Z', Buffer.from(status)),
  error: (code, severity = 'ERROR') => message('E', 'S' + severity, 'V' + severity, 'C' + code, 'M' + `e${code}`, Buffer.alloc(1))
}

test('field text: short ASCII decoded in JavaScript, the rest as UTF-8', () => {
  for (const s of ['', '1', '-42', '12345678', '123456789', 'héllo', 'ü', 'a long text value of some length', '€uro']) {
    const b = Buffer.concat([Buffer.from('xx'), Buffer.from(s), Buffer.from('yy')])
    assert.equal(decodeText(b, 2, b.length - 2), s)
  }
})

test('an execute: fields learnt from Describe are kept on the statement entry; tags parsed', async () => {
  for (const chunk of [0, 1, 3, 7]) await executeCase(chunk)
})

async function executeCase (chunk) {
  const { conn, r } = setup(chunk)
  const entry = { state: STMT_SENT, fields: undefined }
  const p = request(r, OP_EXEC, { entry })
  r.feed(msg.parse, msg.bind, msg.desc('a', 'b'), msg.row('1', null), msg.row('2', 'x'), msg.done('SELECT 2'), msg.ready('T'))
  assert.deepEqual(await p, { command: 'SELECT', rowCount: 2, fields: ['a', 'b'], rows: [['1', null], ['2', 'x']] })
  assert.equal(entry.state, STMT_PARSED)
  assert.deepEqual(entry.fields, ['a', 'b'])
  assert.equal(r.transactionStatus, 'T')
  assert.equal(conn.idle, 1)
  // Next time without Describe: the cached names are used.
  const p2 = request(r, OP_EXEC, { entry })
  r.feed(msg.bind, msg.row('3', 'y'), msg.row('a much longer value than eight', 'ÿ€'), msg.done('SELECT 2'), msg.ready())
  assert.deepEqual(await p2, { command: 'SELECT', rowCount: 2, fields: ['a', 'b'], rows: [['3', 'y'], ['a much longer value than eight', 'ÿ€']] })
  const tags = [['INSERT 0 5', 'INSERT', 5], ['UPDATE 12', 'UPDATE', 12], ['BEGIN', 'BEGIN', 0], ['COMMIT', 'COMMIT', 0],
    ['CREATE TABLE', 'CREATE', 0], ['DELETE 0', 'DELETE', 0], ['COPY 1000', 'COPY', 1000], ['SELECT 4294967296', 'SELECT', 4294967296],
    ['SELECTED 3', 'SELECTED', 3], ['VACUUM', 'VACUUM', 0], ['MERGE 7', 'MERGE', 7], ['SET', 'SET', 0], ['SE 1', 'SE', 1],
    ['ROLLBACK', 'ROLLBACK', 0], ['FETCH 3', 'FETCH', 3], ['MOVE 2', 'MOVE', 2], ['CALL', 'CALL', 0], ['ZZZ 9', 'ZZZ', 9],
    // near misses of the common words: other lengths, one byte off
    ['UPDATES 2', 'UPDATES', 2], ['UPDATA 2', 'UPDATA', 2], ['BEGINS', 'BEGINS', 0], ['COMMITTED', 'COMMITTED', 0], ['COPX 1', 'COPX', 1],
    ['INSERTED 0 1', 'INSERTED', 1], ['ROLLBACX', 'ROLLBACX', 0], ['MOVED 2', 'MOVED', 2], ['MERGX 1', 'MERGX', 1], ['SEX 1', 'SEX', 1],
    ['SELECX 1', 'SELECX', 1], ['DELETED 1', 'DELETED', 1], ['FETCHES 1', 'FETCHES', 1], ['END', 'END', 0], ['ENDS', 'ENDS', 0],
    ['DEALLOCATE ALL', 'DEALLOCATE', 0], ['B', 'B', 0]]
  for (const [tag, command, rowCount] of tags) {
    const p3 = request(r, OP_EXEC, {})
    r.feed(msg.bind, msg.done(tag), msg.ready())
    const res = await p3
    assert.deepEqual([res.command, res.rowCount], [command, rowCount], tag)
  }
}

test('without rows (executeTo(..., false)): no row or tag decoded, one empty result lent per request in turn; DEALLOCATE ALL still forgets statements', async () => {
  for (const chunk of [0, 1, 3]) {
    const { r } = setup(chunk)
    const entry = { state: STMT_PARSED, fields: ['a'] }
    const seen = []
    const lent = (extra) => new Promise((resolve, reject) => {
      const op = r.acquire(OP_EXEC)
      op.receiver = { onResult: (res) => { seen.push(res); resolve({ ...res, rows: res.rows.length }) }, onError: reject }
      Object.assign(op, extra)
      r.push(op)
    })
    const a = lent({ entry, keepRows: false })
    const b = request(r, OP_EXEC, { entry })
    const c = lent({ keepRows: false })
    r.feed(msg.bind, msg.row('1'), msg.row('2'), msg.done('SELECT 2'), msg.ready('T'),
      msg.bind, msg.row('3'), msg.done('SELECT 1'), msg.ready('T'),
      msg.bind, msg.desc('x', 'y'), msg.done('UPDATE 4'), msg.ready())
    assert.deepEqual(await a, { command: '', rowCount: 0, fields: [], rows: 0 })
    assert.deepEqual(await b, { command: 'SELECT', rowCount: 1, fields: ['a'], rows: [['3']] })
    assert.deepEqual(await c, { command: '', rowCount: 0, fields: [], rows: 0 })
    assert.equal(seen[0], seen[1], 'the same object is lent each time')
    assert.ok(Object.isFrozen(seen[0]) && Object.isFrozen(seen[0].rows))
    // the tags that make the connection parse its statements again count without rows too
    const { conn: c2, r: r2 } = setup(chunk)
    const lent2 = (extra) => new Promise((resolve, reject) => {
      const op = r2.acquire(OP_EXEC)
      op.receiver = { onResult: (res) => resolve(res.command), onError: reject }
      Object.assign(op, { keepRows: false }, extra)
      r2.push(op)
    })
    const tags = ['DEALLOCATE ALL', 'DISCARD ALL', 'DEALLOCATE', 'DELETE 12345', 'DISCARD PLANS', 'DEALLOCATE AL1']
    const done = tags.map(() => lent2({}))
    r2.feed(...tags.flatMap((t) => [msg.bind, msg.done(t), msg.ready()]))
    assert.deepEqual(await Promise.all(done), tags.map(() => ''))
    assert.equal(c2.forgot, 2, 'DEALLOCATE ALL and DISCARD ALL')
  }
})

test('a failed Parse sends the statement back to "not parsed"', async () => {
  const { r } = setup()
  const entry = { state: STMT_SENT, fields: undefined }
  const p = request(r, OP_EXEC, { entry })
  r.feed(msg.error('42601'), msg.ready())
  await assert.rejects(p, { code: '42601' })
  assert.equal(entry.state, STMT_NEW)
})

test('simple query: one result per statement, the last one returned, DISCARD ALL forgets statements', async () => {
  const { conn, r } = setup(2)
  const p = request(r, OP_SIMPLE)
  r.feed(msg.done('BEGIN'), msg.desc('n'), msg.row('1'), msg.done('SELECT 1'), msg.empty, msg.done('DISCARD ALL'), msg.ready('T'))
  const last = await p
  assert.equal(last.command, 'DISCARD')
  assert.deepEqual(r.lastResults.map(x => [x.command, x.rows.length]), [['BEGIN', 0], ['SELECT', 1], ['', 0], ['DISCARD', 0]])
  assert.equal(conn.forgot, 1)
})

test('pipeline: the error goes to its item, the rest of the batch is aborted, later batches run', async () => {
  const { r } = setup(5)
  const a = { state: STMT_PARSED, fields: ['v'] }
  const b = { state: STMT_SENT, fields: undefined }
  const batches = [[{}, {}, {}], [{}]]
  const p = request(r, OP_PIPELINE, { batches, entries: [a, a, b, a] })
  r.feed(msg.bind, msg.row('1'), msg.done('SELECT 1'), msg.bind, msg.error('22012'), msg.ready('I'), msg.bind, msg.row('4'), msg.done('SELECT 1'), msg.ready('I'))
  const out = await p
  assert.deepEqual(out[0][0].rows, [['1']])
  assert.equal(out[0][1].code, '22012')
  assert.equal(out[0][2].code, 'PIPELINE_ABORTED')
  assert.deepEqual(out[1][0], { command: 'SELECT', rowCount: 1, fields: ['v'], rows: [['4']] })
  assert.equal(b.state, STMT_NEW, 'a Parse skipped by the abort is to be sent again')
})

test('FATAL then close: every waiting request fails with CONNECTION_LOST caused by the server error', async () => {
  const { conn, r } = setup()
  const p1 = request(r, OP_EXEC, {})
  const p2 = request(r, OP_SIMPLE)
  r.feed(msg.error('57P01', 'FATAL'))
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

test('a row larger than any read arrives whole; a bad message length is a protocol error', async () => {
  for (const chunk of [1000, 65536]) {
    const { r } = setup(chunk)
    const big = 'x'.repeat(200_000) + 'é'
    const p = request(r, OP_EXEC, {})
    r.feed(msg.bind, msg.row(big, '7'), msg.row('8', null), msg.done('SELECT 2'), msg.ready())
    const res = await p
    assert.equal(res.rows[0][0], big)
    assert.deepEqual(res.rows.slice(1), [['8', null]])
  }
  const { r } = setup()
  const bad = Buffer.from([0x44, 0, 0, 0, 2])
  assert.throws(() => r.feed(bad), /invalid message length 2/)
})
