import { test } from 'node:test'
import assert from 'node:assert/strict'
import { runOrder } from '../../../lib/sweep/order.js'
import { cellsOf, cellKey } from '../../../lib/sweep/axes.js'

const cells = cellsOf({ scale: [1, 10], clients: [1, 2, 4, 8], rate: null })

test('every cell of a scale runs once per round, the rounds one after the other, scales ascending', () => {
  const runs = runOrder(cells, 3, 7)
  assert.equal(runs.length, 24)
  assert.deepEqual(runs.map((r) => r.order), [...Array(24).keys()])
  // scale 1's twelve runs first, then scale 10's
  assert.deepEqual(runs.map((r) => r.cell.scale), [...Array(12).fill(1), ...Array(12).fill(10)])
  for (let round = 0; round < 6; round++) {
    const slice = runs.slice(round * 4, round * 4 + 4)
    assert.deepEqual(new Set(slice.map((r) => cellKey(r.cell))).size, 4, `round ${round} holds each cell once`)
    assert.ok(slice.every((r) => r.repeat === (round % 3) + 1), `round ${round} is one repeat`)
  }
})

test('the rounds are shuffled: not the grid order every time, and never the same cell twice in a row', () => {
  let shuffledRounds = 0
  for (let seed = 1; seed <= 50; seed++) {
    const runs = runOrder(cells, 3, seed)
    for (let i = 1; i < runs.length; i++) assert.notEqual(cellKey(runs[i].cell), cellKey(runs[i - 1].cell), `seed ${seed}, run ${i}`)
    for (let round = 0; round < 6; round++) {
      const clients = runs.slice(round * 4, round * 4 + 4).map((r) => r.cell.clients)
      if (clients.join() !== '1,2,4,8') shuffledRounds++
    }
  }
  // 1 in 24 rounds comes out in grid order by chance
  assert.ok(shuffledRounds > 250, `${shuffledRounds} of 300 rounds shuffled`)
})

test('the same seed gives the same order, another seed another', () => {
  const key = (runs) => runs.map((r) => `${cellKey(r.cell)}#${r.repeat}`).join('|')
  assert.equal(key(runOrder(cells, 3, 42)), key(runOrder(cells, 3, 42)))
  assert.notEqual(key(runOrder(cells, 3, 42)), key(runOrder(cells, 3, 43)))
})

test('one cell repeats on its own; no axis at all is one cell', () => {
  const runs = runOrder(cellsOf({ scale: null, clients: [4], rate: null }), 3, 1)
  assert.deepEqual(runs.map((r) => [r.cell.clients, r.repeat]), [[4, 1], [4, 2], [4, 3]])
})
