import { test } from 'node:test'
import assert from 'node:assert/strict'
import { deriveSeeds } from '../../../lib/random/seeding.js'
import { exponentialRand, gaussianRand, poissonDelayUs, zipfianRand } from '../../../lib/random/distributions.js'
import { hashFnv1a, hashMurmur2 } from '../../../lib/random/hash.js'
import { permute } from '../../../lib/random/permute.js'
import { Prng } from '../../../lib/random/prng.js'

test('seed 5432: the values pgbench inserts in its seeded-random test', () => {
  const p = deriveSeeds(5432n, 1).clientPrngs[0]
  assert.deepEqual([p.int(1000, 1999), exponentialRand(p, 2000, 2999, 2.0), gaussianRand(p, 3000, 3999, 3.0), zipfianRand(p, 4000, 4999, 1.5)],
    [1836, 2246, 3348, 4003])
})

test('distributions stay in range, wide ranges use BigInt', () => {
  const p = Prng.fromSeed(3)
  for (let i = 0; i < 2000; i++) {
    const e = exponentialRand(p, -5, 5, 0.5)
    const g = gaussianRand(p, 1, 3, 2.0)
    const z = zipfianRand(p, 10, 12, 1.001)
    assert.ok(e >= -5 && e <= 5 && g >= 1 && g <= 3 && z >= 10 && z <= 12)
  }
  const big = exponentialRand(p, -(2n ** 62n), 2n ** 62n, 1.0)
  assert.ok(typeof big === 'bigint' || Number.isSafeInteger(big))
  assert.equal(zipfianRand(p, 7, 7, 2.0), 7)
  const d = poissonDelayUs(Prng.fromSeed(1), 1000)
  assert.ok(Number.isInteger(d) && d >= 0)
})

test('hashes: pgbench\'s values, arithmetic shifts on negative input', () => {
  assert.equal(hashMurmur2(10n, 5432n), -5817877081768721676n)
  assert.equal(hashFnv1a(10n, 5432n), -7793829335365542153n)
  assert.equal(hashMurmur2(10, 7590783070443337668n), 4313776982099445391n)
  assert.equal(typeof hashFnv1a(-1, 0), 'bigint')
})

test('permute: a bijection of [0, size) with pgbench\'s values at the largest sizes', () => {
  for (const size of [1, 2, 3, 7, 16, 100]) {
    const seen = new Set()
    for (let i = 0; i < size; i++) seen.add(permute(i, size, 42))
    assert.equal(seen.size, size)
    assert.ok([...seen].every((v) => v >= 0n && v < BigInt(size)))
  }
  const size = 9223372036854775797n
  assert.equal(permute(size - 1n, size, 5432), 520382784483822430n)
  assert.equal(permute(size - 6n, size, 5432), 8648551549198294572n)
  assert.equal(permute(0, 2, 5431), 0n)
  assert.equal(permute(0, 2, 5433), 1n)
  assert.equal(permute(-1, 10, 1), permute(18446744073709551615n % 10n, 10, 1))
})
