// A small, fast seeded PRNG (sfc32) for generating the TPC-C initial population: one
// independent stream per unit of work, so the data do not depend on how many jobs load it.

/**
 * sfc32 with the `int(lo, hi)` / `double()` interface of lib/random/prng.js.
 * 32-bit output; `int` takes its value from one draw, which is uniform enough for the
 * ranges of a TPC-C load (below 2^20; relative bias < 2^-12).
 */
export class FastRandom {
  /**
   * @param {number} a @param {number} b @param {number} c @param {number} d
   */
  constructor (a, b, c, d) {
    this.a = a >>> 0
    this.b = b >>> 0
    this.c = c >>> 0
    this.d = d >>> 0
    // Discard the first outputs, as recommended for sfc32.
    for (let i = 0; i < 12; i++) this.next()
  }

  /**
   * A stream derived from a seed and a list of small integers (table, warehouse, block...).
   * @param {number|bigint|string} seed
   * @param {...number} keys
   * @returns {FastRandom}
   */
  static fromKeys (seed, ...keys) {
    let h = mix32(Number(BigInt.asUintN(32, BigInt(seed))) ^ 0x9e3779b9)
    let h2 = mix32(Number(BigInt.asUintN(32, BigInt(seed) >> 32n)) ^ 0x85ebca6b)
    for (const k of keys) {
      h = mix32(h ^ mix32(k + 0x7f4a7c15))
      h2 = mix32(h2 + Math.imul(k, 0x27d4eb2f) + 0x165667b1)
    }
    return new FastRandom(h, h2, h ^ 0xdeadbeef, h2 ^ 0x1b873593)
  }

  /** Next 32-bit unsigned output. */
  next () {
    const t = (((this.a + this.b) | 0) + this.d) | 0
    this.d = (this.d + 1) | 0
    this.a = this.b ^ (this.b >>> 9)
    this.b = (this.c + (this.c << 3)) | 0
    this.c = (this.c << 21) | (this.c >>> 11)
    this.c = (this.c + t) | 0
    return t >>> 0
  }

  /** Uniform in [0, 1). */
  double () {
    return this.next() * 2.3283064365386963e-10
  }

  /**
   * Uniform integer in [lo, hi], both inclusive.
   * @param {number} lo @param {number} hi
   */
  int (lo, hi) {
    return lo + Math.floor(this.next() * 2.3283064365386963e-10 * (hi - lo + 1))
  }
}

/** murmur3's 32-bit finalizer. */
function mix32 (x) {
  x = x | 0
  x ^= x >>> 16
  x = Math.imul(x, 0x85ebca6b)
  x ^= x >>> 13
  x = Math.imul(x, 0xc2b2ae35)
  x ^= x >>> 16
  return x >>> 0
}
