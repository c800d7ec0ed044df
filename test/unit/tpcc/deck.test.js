import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Prng } from '../../../lib/random/prng.js'
import { Deck, STANDARD_DECK, weightedDraw } from '../../../workloads/tpcc/deck.js'
import { TYPES } from '../../../workloads/tpcc/defaults.js'

test('the standard deck has 23 cards: 10 New-Order, 10 Payment, 1 of each other type', () => {
  assert.equal(STANDARD_DECK.length, 23)
  assert.deepEqual(TYPES.map((_, i) => STANDARD_DECK.filter(c => c === i).length), [10, 10, 1, 1, 1])
})

test('every run of 23 draws is exactly the 10/10/1/1/1 mix, in a shuffled order', () => {
  const r = Prng.fromSeed(9)
  const deck = new Deck()
  const orders = new Set()
  for (let round = 0; round < 200; round++) {
    const hand = Array.from({ length: 23 }, () => deck.draw(r))
    assert.deepEqual(TYPES.map((_, i) => hand.filter(c => c === i).length), [10, 10, 1, 1, 1])
    orders.add(hand.join(''))
  }
  assert.ok(orders.size > 190, 'decks should be reshuffled differently')
})

test('terminals with different generators get different orders', () => {
  const a = new Deck(); const b = new Deck()
  const ra = Prng.fromSeed(1); const rb = Prng.fromSeed(2)
  const ha = Array.from({ length: 23 }, () => a.draw(ra)).join('')
  const hb = Array.from({ length: 23 }, () => b.draw(rb)).join('')
  assert.notEqual(ha, hb)
})

test('weightedDraw follows the weights of a custom mix', () => {
  const r = Prng.fromSeed(4)
  const cum = Float64Array.from([50, 90, 94, 97, 100])
  const n = 100000
  const counts = [0, 0, 0, 0, 0]
  for (let i = 0; i < n; i++) counts[weightedDraw(r, cum)]++
  const expected = [50, 40, 4, 3, 3]
  counts.forEach((c, i) => assert.ok(Math.abs(100 * c / n - expected[i]) < 0.6, `type ${i}: ${100 * c / n} % vs ${expected[i]} %`))
})

test('a paced terminal starts at a random card of its first deck, then deals whole decks', () => {
  const r = Prng.fromSeed(4)
  const starts = new Set()
  for (let t = 0; t < 300; t++) {
    const deck = new Deck().startAtRandomCard(r)
    const first = 23 - deck.pos
    assert.ok(first >= 1 && first <= 23)
    starts.add(deck.pos)
    const partial = Array.from({ length: first }, () => deck.draw(r))
    assert.equal(deck.pos, 23, 'the first deck runs out after its remaining cards')
    assert.ok(partial.every(c => c >= 0 && c < TYPES.length))
    const hand = Array.from({ length: 23 }, () => deck.draw(r))
    assert.deepEqual(TYPES.map((_, i) => hand.filter(c => c === i).length), [10, 10, 1, 1, 1])
  }
  assert.equal(starts.size, 23, 'every starting card occurs')
})
