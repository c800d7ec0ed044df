// Distribution-free statistics for run-to-run comparison: medians with order-statistic
// intervals, the Mann-Whitney U test (exact when possible, as benchstat) and Hodges-Lehmann ratios.

/**
 * A quantile of sorted numbers (linear interpolation between closest ranks).
 * @param {number[]} sorted ascending
 * @param {number} q 0..1
 * @returns {number}
 */
export function quantileSorted (sorted, q) {
  if (sorted.length === 0) return NaN
  const pos = (sorted.length - 1) * q
  const lo = Math.floor(pos)
  const hi = Math.ceil(pos)
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo)
}

/**
 * @param {number[]} values
 * @returns {number}
 */
export function median (values) {
  return quantileSorted([...values].sort((a, b) => a - b), 0.5)
}

function binomialCdfHalf (n, k) {
  // P(X <= k) for X ~ Binomial(n, 1/2)
  let term = 2 ** -n
  let sum = 0
  for (let i = 0; i <= k; i++) {
    sum += term
    term = term * (n - i) / (i + 1)
  }
  return sum
}

/**
 * Median and its distribution-free confidence interval from order statistics. With too few
 * samples for the requested confidence the widest interval (min..max) is given with the
 * confidence it actually has.
 * @param {number[]} values
 * @param {number} [confidence] e.g. 0.95
 * @returns {{ n: number, median: number, lo: number|null, hi: number|null, confidence: number }}
 */
export function medianInterval (values, confidence = 0.95) {
  const s = [...values].sort((a, b) => a - b)
  const n = s.length
  const med = quantileSorted(s, 0.5)
  if (n < 2) return { n, median: med, lo: null, hi: null, confidence: 0 }
  // [x(k), x(n+1-k)] covers the median with probability 1 - 2 P(X <= k-1).
  let k = 1
  while (k + 1 <= Math.floor(n / 2) && 1 - 2 * binomialCdfHalf(n, k) >= confidence) k++
  return { n, median: med, lo: s[k - 1], hi: s[n - k], confidence: 1 - 2 * binomialCdfHalf(n, k - 1) }
}

const exactCache = new Map()

/**
 * Exact null distribution of U for sample sizes n and m (no ties): counts of arrangements
 * per U value, divided by C(n+m, n). Returns the cumulative distribution P(U <= u).
 * @param {number} n
 * @param {number} m
 * @returns {Float64Array}
 */
export function mannWhitneyCdf (n, m) {
  const key = `${Math.min(n, m)},${Math.max(n, m)}`
  const cached = exactCache.get(key)
  if (cached) return cached
  const a = Math.min(n, m)
  const b = Math.max(n, m)
  // f[i][j] = frequencies of U for sizes i, j; built up with f(i,j,u) = f(i-1,j,u-j) + f(i,j-1,u).
  let prev = Array.from({ length: b + 1 }, () => Float64Array.of(1)) // i = 0: one arrangement, U = 0
  for (let i = 1; i <= a; i++) {
    const cur = [Float64Array.of(1)] // j = 0
    for (let j = 1; j <= b; j++) {
      const f = new Float64Array(i * j + 1)
      const left = prev[j] // (i-1, j): shifted by j
      for (let u = 0; u < left.length; u++) f[u + j] += left[u]
      const down = cur[j - 1] // (i, j-1)
      for (let u = 0; u < down.length; u++) f[u] += down[u]
      cur.push(f)
    }
    prev = cur
  }
  const freq = prev[b]
  let total = 0
  for (const v of freq) total += v
  const cdf = new Float64Array(freq.length)
  let acc = 0
  for (let u = 0; u < freq.length; u++) {
    acc += freq[u]
    cdf[u] = acc / total
  }
  exactCache.set(key, cdf)
  return cdf
}

const EXACT_LIMIT = 2500 // n*m up to which the exact distribution is used (50 x 50)

function normalCdf (z) {
  // Abramowitz-Stegun 7.1.26 on erf; absolute error < 1.5e-7.
  const t = 1 / (1 + 0.3275911 * Math.abs(z) / Math.SQRT2)
  const y = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-z * z / 2)
  return z >= 0 ? (1 + y) / 2 : (1 - y) / 2
}

/**
 * Two-sided Mann-Whitney U test. Exact without ties for small samples, otherwise the normal
 * approximation with tie and continuity correction.
 * @param {number[]} xs
 * @param {number[]} ys
 * @returns {{ u: number, p: number, exact: boolean }}
 */
