import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Prng } from '../../../lib/random/prng.js'
import { nurand, NURAND_A, LAST_NAMES, validCRunDelta, chooseCRun, runConstants } from '../../../workloads/tpcc/nurand.js'

test('NURand stays in [x, y] and covers it, for the three A values', () => {
  const r = Prng.fromSeed(1)
  for (const [A, x, y] of [[NURAND_A.cLast, 0, 999], [NURAND_A.cId, 1, 3000], [NURAND_A.olIId, 1, 100000]]) {
    let min = Infinity; let max = -Infinity
    const C = r.int(0, A)
    for (let i = 0; i < 200000; i++) {
      const v = nurand(r, A, C, x, y)
      assert.ok(Number.isInteger(v))
      if (v < min) min = v
      if (v > max) max = v
    }
    assert.ok(min >= x && max <= y, `A=${A}: ${min}..${max} outside ${x}..${y}`)
    assert.ok(min - x < (y - x) / 100 && y - max < (y - x) / 100, `A=${A}: range not covered (${min}..${max})`)
  }
})

test('NURand is non-uniform: the most frequent last-name numbers are far above the mean', () => {
  const r = Prng.fromSeed(2)
  const counts = new Array(1000).fill(0)
  for (let i = 0; i < 100000; i++) counts[nurand(r, 255, 123, 0, 999)]++
  const max = Math.max(...counts)
  assert.ok(max > 3 * 100, `max frequency ${max} should be well above the uniform 100`)
})

test('last names come from the syllable table (clause 4.3.2.3)', () => {
  assert.equal(LAST_NAMES.length, 1000)
  assert.equal(LAST_NAMES[0], 'BARBARBAR')
  assert.equal(LAST_NAMES[371], 'PRICALLYOUGHT')
  assert.equal(LAST_NAMES[999], 'EINGEINGEING')
  assert.ok(LAST_NAMES.every(n => n.length <= 16))
})

test('C-Run delta rule of clause 2.1.6.1', () => {
  for (const [delta, ok] of [[64, false], [65, true], [95, true], [96, false], [97, true], [111, true], [112, false], [119, true], [120, false]]) {
    assert.equal(validCRunDelta(200, 200 - delta), ok, `delta ${delta}`)
    assert.equal(validCRunDelta(0, delta), ok, `delta ${delta}`)
  }
})

test('chooseCRun picks a valid constant for every C-Load, and varies', () => {
  const r = Prng.fromSeed(3)
  for (let cLoad = 0; cLoad <= 255; cLoad++) {
    const seen = new Set()
    for (let i = 0; i < 20; i++) {
      const c = chooseCRun(r, cLoad)
      assert.ok(c >= 0 && c <= 255)
      assert.ok(validCRunDelta(cLoad, c), `cLoad ${cLoad} cRun ${c}`)
      seen.add(c)
    }
    assert.ok(seen.size > 1)
  }
  const k = runConstants(r, 10)
  assert.ok(k.cId >= 0 && k.cId <= 1023 && k.olIId >= 0 && k.olIId <= 8191 && validCRunDelta(10, k.cLast))
})
