// pgbench's --random-seed parsing and the order in which it derives every generator from it,
// so that the same seed gives the same per-client values pgbench gives.

import { randomBytes as cryptoRandomBytes } from 'node:crypto'
import { PgloadError } from '../errors.js'
import { Prng } from './prng.js'

const M64 = (1n << 64n) - 1n

/**
 * Parse a --random-seed value as pgbench does: `time` (monotonic microseconds, the default),
 * `rand` (strong random), or an unsigned 64-bit integer (sscanf %lu: optional sign, decimal).
 * @param {string|number|bigint|undefined} spec
 * @param {{ nowUs?: () => bigint, randomBytes?: (n: number) => Uint8Array }} [opts]
 * @returns {bigint} the seed, in [0, 2^64)
 */
export function parseRandomSeed (spec, opts = {}) {
  if (typeof spec === 'bigint') return spec & M64
  if (typeof spec === 'number' && Number.isSafeInteger(spec)) return BigInt(spec) & M64
  const s = spec === undefined ? 'time' : String(spec)
  if (s === 'time') {
    const nowUs = opts.nowUs ?? (() => process.hrtime.bigint() / 1000n)
    return BigInt(nowUs()) & M64
  }
  if (s === 'rand') {
    const bytes = (opts.randomBytes ?? cryptoRandomBytes)(8)
    let v = 0n
    for (let i = 0; i < 8; i++) v = (v << 8n) | BigInt(bytes[i])
    return v
  }
  // sscanf("%" SCNu64 "%c"): leading blanks, an optional sign (negative wraps), digits, nothing after.
  const m = /^[ \t\n\v\f\r]*([+-]?)([0-9]+)$/.exec(s)
  if (!m) {
    throw new PgloadError(`unrecognized random seed option "${s}"`, {
      code: 'BAD_RANDOM_SEED',
      hint: 'Expecting an unsigned integer, "time" or "rand".'
    })
  }
  let v = BigInt(m[2])
  if (v > M64) v = M64 // strtoull saturates
  if (m[1] === '-') v = (-v) & M64
  return v
}

/**
 * Derive every generator from the base seed in pgbench's order (single thread):
 * one per client, then default_seed (unless -D defined it), then choose, throttle, sample.
 * @param {bigint|number|string} randomSeed
 * @param {number} clients
 * @param {{ drawDefaultSeed?: boolean }} [opts] false when -D default_seed=... is given
 * @returns {{ clientPrngs: Prng[], defaultSeed: bigint|undefined, choose: Prng, throttle: Prng, sample: Prng }}
 *   defaultSeed is signed int64, as pgbench stores it in the variable
 */
export function deriveSeeds (randomSeed, clients, { drawDefaultSeed = true } = {}) {
  const base = Prng.fromSeed(BigInt(randomSeed))
  const clientPrngs = new Array(clients)
  for (let i = 0; i < clients; i++) clientPrngs[i] = Prng.fromSeed(base.nextU64())
  const defaultSeed = drawDefaultSeed ? BigInt.asIntN(64, base.nextU64()) : undefined
  const choose = Prng.fromSeed(base.nextU64())
  const throttle = Prng.fromSeed(base.nextU64())
  const sample = Prng.fromSeed(base.nextU64())
  return { clientPrngs, defaultSeed, choose, throttle, sample }
}

/**
 * `random_seed` as pgbench stores it: the uint64 seed reinterpreted as int64.
 * @param {bigint} seed
 * @returns {bigint}
 */
export function seedAsInt64 (seed) {
  return BigInt.asIntN(64, BigInt(seed))
}
