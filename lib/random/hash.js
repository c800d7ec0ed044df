// pgbench's hash_fnv1a and hash_murmur2 over int64 with 64-bit wrap-around.

const M64 = (1n << 64n) - 1n
const FNV_PRIME = 0x100000001b3n
const FNV_OFFSET_BASIS = 0xcbf29ce484222325n
const MM2_MUL = 0xc6a4a7935bd1e995n
const MM2_MUL_TIMES_8 = 0x35253c9ade8f4ca8n

/**
 * FNV-1a over the 8 bytes of an int64 (arithmetic shifts, as pgbench).
 * @param {bigint|number} val int64
 * @param {bigint|number} seed int64 (used as uint64)
 * @returns {bigint} int64
 */
export function hashFnv1a (val, seed) {
  let v = BigInt.asIntN(64, BigInt(val))
  let result = (FNV_OFFSET_BASIS ^ (BigInt(seed) & M64)) & M64
  for (let i = 0; i < 8; i++) {
    const octet = v & 0xffn
    v = v >> 8n
    result = ((result ^ octet) * FNV_PRIME) & M64
  }
  return BigInt.asIntN(64, result)
}

/**
 * 64-bit MurmurHash2 of one 8-byte block (pgbench's getHashMurmur2).
 * @param {bigint|number} val int64
 * @param {bigint|number} seed int64 (used as uint64)
 * @returns {bigint} int64
 */
export function hashMurmur2 (val, seed) {
  let result = (BigInt(seed) & M64) ^ MM2_MUL_TIMES_8
  let k = BigInt(val) & M64
  k = (k * MM2_MUL) & M64
  k ^= k >> 47n
  k = (k * MM2_MUL) & M64
  result ^= k
  result = (result * MM2_MUL) & M64
  result ^= result >> 47n
  result = (result * MM2_MUL) & M64
  result ^= result >> 47n
  return BigInt.asIntN(64, result)
}
