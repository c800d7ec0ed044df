// pgbench's PRNG (PostgreSQL's pg_prng: xoroshiro128** 1.0, seeded by splitmix64), bit for bit.
// State lives in four uint32 halves so that draws below 2^53 and doubles allocate nothing.

const M64 = (1n << 64n) - 1n
const TWO32 = 4294967296
const TWO_M32 = 1 / TWO32
const TWO_M52 = 2 ** -52
const MAX_SAFE = Number.MAX_SAFE_INTEGER
const POW2 = Array.from({ length: 33 }, (_, i) => 2 ** i)

function splitmix64 (st) {
  st[0] = (st[0] + 0x9E3779B97F4A7C15n) & M64
  let v = st[0]
  v = ((v ^ (v >> 30n)) * 0xBF58476D1CE4E5B9n) & M64
  v = ((v ^ (v >> 27n)) * 0x94D049BB133111EBn) & M64
  return v ^ (v >> 31n)
}

/** Most significant set bit of a positive safe integer (0-based). */
function msb (r) {
  if (r < TWO32) return 31 - Math.clz32(r)
  return 63 - Math.clz32(Math.floor(r * TWO_M32))
}

/**
 * xoroshiro128** as pg_prng. Every draw advances the state once, exactly as PostgreSQL does,
 * so a seed gives pgbench's sequence.
 */
export class Prng {
  /**
   * @param {number} s0hi @param {number} s0lo @param {number} s1hi @param {number} s1lo
   */
  constructor (s0hi = 0, s0lo = 0, s1hi = 0, s1lo = 0) {
    // [s0hi, s0lo, s1hi, s1lo, out hi, out lo] as int32: typed-array slots never box, which
    // measured 4x faster than object fields holding uint32 values (7 vs 31 ns per double()).
    this.s = new Int32Array(6)
    this.s[0] = s0hi
    this.s[1] = s0lo
    this.s[2] = s1hi
    this.s[3] = s1lo
  }

  get s0hi () { return this.s[0] >>> 0 }
  get s0lo () { return this.s[1] >>> 0 }
  get s1hi () { return this.s[2] >>> 0 }
  get s1lo () { return this.s[3] >>> 0 }

  /**
   * pg_prng_seed(): two splitmix64 outputs; an all-zero state is replaced as PostgreSQL does.
   * @param {bigint|number|string} seed an unsigned or signed 64-bit value (taken modulo 2^64)
   * @returns {Prng}
   */
  static fromSeed (seed) {
    const st = [BigInt(seed) & M64]
    let s0 = splitmix64(st)
    let s1 = splitmix64(st)
    if (s0 === 0n && s1 === 0n) {
      s0 = 0x5851F42D4C957F2Dn
      s1 = 0x14057B7EF767814Fn
    }
    return new Prng(Number(s0 >> 32n), Number(s0 & 0xffffffffn), Number(s1 >> 32n), Number(s1 & 0xffffffffn))
  }

  /** Advance once; the output is left in s[4] (high) and s[5] (low) as int32. */
  _next () {
    const s = this.s
    const ahi = s[0]
    const alo = s[1]
    const sxhi = s[2] ^ ahi
    const sxlo = s[3] ^ alo
    // val = rotl(s0 * 5, 7) * 9, 64-bit products from 32-bit halves
    const l5 = (alo >>> 0) * 5
    const lo5 = l5 >>> 0
    const hi5 = (Math.imul(ahi, 5) + ((l5 * TWO_M32) | 0)) | 0
    const rhi = (hi5 << 7) | (lo5 >>> 25)
    const rlo = (lo5 << 7) | (hi5 >>> 25)
    const l9 = (rlo >>> 0) * 9
    s[5] = l9 >>> 0
    s[4] = Math.imul(rhi, 9) + ((l9 * TWO_M32) | 0)
    // s0 = rotl(s0, 24) ^ sx ^ (sx << 16); s1 = rotl(sx, 37)
    s[0] = ((ahi << 24) | (alo >>> 8)) ^ sxhi ^ ((sxhi << 16) | (sxlo >>> 16))
    s[1] = ((alo << 24) | (ahi >>> 8)) ^ sxlo ^ (sxlo << 16)
    s[2] = (sxlo << 5) | (sxhi >>> 27)
    s[3] = (sxhi << 5) | (sxlo >>> 27)
  }

