// Parameters that are not strings or numbers: the text node-postgres would send for the same
// value (its prepareValue, read here only as the reference), and what the writer puts on the wire.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import pgUtils from 'pg/lib/utils.js'
import { parameterText, arrayLiteral, dateText } from '../../../lib/db/parameter-text.js'
import { MessageWriter, bindPrefix } from '../../../lib/db/message-writer.js'

const cases = [
  ['boolean', true],
  ['bigint', 12345678901234567890n],
  ['date', new Date(Date.UTC(2021, 5, 7, 8, 9, 10, 11))],
  ['date before year 1', new Date(Date.UTC(-5, 0, 1))],
  ['array of numbers', [1, 2, 3]],
  ['array with null, quotes and backslashes', ['a"b', 'c\\d', null, 'plain']],
  ['nested array', [[1, 2], [3, null]]],
  ['array of dates and bytes', [new Date(0), Buffer.from([0xde, 0xad])]],
  ['object as JSON', { a: 1, b: ['x'] }],
  ['toPostgres', { toPostgres: () => '(1,2)' }],
  ['toPostgres returning an array', { toPostgres: () => [1, 2] }]
]

for (const [name, value] of cases) {
  test(`${name}: the text node-postgres sends`, () => {
    assert.equal(parameterText(value), pgUtils.prepareValue(value))
  })
}

test('bytes stay bytes (the writer sends them as bytea hex); typed arrays become bytes; null stays null', () => {
  const b = Buffer.from([1, 2, 255])
  assert.equal(parameterText(b), b)
  assert.deepEqual(parameterText(new Uint8Array([7, 8])), Buffer.from([7, 8]))
  assert.equal(parameterText(null), null)
  assert.equal(parameterText(undefined), null)
})

test('array literal and date text by hand', () => {
  assert.equal(arrayLiteral(['x y', null, ['"']]), '{"x y",NULL,{"\\""}}')
  const d = new Date(2020, 0, 2, 3, 4, 5, 6) // local time
  const off = -d.getTimezoneOffset()
  const sign = off < 0 ? '-' : '+'
  const hh = String(Math.floor(Math.abs(off) / 60)).padStart(2, '0')
  const mm = String(Math.abs(off) % 60).padStart(2, '0')
  assert.equal(dateText(d), `2020-01-02T03:04:05.006${sign}${hh}:${mm}`)
  assert.equal(dateText(new Date(NaN)), 'Invalid Date')
})

test('a toPostgres that returns itself is a cycle, refused', () => {
  const o = { toPostgres () { return o } }
  assert.throws(() => parameterText(o), /circular/)
})

test('the writer puts these texts in Bind: a bytea as \\x hex, a date as its text', () => {
  const w = new MessageWriter(64)
  const d = new Date(Date.UTC(2021, 5, 7))
  w.bindExecute(bindPrefix(''), [Buffer.from([0xab]), d, true], false, false)
  const bytes = Buffer.from(w.take())
  const text = bytes.toString('latin1')
  assert.ok(text.includes('\\xab'))
  assert.ok(text.includes(dateText(d)))
  assert.ok(text.includes('true'))
})
