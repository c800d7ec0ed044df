import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parseList, parseAxes, cellsOf, runFileName, cellText, cellKey, sizeAxis } from '../../../lib/sweep/axes.js'

test('a comma list becomes its numbers, ascending; one value is a list of one', () => {
  assert.deepEqual(parseList('4,1,2', '--clients'), [1, 2, 4])
  assert.deepEqual(parseList(' 8 , 16 ', '--clients'), [8, 16])
  assert.deepEqual(parseList('64', '--clients'), [64])
  assert.deepEqual(parseList(['1', '2'], '--clients'), [1, 2], 'a flag given twice')
  assert.deepEqual(parseList('1000,2500.5', '--rate', { integer: false, min: 0, exclusiveMin: true }), [1000, 2500.5])
  assert.equal(parseList(undefined, '--clients'), null)
})

test('a bad list is one line naming the flag and what was typed', () => {
  const cases = [
    ['1,,2', '--clients', /^--clients must be a comma-separated list of integers >= 1, got "1,,2"$/],
    ['0,1', '--clients', /^--clients must be a comma-separated list of integers >= 1, got "0,1"$/],
    ['1,2.5', '--clients', /integers >= 1, got "1,2.5"/],
    ['a', '--scale', /^--scale must be a comma-separated list/],
    ['1,2,', '--scale', /got "1,2,"/],
    ['', '--scale', /got ""/],
    ['1,2,1', '--clients', /^--clients lists 1 twice, got "1,2,1"$/]
  ]
  for (const [value, flag, message] of cases) {
    assert.throws(() => parseList(value, flag), (err) => err.code === 'BAD_OPTION' && message.test(err.message) && !err.message.includes('\n'), value)
  }
  assert.throws(() => parseList('0,100', '--rate', { integer: false, min: 0, exclusiveMin: true }), { message: '--rate must be a comma-separated list of numbers > 0, got "0,100"' })
})

test('the axes of tpcb and scripts have a scale, those of tpcc warehouses', () => {
  assert.equal(sizeAxis('tpcb'), 'scale')
  assert.equal(sizeAxis('tpcc'), 'warehouses')
  assert.deepEqual(parseAxes({ size: '10,1', clients: '2,1' }, 'tpcb'), { scale: [1, 10], clients: [1, 2], rate: null })
  assert.deepEqual(parseAxes({ size: '10', clients: '10,50' }, 'tpcc'), { warehouses: [10], clients: [10, 50], rate: null })
})

test('cells span the grid by size, then clients, then rate', () => {
  const cells = cellsOf({ scale: [1, 10], clients: [1, 2, 4], rate: null })
  assert.equal(cells.length, 6)
  assert.deepEqual(cells[0], { scale: 1, clients: 1, rate: null })
  assert.deepEqual(cells[3], { scale: 10, clients: 1, rate: null })
  assert.deepEqual(cellsOf({ scale: null, clients: [64], rate: [1000, 2000] }), [
    { scale: null, clients: 64, rate: 1000 }, { scale: null, clients: 64, rate: 2000 }
  ])
  assert.deepEqual(cellsOf({ warehouses: [2], clients: null, rate: null }), [{ warehouses: 2, clients: null, rate: null }])
  assert.deepEqual(cellsOf({ scale: null, clients: null, rate: null }), [{ scale: null, clients: null, rate: null }], 'no axis: one cell')
})

test('a run file is named after its cell and repeat; the cell in words for progress lines', () => {
  assert.equal(runFileName({ scale: 1, clients: 4, rate: null }, 2), 's1-c4-r2.json')
  assert.equal(runFileName({ warehouses: 10, clients: 50, rate: null }, 1), 'w10-c50-r1.json')
  assert.equal(runFileName({ scale: null, clients: 64, rate: 1000 }, 3), 'c64-R1000-r3.json')
  assert.equal(runFileName({ scale: null, clients: null, rate: null }, 1), 'r1.json')
  assert.equal(cellText({ scale: 10, clients: 4, rate: null }), 'scale 10, clients 4')
  assert.notEqual(cellKey({ scale: 1, clients: 12, rate: null }), cellKey({ scale: 11, clients: 2, rate: null }))
})