  /** pg_prng_uint64(). @returns {bigint} */
  nextU64 () {
    this._next()
    return (BigInt(this.s[4] >>> 0) << 32n) | BigInt(this.s[5] >>> 0)
  }

  /** pg_prng_double(): (next >> 12) * 2^-52, in [0, 1). */
  double () {
    this._next()
    return (this.s[4] >>> 0) * TWO_M32 + (this.s[5] >>> 12) * TWO_M52
  }

  /** pg_prng_double_normal(): Box-Muller on 1 - double(), one output. */
  normal () {
    const u1 = 1.0 - this.double()
    const u2 = 1.0 - this.double()
    return Math.sqrt(-2.0 * Math.log(u1)) * Math.sin(2.0 * Math.PI * u2)
  }

  /**
   * pgbench's getrand(lo, hi) = lo + pg_prng_uint64_range(0, hi - lo), for int64 bounds.
   * Numbers in, number out while hi - lo < 2^53 (no allocation); BigInt bounds or wider
   * ranges go through BigInt and return a BigInt.
   * @param {number|bigint} lo
   * @param {number|bigint} hi
   * @returns {number|bigint}
   */
  int (lo, hi) {
    if (typeof lo === 'number' && typeof hi === 'number') {
      if (hi <= lo) return lo
      const r = hi - lo
      if (r <= MAX_SAFE && Number.isSafeInteger(lo) && Number.isSafeInteger(hi)) {
        const sh = 63 - msb(r)
        for (;;) {
          this._next()
          const v = sh >= 32
            ? this.s[4] >>> (sh - 32)
            : (this.s[4] >>> 0) * POW2[32 - sh] + (this.s[5] >>> sh)
          if (v <= r) return lo + v
        }
      }
    }
    return this.bigInt(BigInt(lo), BigInt(hi))
  }

  /**
   * getrand() over BigInt int64 bounds.
   * @param {bigint} lo
   * @param {bigint} hi
   * @returns {bigint}
   */
  bigInt (lo, hi) {
    if (hi <= lo) return lo
    return BigInt.asIntN(64, lo + this.uint64Range(0n, (hi - lo) & M64))
  }

  /**
   * pg_prng_uint64_range(rmin, rmax) over unsigned 64-bit values.
   * @param {bigint} rmin
   * @param {bigint} rmax
   * @returns {bigint}
   */
  uint64Range (rmin, rmax) {
    if (rmax <= rmin) return rmin
    const r = rmax - rmin
    const sh = BigInt(64 - r.toString(2).length)
    for (;;) {
      const v = this.nextU64() >> sh
      if (v <= r) return rmin + v
    }
  }

  /**
   * A copy of the state, to restore later with setState (pgbench replays it on retry).
   * Pass `out` (an array of 4) to reuse it and allocate nothing.
   * @param {number[]} [out]
   * @returns {number[]}
   */
  getState (out = [0, 0, 0, 0]) {
    const s = this.s
    out[0] = s[0]
    out[1] = s[1]
    out[2] = s[2]
    out[3] = s[3]
    return out
  }

  /** @param {ArrayLike<number>} s a value from getState() */
  setState (st) {
    const s = this.s
    s[0] = st[0]
    s[1] = st[1]
    s[2] = st[2]
    s[3] = st[3]
  }

  /** An independent generator with the same state. */
  clone () {
    return new Prng(this.s[0], this.s[1], this.s[2], this.s[3])
  }
}
