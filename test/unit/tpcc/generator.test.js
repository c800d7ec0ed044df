import { test } from 'node:test'
import assert from 'node:assert/strict'
import { TextPool, generateUnit, loadPhases, expectedRows, cents } from '../../../workloads/tpcc/generator.js'
import { FastRandom } from '../../../workloads/tpcc/fast-random.js'

const load = { seed: 5n, cLoad: 77, pool: new TextPool(5n), timestamp: '2026-01-01 00:00:00' }

test('units are deterministic: same seed and unit, same rows; another seed, other rows', () => {
  const a = generateUnit({ kind: 'customer', w: 2, d: 3 }, load)
  const b = generateUnit({ kind: 'customer', w: 2, d: 3 }, load)
  assert.deepEqual(a.tables.get('customer'), b.tables.get('customer'))
  const other = { ...load, seed: 6n, pool: new TextPool(6n) }
  assert.notDeepEqual(generateUnit({ kind: 'customer', w: 2, d: 3 }, other).tables.get('customer'), a.tables.get('customer'))
})

test('an orders unit: 3000 orders, 900 new orders from 2101, 5..15 lines each, delivered ones with amount 0', () => {
  const rows = generateUnit({ kind: 'orders', w: 1, d: 4 }, load)
  const orders = rows.tables.get('orders').map(l => l.split('\t'))
  assert.equal(orders.length, 3000)
  assert.deepEqual(orders.map(o => Number(o[3])).sort((x, y) => x - y), Array.from({ length: 3000 }, (_, i) => i + 1))
  assert.equal(rows.tables.get('new_order').length, 900)
  assert.equal(rows.tables.get('new_order')[0], '2101\t4\t1')
  const lines = rows.tables.get('order_line').map(l => l.split('\t'))
  assert.equal(lines.length, orders.reduce((s, o) => s + Number(o[6]), 0))
  for (const l of lines) {
    assert.equal(l.length, 10)
    if (Number(l[0]) < 2101) assert.equal(l[8], '0.00')
    else assert.equal(l[6], '\\N')
  }
})

test('phases cover every unit once; the expected row total', () => {
  const phases = loadPhases(3)
  assert.deepEqual(phases.map(p => p.units.length), [10, 3, 30, 30, 30])
  assert.equal(expectedRows(1), 100000 + 100000 + 11 + 60000 + 30000 + 9000 + 300000)
})

test('cents formatting and the fast generator range', () => {
  assert.deepEqual([cents(1), cents(100), cents(999999), cents(1234)], ['0.01', '1.00', '9999.99', '12.34'])
  const r = FastRandom.fromKeys(1n, 2, 3)
  let min = Infinity; let max = -Infinity
  for (let i = 0; i < 100000; i++) { const v = r.int(5, 15); min = Math.min(min, v); max = Math.max(max, v) }
  assert.deepEqual([min, max], [5, 15])
})
