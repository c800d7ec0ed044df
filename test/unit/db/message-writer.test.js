// The message writer produces the messages of pg-protocol's serializer: the same bytes, except
// that Bind says "all text" with zero format codes where pg-protocol lists one per value.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { serialize } from 'pg-protocol'
import { MessageWriter, bindPrefix, bindExecuteConstant } from '../../../lib/db/message-writer.js'

// Frontend messages as comparable objects, Bind format codes normalised to one per value.
function decode (buf) {
  const out = []
  let o = 0
  while (o < buf.length) {
    const code = String.fromCharCode(buf[o])
    const len = buf.readInt32BE(o + 1)
    const body = buf.subarray(o + 5, o + 1 + len)
    o += 1 + len
    if (code !== 'B') { out.push({ code, body: body.toString('hex') }); continue }
    let p = 0
    const cstr = () => { const e = body.indexOf(0, p); const s = body.toString('utf8', p, e); p = e + 1; return s }
    const codes = () => { const n = body.readInt16BE(p); p += 2; const c = []; for (let i = 0; i < n; i++, p += 2) c.push(body.readInt16BE(p)); return c }
    const expand = (c, n) => Array.from({ length: n }, (_, i) => c.length === 0 ? 0 : c.length === 1 ? c[0] : c[i])
    const portal = cstr()
    const statement = cstr()
    const formats = codes()
    const n = body.readInt16BE(p); p += 2
    const values = []
    for (let i = 0; i < n; i++) {
      const l = body.readInt32BE(p); p += 4
      values.push(l === -1 ? null : body.toString('hex', p, p + l)); p += Math.max(l, 0)
    }
    const results = codes()
    out.push({ code, portal, statement, formats: expand(formats, n), values, results: results.length === 0 ? 0 : results[0] })
    assert.equal(p, body.length, 'Bind fully consumed')
  }
  return out
}

const expectedValues = (values) => values.map(v => v === null || v === undefined ? null : String(v))

test('Bind/Execute/Sync with text values matches pg-protocol byte for byte', () => {
  const w = new MessageWriter()
  const cases = [
    [],
    [1],
    [0, -1, 7, 10, 99, 100, 2147483647, -2147483648, 123456],
    [null, undefined, '', 'abc', 'héllo ✓', 'x'.repeat(200), 'é'.repeat(100)],
    [2147483648, -2147483649, 1.5, 1e21, 12345678901234567890n, NaN],
    // every digit count, at both ends, both signs
    Array.from({ length: 10 }, (_, k) => [10 ** k - 1, 10 ** k, -(10 ** k - 1), -(10 ** k)]).flat().filter((v) => v >= -2147483648 && v <= 2147483647)
  ]
  for (const values of cases) {
    w.bindExecute(bindPrefix('P_12'), values, false, true)
    const got = Buffer.from(w.take())
    w.release(true)
    const want = Buffer.concat([
      serialize.bind({ statement: 'P_12', values: expectedValues(values) }),
      serialize.execute(),
      serialize.sync()
    ])
    assert.deepEqual(decode(got), decode(want), JSON.stringify(values, (k, v) => typeof v === 'bigint' ? String(v) : v))
  }
})

test('the constant message of a statement without parameters is its Bind/Execute/Sync', () => {
  const c = bindExecuteConstant(bindPrefix('P_7'))
  const w = new MessageWriter()
  w.bindExecute(bindPrefix('P_7'), [], false, true)
  assert.deepEqual(c, Buffer.from(w.take()))
  assert.deepEqual(decode(c), decode(Buffer.concat([serialize.bind({ statement: 'P_7', values: [] }), serialize.execute(), serialize.sync()])))
})

test('Parse, Describe, Bind without Sync (with and without Describe), Query and CopyFail match pg-protocol', () => {
  const w = new MessageWriter()
  w.parse('P_3', 'SELECT $1::int')
  w.bindExecute(bindPrefix('P_3'), [5], true, false)
  w.bindExecute(bindPrefix('P_3'), [6], false, false)
  w.sync()
  w.parse('', 'SELECT 1')
  w.describe(0x53, 'P_3')
  w.query('SELECT ✓')
  w.copyFail('nope')
  const got = Buffer.from(w.take())
  const want = Buffer.concat([
    serialize.parse({ name: 'P_3', text: 'SELECT $1::int', types: [] }),
    serialize.bind({ statement: 'P_3', values: ['5'] }),
    serialize.describe({ type: 'P', name: '' }),
    serialize.execute(),
    serialize.bind({ statement: 'P_3', values: ['6'] }),
    serialize.execute(),
    serialize.sync(),
    serialize.parse({ name: '', text: 'SELECT 1', types: [] }),
    serialize.describe({ type: 'S', name: 'P_3' }),
    serialize.query('SELECT ✓'),
    serialize.copyFail('nope')
  ])
  assert.deepEqual(decode(got), decode(want))
})

test('booleans, dates and buffers are prepared as node-postgres prepares them', () => {
  const w = new MessageWriter()
  w.bindExecute(bindPrefix(''), [true, false, Buffer.from([0xde, 0xad])], false, true)
  const got = Buffer.from(w.take())
  const want = Buffer.concat([serialize.bind({ values: ['true', 'false', '\\xdead'] }), serialize.execute(), serialize.sync()])
  assert.deepEqual(decode(got), decode(want))
})

test('the buffer is reused while writes drain, replaced when the socket keeps it, and grows', () => {
  const w = new MessageWriter()
  w.bindExecute(bindPrefix('P_1'), [1], false, true)
  const a = w.take()
  w.release(true)
  w.bindExecute(bindPrefix('P_1'), [2], false, true)
  const b = w.take()
  assert.equal(a, b, 'same view for the same length while drained')
  assert.equal(b[b.length - 18], 0x32) // the value "2" overwrote "1"
  w.release(false)
  w.bindExecute(bindPrefix('P_1'), [3], false, true)
  const c = w.take()
  assert.notEqual(c.buffer, b.buffer, 'a kept buffer is not overwritten')
  assert.equal(b[b.length - 18], 0x32)
  w.release(true)
  const big = 'y'.repeat(100000)
  w.bindExecute(bindPrefix('P_1'), [big], false, true)
  const d = Buffer.from(w.take())
  assert.deepEqual(decode(d), decode(Buffer.concat([serialize.bind({ statement: 'P_1', values: [big] }), serialize.execute(), serialize.sync()])))
})
