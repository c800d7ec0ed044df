// The checksum of a query's answer: the same rows give the same checksum, in any order unless the
// query orders them; float noise and the load's timestamps do not move it; any other change does.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { answerChecksum, AnswerTally } from '../../../workloads/chbench/answers.js'

const rows = [['1', 'Germany', '12.50000000000000001'], ['2', 'France', null], ['3', 'Spain', '-0.00001']]

test('unordered: the rows\' order does not matter, a row twice does', () => {
  const c = answerChecksum(rows, false)
  assert.match(c, /^[0-9a-f]{16}$/)
  assert.equal(answerChecksum([rows[2], rows[0], rows[1]], false), c)
  assert.notEqual(answerChecksum([...rows, rows[0]], false), c)
  assert.notEqual(answerChecksum(rows.slice(1), false), c)
})

test('ordered: the order is part of the answer', () => {
  assert.notEqual(answerChecksum([rows[1], rows[0], rows[2]], true), answerChecksum(rows, true))
  assert.equal(answerChecksum(rows.map((r) => [...r]), true), answerChecksum(rows, true))
})

test('decimals compare at four places; a changed value, a NULL or a value moved to the next column do not', () => {
  const c = answerChecksum(rows, true)
  assert.equal(answerChecksum([rows[0].with(2, '12.5'), rows[1], rows[2].with(2, '0.00002')], true), c)
  assert.notEqual(answerChecksum([rows[0].with(2, '12.51'), rows[1], rows[2]], true), c)
  assert.notEqual(answerChecksum([rows[0], rows[1].with(2, ''), rows[2]], true), c)
  assert.notEqual(answerChecksum([['1', 'Germany1', '2.5'], rows[1], rows[2]], true), answerChecksum([['1Germany', '1', '2.5'], rows[1], rows[2]], true))
})

test('timestamps (the load\'s clock, not the seed) are left out', () => {
  const at = (ts) => answerChecksum([['7', ts]], true)
  assert.equal(at('2026-11-28 13:00:01.123'), at('2027-01-01 00:00:00'))
  assert.notEqual(at('2026-11-28 13:00:01'), answerChecksum([['8', '2026-11-28 13:00:01']], true))
})

test('the tally: the first checksum, how many agreed, the differing ones', () => {
  const t = new AnswerTally()
  for (const c of ['a', 'a', 'b', 'a', 'c', 'b']) t.record('q1', c)
  assert.deepEqual(t.answer('q1', true), { checksum: 'a', agreed: 3, differing: [{ checksum: 'b', count: 2 }, { checksum: 'c', count: 1 }], checked: true })
  assert.equal(t.answer('q2', true), null)
})