export function mannWhitneyU (xs, ys) {
  const n = xs.length
  const m = ys.length
  if (n === 0 || m === 0) return { u: NaN, p: 1, exact: false }
  const all = [...xs.map(v => [v, 0]), ...ys.map(v => [v, 1])].sort((a, b) => a[0] - b[0])
  const ranks = new Float64Array(all.length)
  let ties = false
  let tieTerm = 0
  for (let i = 0; i < all.length;) {
    let j = i
    while (j + 1 < all.length && all[j + 1][0] === all[i][0]) j++
    const r = (i + j) / 2 + 1
    for (let k = i; k <= j; k++) ranks[k] = r
    const t = j - i + 1
    if (t > 1) { ties = true; tieTerm += t * t * t - t }
    i = j + 1
  }
  let rx = 0
  for (let i = 0; i < all.length; i++) if (all[i][1] === 0) rx += ranks[i]
  const u = rx - n * (n + 1) / 2
  if (!ties && n * m <= EXACT_LIMIT) {
    const cdf = mannWhitneyCdf(n, m)
    const lower = cdf[Math.round(u)]
    const upper = 1 - (Math.round(u) > 0 ? cdf[Math.round(u) - 1] : 0)
    return { u, p: Math.min(1, 2 * Math.min(lower, upper)), exact: true }
  }
  const mu = n * m / 2
  const N = n + m
  const sigma = Math.sqrt(n * m / 12 * ((N + 1) - tieTerm / (N * (N - 1))))
  if (sigma === 0) return { u, p: 1, exact: false }
  const z = (Math.abs(u - mu) - 0.5) / sigma
  return { u, p: Math.min(1, 2 * (1 - normalCdf(Math.max(0, z)))), exact: false }
}

/**
 * The smallest two-sided p-value the exact test can give for these sample sizes.
 * @param {number} n
 * @param {number} m
 * @returns {number}
 */
export function minimumPValue (n, m) {
  if (n === 0 || m === 0) return 1
  if (n * m > EXACT_LIMIT) return 0
  return Math.min(1, 2 * mannWhitneyCdf(n, m)[0])
}

/**
 * Relative change of ys vs xs as a Hodges-Lehmann estimate on the log scale (the median of
 * all pairwise log ratios) with the distribution-free interval that inverts the U test.
 * Falls back to differences over |median(xs)| when a value is not positive.
 * @param {number[]} xs baseline (A)
 * @param {number[]} ys candidate (B)
 * @param {number} [confidence]
 * @returns {{ estimate: number, lo: number, hi: number, confidence: number } | null} relative (0.1 = +10 %)
 */
export function relativeShift (xs, ys, confidence = 0.95) {
  const n = xs.length
  const m = ys.length
  if (n === 0 || m === 0) return null
  const logScale = xs.every(v => v > 0) && ys.every(v => v > 0)
  const base = Math.abs(median(xs))
  if (!logScale && base === 0) return null
  const d = []
  for (const x of xs) for (const y of ys) d.push(logScale ? Math.log(y / x) : y - x)
  d.sort((a, b) => a - b)
  const N = d.length
  const toRel = (v) => logScale ? Math.exp(v) - 1 : v / base
  // [d(k), d(N+1-k)] has confidence 1 - 2 P(U <= k-1).
  let k = 1
  let conf
  if (n * m <= EXACT_LIMIT) {
    const cdf = mannWhitneyCdf(n, m)
    const alpha = 1 - confidence
    while (k < Math.ceil(N / 2) && 2 * cdf[k] <= alpha) k++
    conf = 1 - 2 * cdf[k - 1]
  } else {
    const z = 1.959963984540054 // two-sided 95 %; large samples only
    k = Math.max(1, Math.floor(N / 2 - z * Math.sqrt(n * m * (n + m + 1) / 12)))
    conf = 0.95
  }
  return { estimate: toRel(quantileSorted(d, 0.5)), lo: toRel(d[k - 1]), hi: toRel(d[N - k]), confidence: conf }
}

/**
 * A small seeded PRNG (splitmix32) for resampling: deterministic for a seed, fast, no state
 * shared with the workload generators.
 * @param {number} seed
 * @returns {() => number} uniform in [0, 1)
 */
export function seededRandom (seed) {
  let s = (Number(seed) >>> 0) || 0x9e3779b9
  return () => {
    s = (s + 0x9e3779b9) >>> 0
    let z = s
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0
    z = (z ^ (z >>> 16)) >>> 0
    return z / 4294967296
  }
}
