import { test } from 'node:test'
import assert from 'node:assert/strict'
import { wholeRange, splitRange, checkParts, shareOf, sharesOf, rateShare } from '../../../lib/plan/partition.js'

const parts = (range, n, opts) => Array.from({ length: n }, (_, i) => splitRange(range, n, i, opts))

test('parts are contiguous, cover every terminal once, and differ by at most one', () => {
  for (const total of [1, 7, 8, 100, 1001]) {
    for (const n of [1, 2, 3, 4, 7]) {
      if (n > total) continue
      const ps = parts(wholeRange(total), n)
      assert.equal(ps[0].first, 0)
      for (let i = 1; i < n; i++) assert.equal(ps[i].first, ps[i - 1].first + ps[i - 1].count)
      assert.equal(ps.reduce((s, p) => s + p.count, 0), total)
      const counts = ps.map((p) => p.count)
      assert.ok(Math.max(...counts) - Math.min(...counts) <= 1, `${total} over ${n}: ${counts}`)
      assert.ok(ps.every((p) => p.total === total))
    }
  }
})

test('whole groups stay together (a TPC-C warehouse\'s 10 terminals)', () => {
  const ps = parts(wholeRange(70), 3, { group: 10 })
  assert.deepEqual(ps.map((p) => [p.first, p.count]), [[0, 20], [20, 20], [40, 30]])
  assert.ok(ps.every((p) => p.first % 10 === 0 && p.count % 10 === 0))
})

test('a part of a part: a shard split over worker threads keeps global numbers', () => {
  const shard = splitRange(wholeRange(100), 4, 2)
  assert.deepEqual(shard, { first: 50, count: 25, total: 100 })
  const workers = parts(shard, 2)
  assert.deepEqual(workers.map((p) => [p.first, p.count]), [[50, 12], [62, 13]])
})

test('more parts than groups: an empty part, refused by checkParts in one line', () => {
  const ps = parts(wholeRange(20), 3, { group: 10 })
  assert.equal(ps.filter((p) => p.count === 0).length, 1)
  assert.throws(() => checkParts(wholeRange(20), 3, { group: 10, what: '--shards 3', unit: 'warehouses' }),
    { message: '--shards 3 needs at least 3 warehouses, the run has 2' })
  checkParts(wholeRange(30), 3, { group: 10, what: '--shards 3' })
  assert.throws(() => splitRange(wholeRange(10), 2, 2), RangeError)
})

test('connections are shared in proportion and sum to the amount', () => {
  for (const [amount, total, n] of [[8, 8, 2], [10, 7, 3], [5, 100, 4], [33, 1000, 7]]) {
    const ps = parts(wholeRange(total), n)
    const shares = ps.map((p, i) => shareOf(amount, ps, i))
    assert.equal(shares.reduce((s, x) => s + x, 0), Math.min(amount, total), `${amount} over ${n}: ${shares}`)
    assert.ok(Math.max(...shares) - Math.min(...shares) <= 1 || amount > total)
  }
  const ps = parts(wholeRange(4), 4)
  assert.deepEqual(ps.map((p, i) => shareOf(2, ps, i)), [1, 1, 1, 1], 'every part with terminals gets a connection')
})

test('rate shares sum to the rate; no rate stays no rate', () => {
  const ps = parts(wholeRange(9), 2)
  assert.equal(ps.reduce((s, p) => s + rateShare(1000, p), 0), 1000)
  assert.equal(rateShare(0, ps[0]), 0)
})

test('every part\'s share at once reads each part a bounded number of times (-j 100000 spun for minutes)', () => {
  const n = 100000
  let reads = 0
  const ranges = parts(wholeRange(n), n).map((r) => ({ first: r.first, total: r.total, get count () { reads++; return 1 } }))
  const shares = sharesOf(n / 2, ranges)
  assert.equal(shares.length, n)
  // with fewer connections than parts, each part with terminals still gets one: the sum is n
  assert.equal(shares.reduce((s, x) => s + x, 0), n)
  assert.ok(reads <= 2 * n, `${reads} reads of ${n} parts`)
  // the same answer as one part at a time
  const small = parts(wholeRange(1000), 7)
  assert.deepEqual(sharesOf(33, small), small.map((_, i) => shareOf(33, small, i)))
})
