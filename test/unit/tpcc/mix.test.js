import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parseMix } from '../../../workloads/tpcc/mix.js'

test('no --mix: the standard mix', () => {
  const { mix, standard } = parseMix(undefined)
  assert.equal(standard, true)
  assert.deepEqual(mix, { 'new-order': 45, payment: 43, 'order-status': 4, delivery: 4, 'stock-level': 4 })
})

test('a valid custom mix, positional or by name', () => {
  assert.deepEqual(parseMix('41,47,4,4,4').mix, { 'new-order': 41, payment: 47, 'order-status': 4, delivery: 4, 'stock-level': 4 })
  const { mix, standard } = parseMix('payment=44, new-order=44, os=4, delivery=4, sl=4')
  assert.equal(standard, false)
  assert.equal(mix.payment, 44)
  assert.equal(mix['order-status'], 4)
})

test('a mix that does not add up to 100 is refused, even with --allow-nonstandard-mix', () => {
  assert.throws(() => parseMix('45,43,4,4,5'), /--mix must add up to 100, got 101/)
  assert.throws(() => parseMix('45,43,4,4,5', { allowNonstandard: true }), /add up to 100/)
  assert.throws(() => parseMix('45,43,4,4'), /needs 5 percentages/)
  assert.throws(() => parseMix('45,43,x,4,4'), /not a percentage/)
  assert.throws(() => parseMix('foo=100'), /unknown transaction type/)
})

test('a mix below the clause 5.2.3 minimums needs --allow-nonstandard-mix', () => {
  assert.throws(() => parseMix('50,42,4,2,2'), /breaks the TPC-C minimums.*payment 42 % < 43 %.*delivery 2 % < 4 %/)
  assert.equal(parseMix('50,42,4,2,2', { allowNonstandard: true }).mix.delivery, 2)
  assert.equal(parseMix('100,0,0,0,0', { allowNonstandard: true }).mix['new-order'], 100)
})
