// pgbench's permute(): a keyed pseudorandom bijection of [0, size), six rounds seeded by pg_prng.

import { Prng } from './prng.js'

const M64 = (1n << 64n) - 1n

/**
 * @param {bigint|number} val int64 (reduced as (uint64) val % size, so negatives are not a modulo)
 * @param {bigint|number} isize int64 >= 1 (checked by the caller)
 * @param {bigint|number} seed int64
 * @returns {bigint} in [0, size)
 */
export function permute (val, isize, seed) {
  const sizeB = BigInt(isize)
  if (sizeB < 2n) return 0n
  const state = Prng.fromSeed(BigInt(seed) & M64)
  const size = sizeB & M64
  let v = (BigInt(val) & M64) % size
  const masklen = BigInt(size.toString(2).length - 1)
  const mask = (1n << masklen) - 1n
  for (let i = 0; i < 6; i++) {
    let m = (state.nextU64() & mask) | 1n
    let r = state.nextU64() & mask
    if (v <= mask) {
      v = ((v * m) ^ r) & mask
      v = ((v << 1n) & mask) | (v >> (masklen - 1n))
    }
    m = (state.nextU64() & mask) | 1n
    r = state.nextU64() & mask
    let t = size - 1n - v
    if (t <= mask) {
      t = ((t * m) ^ r) & mask
      t = ((t << 1n) & mask) | (t >> (masklen - 1n))
      v = size - 1n - t
    }
    r = state.uint64Range(0n, size - 1n)
    v = (v + r) % size
  }
  return v
}
