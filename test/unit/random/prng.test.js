import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Prng } from '../../../lib/random/prng.js'
import { deriveSeeds, parseRandomSeed, seedAsInt64 } from '../../../lib/random/seeding.js'

// Expected values come from the reference algorithm of pg_prng (reference Appendix A).
test('nextU64 follows xoroshiro128** seeded by splitmix64', () => {
  const p = Prng.fromSeed(5432n)
  assert.deepEqual([p.nextU64(), p.nextU64(), p.nextU64(), p.nextU64(), p.nextU64()],
    [6700983354324037338n, 7590783070443337668n, 7312993047133655103n, 17364174458056748114n, 1556933812974819375n])
  const z = Prng.fromSeed(0)
  assert.deepEqual([z.nextU64(), z.nextU64(), z.nextU64()], [16053376993090331485n, 7868822567099391496n, 12331295923365717130n])
})

test('double() is (next >> 12) * 2^-52', () => {
  const p = Prng.fromSeed((1n << 64n) - 1n)
  assert.deepEqual([p.double(), p.double(), p.double()], [0.11122083114276227, 0.28291943132127106, 0.34415452479894926])
})

test('int() is pg_prng_uint64_range over numbers and BigInt', () => {
  const p = Prng.fromSeed(42)
  const small = []
  for (let i = 0; i < 10; i++) small.push(p.int(0, 9))
  assert.deepEqual(small, [6, 3, 3, 1, 0, 2, 3, 1, 9, 2])
  assert.deepEqual([p.int(0, 2 ** 60), p.int(0, 2 ** 60), p.int(0, 2 ** 60)],
    [619356263710985002n, 68953505090925963n, 14858147746402553n])
  assert.deepEqual([p.int(0, 2 ** 53 - 2), p.int(0, 2 ** 53 - 2), p.int(0, 2 ** 53 - 2)],
    [486057517140754, 2549220013811882, 8883113762046693])
  // empty range draws nothing
  const a = Prng.fromSeed(1)
  const b = Prng.fromSeed(1)
  assert.equal(a.int(5, 5), 5)
  assert.equal(a.nextU64(), b.nextU64())
})

test('int() with number and BigInt bounds agree', () => {
  const a = Prng.fromSeed(7)
  const b = Prng.fromSeed(7)
  for (let i = 0; i < 200; i++) {
    assert.equal(BigInt(a.int(-5000, 5000)), b.int(-5000n, 5000n))
    assert.equal(BigInt(a.int(1, 100000 * 37)), b.bigInt(1n, 3700000n))
  }
  const c = Prng.fromSeed(9)
  const v = c.int(-(2n ** 63n), 2n ** 63n - 1n)
  assert.equal(typeof v, 'bigint')
  assert.ok(v >= -(2n ** 63n) && v < 2n ** 63n)
})

test('getState/setState replays the same draws', () => {
  const p = Prng.fromSeed(123)
  p.double()
  const saved = p.getState()
  const first = [p.int(1, 100000), p.double(), p.normal()]
  p.setState(saved)
  assert.deepEqual([p.int(1, 100000), p.double(), p.normal()], first)
  const out = [0, 0, 0, 0]
  assert.equal(p.getState(out), out)
  const q = p.clone()
  assert.equal(q.nextU64(), p.nextU64())
})

test('deriveSeeds: seed 5432 gives client 0 random(10,19) = 17 and pgbench default_seed', () => {
  const s = deriveSeeds(5432n, 1)
  assert.equal(s.clientPrngs[0].int(10, 19), 17)
  assert.equal(s.defaultSeed, 7590783070443337668n)
  const three = deriveSeeds(5432n, 3)
  assert.deepEqual(three.clientPrngs.map(p => p.int(10, 19)), [17, 17, 14])
  assert.equal(three.defaultSeed, -1082569615652803502n)
  // with -D default_seed, nothing is drawn for it: choose takes its place
  const noDefault = deriveSeeds(5432n, 1, { drawDefaultSeed: false })
  assert.equal(noDefault.defaultSeed, undefined)
  assert.equal(noDefault.choose.nextU64(), Prng.fromSeed(7590783070443337668n).nextU64())
})

test('parseRandomSeed accepts time, rand and unsigned integers as pgbench', () => {
  assert.equal(parseRandomSeed('5432'), 5432n)
  assert.equal(parseRandomSeed(' +7'), 7n)
  assert.equal(parseRandomSeed('-1'), (1n << 64n) - 1n)
  assert.equal(parseRandomSeed('18446744073709551615'), (1n << 64n) - 1n)
  assert.equal(parseRandomSeed('time', { nowUs: () => 99n }), 99n)
  assert.equal(parseRandomSeed(undefined, { nowUs: () => 5n }), 5n)
  assert.equal(parseRandomSeed('rand', { randomBytes: () => Uint8Array.from([0, 0, 0, 0, 0, 0, 1, 2]) }), 258n)
  assert.throws(() => parseRandomSeed('one'), (e) => {
    assert.equal(e.message, 'unrecognized random seed option "one"')
    assert.equal(e.hint, 'Expecting an unsigned integer, "time" or "rand".')
    assert.equal(e.exitCode, 1)
    return true
  })
  assert.throws(() => parseRandomSeed('12x'), /unrecognized random seed option "12x"/)
  assert.equal(seedAsInt64((1n << 64n) - 1n), -1n)
})
