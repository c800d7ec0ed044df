import { test } from 'node:test'
import assert from 'node:assert/strict'
import { TextPool, generateUnit, loadPhases, expectedRows, cents, unitLines } from '../../../workloads/tpcc/generator.js'
import { FastRandom } from '../../../workloads/tpcc/fast-random.js'

const load = { seed: 5n, cLoad: 77, pool: new TextPool(5n), timestamp: '2026-01-01 00:00:00' }

test('units are deterministic: same seed and unit, same rows; another seed, other rows', () => {
  const a = generateUnit({ kind: 'customer', w: 2, d: 3 }, load)
  const b = generateUnit({ kind: 'customer', w: 2, d: 3 }, load)
  assert.deepEqual(unitLines(a, 'customer'), unitLines(b, 'customer'))
  assert.equal(unitLines(a, 'customer').length, 3000)
  assert.equal(unitLines(a, 'history').length, 3000)
  const other = { ...load, seed: 6n, pool: new TextPool(6n) }
  assert.notDeepEqual(unitLines(generateUnit({ kind: 'customer', w: 2, d: 3 }, other), 'customer'), unitLines(a, 'customer'))
})

test('an orders unit: 3000 orders, 900 new orders from 2101, 5..15 lines each, delivered ones with amount 0', () => {
  const rows = generateUnit({ kind: 'orders', w: 1, d: 4 }, load)
  const orders = unitLines(rows, 'orders').map(l => l.split('\t'))
  assert.equal(orders.length, 3000)
  assert.deepEqual(orders.map(o => Number(o[3])).sort((x, y) => x - y), Array.from({ length: 3000 }, (_, i) => i + 1))
  assert.equal(unitLines(rows, 'new_order').length, 900)
  assert.equal(unitLines(rows, 'new_order')[0], '2101\t4\t1')
  const lines = unitLines(rows, 'order_line').map(l => l.split('\t'))
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

test('RowWriter writes numbers and fields as COPY text, across chunk boundaries', async () => {
  const { RowWriter } = await import('../../../workloads/tpcc/row-writer.js')
  const w = new RowWriter()
  w.row(); w.int(0); w.tab(); w.int(9); w.tab(); w.int(10); w.tab(); w.int(1234567); w.tab()
  w.cents(1); w.tab(); w.cents(999999); w.tab(); w.cents(1200); w.tab(); w.fraction4(0); w.tab(); w.fraction4(2000); w.tab(); w.fraction4(5); w.newline()
  for (let i = 0; i < 100000; i++) { w.row(); w.int(i); w.tab(); w.padded(i % 100, 2); w.newline() }
  const chunks = w.finish()
  assert.ok(chunks.length > 1)
  const lines = Buffer.concat(chunks).toString('latin1').split('\n')
  assert.equal(lines[0], '0\t9\t10\t1234567\t0.01\t9999.99\t12.00\t0.0000\t0.2000\t0.0005')
  assert.equal(lines[100000], '99999\t99')
  assert.equal(lines[8], '7\t07')
  assert.equal(lines.length, 100002)
})
