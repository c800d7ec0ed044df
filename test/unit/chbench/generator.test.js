// CH-benCHmark's fixed rows and generated suppliers: the shapes its queries rely on.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { chbenchRows, SUPPLIERS } from '../../../workloads/chbench/generator.js'
import { NATIONS, NATION_KEYS, REGIONS } from '../../../workloads/chbench/nations.js'
import { CH_QUERIES } from '../../../workloads/chbench/queries.js'

const lines = (text) => text.split('\n').filter(Boolean).map((l) => l.split('\t'))

test('a nation for each character a TPC-C state can begin with, in five regions', () => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
  assert.deepEqual([...NATION_KEYS].sort((a, b) => a - b), [...alphabet].map((c) => c.charCodeAt(0)).sort((a, b) => a - b))
  assert.equal(new Set(NATIONS.map(([, name]) => name)).size, 62)
  const regionKeys = new Set(REGIONS.map(([k]) => k))
  assert.ok(NATIONS.every(([, , r]) => regionKeys.has(r)))
  // the names the queries ask for
  for (const name of ['Germany', 'Cambodia']) assert.ok(NATIONS.some(([, n]) => n === name), name)
  assert.ok(REGIONS.some(([, n]) => n === 'Europe'))
})

test('suppliers: one per stock-to-supplier key, fitting their columns, the same for the same seed', () => {
  const a = chbenchRows(42n)
  const rows = lines(a.supplier)
  assert.equal(rows.length, SUPPLIERS)
  assert.deepEqual(rows.map((r) => Number(r[0])), Array.from({ length: SUPPLIERS }, (_, i) => i))
  const nationKeys = new Set(NATION_KEYS)
  for (const [, name, address, nation, phone, acctbal, comment] of rows) {
    assert.ok(name.length <= 25 && address.length >= 10 && address.length <= 40 && comment.length <= 101)
    assert.ok(nationKeys.has(Number(nation)))
    assert.match(phone, /^\d\d-\d{3}-\d{3}-\d{4}$/)
    assert.match(acctbal, /^-?\d{1,4}\.\d\d$/)
  }
  assert.equal(lines(a.region).length, 5)
  assert.equal(lines(a.nation).length, 62)
  assert.deepEqual(chbenchRows('42'), a)
  assert.notDeepEqual(chbenchRows(43n).supplier, a.supplier)
  // the suppliers' nations are spread, not one
  assert.ok(new Set(rows.map((r) => r[3])).size > 50)
})

test('22 queries named q1 ... q22, read-only', () => {
  assert.deepEqual(CH_QUERIES.map((q) => q.name), Array.from({ length: 22 }, (_, i) => `q${i + 1}`))
  for (const q of CH_QUERIES) {
    assert.match(q.sql, /^(select|with)\b/i, q.name)
    assert.doesNotMatch(q.sql, /\b(insert|update|delete|create|drop)\b/i, q.name)
  }
})
