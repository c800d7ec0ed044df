import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Prng } from '../../../lib/random/prng.js'
import { newOrderInput, UNUSED_ITEM } from '../../../workloads/tpcc/transactions/new-order.js'
import { paymentInput } from '../../../workloads/tpcc/transactions/payment.js'
import { orderStatusInput } from '../../../workloads/tpcc/transactions/order-status.js'
import { deliveryInput } from '../../../workloads/tpcc/transactions/delivery.js'
import { stockLevelInput } from '../../../workloads/tpcc/transactions/stock-level.js'
import { middleIndex, otherWarehouse, toCents, fromCents } from '../../../workloads/tpcc/transactions/common.js'
import { LAST_NAMES } from '../../../workloads/tpcc/nurand.js'
import { terminalHome, defaultConnections } from '../../../workloads/tpcc/workload.js'

const shared = (warehouses) => ({ warehouses, c: { cLast: 100, cId: 500, olIId: 4000 } })
const N = 100000

test('New-Order: 5..15 lines, items in range, quantities 1..10, 1 % rollbacks with the unused item on the last line', () => {
  const r = Prng.fromSeed(21)
  const state = { w: 3, d: 7 }
  let rollbacks = 0; let lines = 0; let remote = 0; let allLocal = 0
  const olCnt = new Set()
  const districts = new Set()
  for (let i = 0; i < N; i++) {
    const inp = newOrderInput(r, state, shared(10))
    assert.equal(inp.w, 3)
    districts.add(inp.d)
    assert.ok(inp.cId >= 1 && inp.cId <= 3000)
    assert.equal(inp.lines.length, inp.olCnt)
    olCnt.add(inp.olCnt)
    if (inp.rollback) {
      rollbacks++
      assert.equal(inp.lines[inp.olCnt - 1].iId, UNUSED_ITEM)
    }
    for (const [k, l] of inp.lines.entries()) {
      if (!(inp.rollback && k === inp.olCnt - 1)) assert.ok(l.iId >= 1 && l.iId <= 100000)
      assert.ok(l.quantity >= 1 && l.quantity <= 10)
      assert.ok(l.supplyW >= 1 && l.supplyW <= 10)
      lines++
      if (l.supplyW !== 3) remote++
    }
    assert.equal(inp.allLocal, inp.lines.every(l => l.supplyW === 3) ? 1 : 0)
    allLocal += inp.allLocal
  }
  assert.deepEqual([...olCnt].sort((a, b) => a - b), [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15])
  assert.equal(districts.size, 10)
  assert.ok(Math.abs(100 * rollbacks / N - 1) < 0.15, `rollbacks ${100 * rollbacks / N} %`)
  assert.ok(Math.abs(100 * remote / lines - 1) < 0.1, `remote lines ${100 * remote / lines} %`)
  assert.ok(Math.abs(100 * allLocal / N - 90.4) < 1, `fully local orders ${100 * allLocal / N} %`)
})

test('New-Order with one warehouse never uses a remote supply warehouse', () => {
  const r = Prng.fromSeed(22)
  for (let i = 0; i < 20000; i++) {
    const inp = newOrderInput(r, { w: 1, d: 1 }, shared(1))
    assert.ok(inp.lines.every(l => l.supplyW === 1))
    assert.equal(inp.allLocal, 1)
  }
})

test('Payment: 15 % remote customers, 60 % by last name, amounts 1.00..5000.00', () => {
  const r = Prng.fromSeed(23)
  let remote = 0; let byName = 0; let minA = Infinity; let maxA = 0
  for (let i = 0; i < N; i++) {
    const inp = paymentInput(r, { w: 2, d: 5 }, shared(4))
    assert.equal(inp.w, 2)
    assert.ok(inp.d >= 1 && inp.d <= 10 && inp.cD >= 1 && inp.cD <= 10)
    if (inp.cW !== 2) remote++
    else assert.equal(inp.cD, inp.d)
    if (inp.byName) {
      byName++
      assert.ok(LAST_NAMES.includes(inp.cLast))
    } else {
      assert.ok(inp.cId >= 1 && inp.cId <= 3000)
    }
    minA = Math.min(minA, inp.amountCents); maxA = Math.max(maxA, inp.amountCents)
  }
  assert.ok(Math.abs(100 * remote / N - 15) < 0.5, `remote ${100 * remote / N} %`)
  assert.ok(Math.abs(100 * byName / N - 60) < 0.6, `by name ${100 * byName / N} %`)
  assert.ok(minA >= 100 && minA < 200 && maxA <= 500000 && maxA > 499000)
})

test('Payment with one warehouse keeps every customer home', () => {
  const r = Prng.fromSeed(24)
  for (let i = 0; i < 20000; i++) assert.equal(paymentInput(r, { w: 1, d: 1 }, shared(1)).cW, 1)
})

