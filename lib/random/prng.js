// pgbench's PRNG (PostgreSQL's pg_prng: xoroshiro128** 1.0, seeded by splitmix64), bit for bit.
// State lives in four uint32 halves so that draws below 2^53 and doubles allocate nothing.

const M64 = (1n << 64n) - 1n
const TWO32 = 4294967296
const TWO_M32 = 1 / TWO32
const TWO_M52 = 2 ** -52
const MAX_SAFE = Number.MAX_SAFE_INTEGER

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
    this.s0hi = s0hi >>> 0
    this.s0lo = s0lo >>> 0
    this.s1hi = s1hi >>> 0
    this.s1lo = s1lo >>> 0
    // The last output, as two uint32 halves (set by _next()).
    this.vhi = 0
    this.vlo = 0
  }

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

  /** Advance once; the output is left in this.vhi / this.vlo. */
  _next () {
    const ahi = this.s0hi
    const alo = this.s0lo
    const sxhi = (this.s1hi ^ ahi) >>> 0
    const sxlo = (this.s1lo ^ alo) >>> 0

    // val = rotl(s0 * 5, 7) * 9
    let lo = alo + ((alo << 2) >>> 0)
    let hi = (ahi + ((ahi << 2) | (alo >>> 30)) + (lo >= TWO32 ? 1 : 0)) >>> 0
    lo = lo >>> 0
    const rhi = ((hi << 7) | (lo >>> 25)) >>> 0
    const rlo = ((lo << 7) | (hi >>> 25)) >>> 0
    lo = rlo + ((rlo << 3) >>> 0)
    hi = (rhi + ((rhi << 3) | (rlo >>> 29)) + (lo >= TWO32 ? 1 : 0)) >>> 0
    this.vhi = hi
    this.vlo = lo >>> 0

    // s0 = rotl(s0, 24) ^ sx ^ (sx << 16)
    const r24hi = (ahi << 24) | (alo >>> 8)
    const r24lo = (alo << 24) | (ahi >>> 8)
    this.s0hi = (r24hi ^ sxhi ^ ((sxhi << 16) | (sxlo >>> 16))) >>> 0
    this.s0lo = (r24lo ^ sxlo ^ (sxlo << 16)) >>> 0
    // s1 = rotl(sx, 37) = rotl(swap(sx), 5)
    this.s1hi = ((sxlo << 5) | (sxhi >>> 27)) >>> 0
    this.s1lo = ((sxhi << 5) | (sxlo >>> 27)) >>> 0
  }

  /** pg_prng_uint64(). @returns {bigint} */
  nextU64 () {
    this._next()
    return (BigInt(this.vhi) << 32n) | BigInt(this.vlo)
  }

  /** pg_prng_double(): (next >> 12) * 2^-52, in [0, 1). */
  double () {
    this._next()
    return this.vhi * 2 ** -32 + (this.vlo >>> 12) * TWO_M52
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
            ? this.vhi >>> (sh - 32)
            : this.vhi * 2 ** (32 - sh) + (this.vlo >>> sh)
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
    out[0] = this.s0hi
    out[1] = this.s0lo
    out[2] = this.s1hi
    out[3] = this.s1lo
    return out
  }

  /** @param {ArrayLike<number>} s a value from getState() */
  setState (s) {
    this.s0hi = s[0] >>> 0
    this.s0lo = s[1] >>> 0
    this.s1hi = s[2] >>> 0
    this.s1lo = s[3] >>> 0
  }

  /** An independent generator with the same state. */
  clone () {
    return new Prng(this.s0hi, this.s0lo, this.s1hi, this.s1lo)
  }
}
