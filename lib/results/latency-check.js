// Latency figures held to the encoded histograms they come from: every percentile, the minimum
// and the maximum must be the histogram's own within its precision (one bucket, plus the
// microsecond the figures are rounded to), the mean between the minimum and the maximum. A
// percentile that contradicts its histogram would pass a threshold its run fails.

import { decodeHistogram, mergeHistograms } from '../metrics/histogram.js'
import { mismatch } from './rules.js'
import { round3 } from '../format/round.js'

const PERCENTILES = [['p50', 50], ['p90', 90], ['p95', 95], ['p99', 99], ['p999', 99.9]]
// figures are written in ms with three decimals: half a microsecond each way, and float noise
const ROUNDING_MS = 0.0005 + 1e-9

const isNumber = (v) => typeof v === 'number' && Number.isFinite(v)

/**
 * The histogram of encoded histograms added (null when one is missing: nothing to hold to).
 * @param {Array<string|undefined>} encoded
 */
export function decodedSum (encoded) {
  if (encoded.length === 0 || encoded.some((e) => typeof e !== 'string')) return null
  return encoded.length === 1 ? decodeHistogram(encoded[0]) : mergeHistograms(encoded)
}

const ORDER = ['p50', 'p90', 'p95', 'p99', 'p999']

/**
 * Throw a FieldProblem when latency figures at `path` are out of order: a percentile above the
 * maximum, below the minimum or below a lower percentile (histogram or not).
 * @param {any} figures `{ min, p50, ..., max }` in ms, any of them absent
 * @param {string} path
 */
export function checkOrder (figures, path) {
  if (figures === null || typeof figures !== 'object') return
  const { min, max } = figures
  let prev = null
  for (const key of ORDER) {
    const v = figures[key]
    if (!isNumber(v)) continue
    if (isNumber(max) && v > max + ROUNDING_MS) throw mismatch(`${path}.${key}`, v, `${path}.max is ${max}`)
    if (isNumber(min) && v < min - ROUNDING_MS) throw mismatch(`${path}.${key}`, v, `${path}.min is ${min}`)
    if (prev !== null && v < figures[prev] - ROUNDING_MS) throw mismatch(`${path}.${key}`, v, `${path}.${prev} is ${figures[prev]}`)
    prev = key
  }
}

/**
 * Throw a FieldProblem when figures `{ mean, stddev, min, p50, ..., max }` (ms) at `path`
 * are out of order, or contradict histogram `h` (microseconds); `what` names the histogram in
 * the message.
 * @param {any} figures
 * @param {import('../metrics/histogram.js').Histogram|null} h
 * @param {string} path
 * @param {string} what
 */
export function checkLatencyFigures (figures, h, path, what) {
  checkOrder(figures, path)
  if (h === null || figures === null || typeof figures !== 'object') return
  if (h.totalCount === 0) {
    for (const [key, value] of Object.entries(figures)) {
      if (isNumber(value)) throw mismatch(`${path}.${key}`, value, `${what} is empty`)
    }
    return
  }
  const maxUs = h.maxValue
  const minUs = h.minNonZeroValue
  // the written max and min are the exact ones; the decoded histogram knows their buckets
  const max = bucketFigure(figures.max, h, maxUs, `${path}.max`, what)
  const min = bucketFigure(figures.min, h, minUs, `${path}.min`, what)
  for (const [key, p] of PERCENTILES) {
    const stated = figures[key]
    if (!isNumber(stated)) continue
    const v = h.getValueAtPercentile(p)
    const expectedUs = max === null ? v : Math.min(v, max * 1000)
    const slackMs = h.sizeOfEquivalentValueRange(v) / 1000 + ROUNDING_MS
    if (Math.abs(stated - expectedUs / 1000) > slackMs) {
      throw mismatch(`${path}.${key}`, stated, `${what} gives ${round3(expectedUs / 1000)} ms`)
    }
  }
  const lo = min ?? h.lowestEquivalentValue(minUs) / 1000
  const hi = max ?? maxUs / 1000
  if (isNumber(figures.mean) && (figures.mean < lo - ROUNDING_MS || figures.mean > hi + ROUNDING_MS)) {
    throw mismatch(`${path}.mean`, figures.mean, `${what} ranges from ${round3(lo)} to ${round3(hi)} ms`)
  }
  if (isNumber(figures.stddev) && figures.stddev > hi - lo + 2 * ROUNDING_MS) {
    throw mismatch(`${path}.stddev`, figures.stddev, `${what} ranges over ${round3(hi - lo)} ms`)
  }
}

// A stated min or max inside the bucket of the histogram's own; returns it (null when absent).
function bucketFigure (stated, h, us, path, what) {
  if (!isNumber(stated)) return null
  const lo = h.lowestEquivalentValue(us) / 1000 - ROUNDING_MS
  const hi = h.highestEquivalentValue(us) / 1000 + ROUNDING_MS
  if (stated < lo || stated > hi) throw mismatch(path, stated, `${what} gives ${round3(us / 1000)} ms`)
  return stated
}
