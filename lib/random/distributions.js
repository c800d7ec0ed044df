// pgbench's non-uniform integer distributions and the -R Poisson delay, drawing from a Prng
// exactly as pgbench's getExponentialRand / getGaussianRand / getZipfianRand / getPoissonRand.

/** Turn a truncated double into an int64 in pgload's representation (number when safe). */
function truncToInt (x) {
  const t = Math.trunc(x)
  return Number.isSafeInteger(t) ? t : BigInt(t)
}

/** min + k for int64 values given as number or BigInt (never overflows: result <= max). */
function addInt (min, k) {
  if (typeof min === 'number' && typeof k === 'number') {
    const r = min + k
    if (Number.isSafeInteger(r)) return r
  }
  const r = BigInt(min) + BigInt(k)
  return (r >= -9007199254740991n && r <= 9007199254740991n) ? Number(r) : r
}

/** (max - min + 1) as a double, as C converts the int64 difference. */
function spanDouble (min, max) {
  if (typeof min === 'number' && typeof max === 'number') return max - min + 1
  return Number(BigInt(max) - BigInt(min) + 1n)
}

/**
 * random_exponential(min, max, parameter): parameter > 0 is checked by the caller.
 * @param {import('./prng.js').Prng} prng
 * @param {number|bigint} min
 * @param {number|bigint} max
 * @param {number} parameter
 */
export function exponentialRand (prng, min, max, parameter) {
  const cut = Math.exp(-parameter)
  const uniform = 1.0 - prng.double()
  const rand = -Math.log(cut + (1.0 - cut) * uniform) / parameter
  return addInt(min, truncToInt(spanDouble(min, max) * rand))
}

/**
 * random_gaussian(min, max, parameter): parameter >= 2 is checked by the caller.
 * @param {import('./prng.js').Prng} prng
 * @param {number|bigint} min
 * @param {number|bigint} max
 * @param {number} parameter
 */
export function gaussianRand (prng, min, max, parameter) {
  let stdev
  do {
    stdev = prng.normal()
  } while (stdev < -parameter || stdev >= parameter)
  const rand = (stdev + parameter) / (parameter * 2.0)
  return addInt(min, truncToInt(spanDouble(min, max) * rand))
}

/**
 * random_zipfian(min, max, s): Devroye's rejection method (1.001 <= s <= 1000 checked by the caller).
 * @param {import('./prng.js').Prng} prng
 * @param {number|bigint} min
 * @param {number|bigint} max
 * @param {number} s
 */
export function zipfianRand (prng, min, max, s) {
  const n = spanDouble(min, max)
  let x = 1
  if (n > 1) {
    const b = Math.pow(2.0, s - 1.0)
    for (;;) {
      const u = prng.double()
      const v = prng.double()
      x = Math.floor(Math.pow(u, -1.0 / (s - 1.0)))
      const t = Math.pow(1.0 + 1.0 / x, s - 1.0)
      if (v * x * (t - 1.0) / (b - 1.0) <= t / b && x <= n) break
    }
  }
  return addInt(addInt(min, -1), truncToInt(x))
}

/**
 * pgbench's -R delay: a Poisson-process gap in microseconds around centerUs.
 * @param {import('./prng.js').Prng} prng
 * @param {number} centerUs
 * @returns {number}
 */
export function poissonDelayUs (prng, centerUs) {
  const uniform = 1.0 - prng.double()
  return Math.trunc(-Math.log(uniform) * centerUs + 0.5)
}