test('Order-Status: 60 % by last name, home warehouse, random district', () => {
  const r = Prng.fromSeed(25)
  let byName = 0
  for (let i = 0; i < N; i++) {
    const inp = orderStatusInput(r, { w: 4, d: 2 }, shared(4))
    assert.equal(inp.w, 4)
    assert.ok(inp.d >= 1 && inp.d <= 10)
    if (inp.byName) byName++
  }
  assert.ok(Math.abs(100 * byName / N - 60) < 0.6)
})

test('Delivery carrier 1..10; Stock-Level uses the terminal district and a threshold 10..20', () => {
  const r = Prng.fromSeed(26)
  const carriers = new Set(); const thresholds = new Set()
  for (let i = 0; i < 10000; i++) {
    const d = deliveryInput(r, { w: 5, d: 3 })
    assert.equal(d.w, 5)
    carriers.add(d.carrier)
    const s = stockLevelInput(r, { w: 5, d: 3 })
    assert.equal(s.w, 5); assert.equal(s.d, 3)
    thresholds.add(s.threshold)
  }
  assert.deepEqual([...carriers].sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
  assert.deepEqual([...thresholds].sort((a, b) => a - b), [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20])
})

test('inputs replay exactly from a saved generator state (the engine retries this way)', () => {
  const r = Prng.fromSeed(27)
  const saved = r.getState()
  const a = newOrderInput(r, { w: 1, d: 1 }, shared(3))
  r.setState(saved)
  assert.deepEqual(newOrderInput(r, { w: 1, d: 1 }, shared(3)), a)
})

test('helpers: middle row by name, other warehouse, cents, terminal binding, pool size', () => {
  assert.deepEqual([1, 2, 3, 4, 5].map(middleIndex), [0, 0, 1, 1, 2])
  const r = Prng.fromSeed(28)
  const seen = new Set()
  for (let i = 0; i < 1000; i++) { const w = otherWarehouse(r, 2, 3); assert.notEqual(w, 2); seen.add(w) }
  assert.deepEqual([...seen].sort(), [1, 3])
  assert.equal(otherWarehouse(r, 1, 1), 1)
  assert.equal(toCents('12.34'), 1234); assert.equal(toCents('-10.00'), -1000); assert.equal(toCents('7.5'), 750)
  assert.equal(fromCents(1234), '12.34'); assert.equal(fromCents(5), '0.05'); assert.equal(fromCents(-1000), '-10.00')
  assert.deepEqual(terminalHome(0), { w: 1, d: 1 })
  assert.deepEqual(terminalHome(9), { w: 1, d: 10 })
  assert.deepEqual(terminalHome(10), { w: 2, d: 1 })
  assert.deepEqual(terminalHome(999), { w: 100, d: 10 })
  assert.equal(defaultConnections(1000, true, 100), 50)
  assert.equal(defaultConnections(10, true, 1), 4)
  assert.equal(defaultConnections(10, false, 1), 10)
  assert.equal(defaultConnections(1000, false, 100), 64)
})

test('toCents reads a price digit by digit, as Number reads the text, without making substrings', () => {
  // the rule as text: the sign, the whole part and the first two decimals, each as Number reads it
  const byText = (s) => {
    const neg = s[0] === '-'
    const [i, f = '0'] = (neg ? s.slice(1) : s).split('.')
    const c = Number(i) * 100 + Number((f + '00').slice(0, 2))
    return neg ? -c : c
  }
  const texts = ['12.34', '-10.00', '7.5', '0', '5', '.5', '-.05', '123', '1.2345', '', '-0.00', '99999.99',
    '+1.5', ' 1.5', '1e2', '1.5.3', '1.x', '-', '.', '0.07', '100000']
  for (const s of texts) assert.ok(Object.is(toCents(s), byText(s)), `${JSON.stringify(s)}: ${toCents(s)} against ${byText(s)}`)
  for (let k = 0; k < 2000; k++) {
    const s = ((k * 7919) % 1000000 / 100).toFixed(2)
    assert.equal(toCents(s), byText(s), s)
  }
  // V8 interns every two-character substring (a string-table lookup per New-Order line's price)
  const { split, slice } = String.prototype
  const refuse = () => { throw new Error('substring made') }
  String.prototype.split = refuse // eslint-disable-line no-extend-native
  String.prototype.slice = refuse // eslint-disable-line no-extend-native
  try {
    assert.equal(toCents('12.34'), 1234)
    assert.equal(toCents('-3.5'), -350)
  } finally {
    String.prototype.split = split // eslint-disable-line no-extend-native
    String.prototype.slice = slice // eslint-disable-line no-extend-native
  }
})
