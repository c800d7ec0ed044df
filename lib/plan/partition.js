// How one run is cut into parts (shards of many machines, worker threads of one): each part
// runs a contiguous range of the run's terminals, keeping their global numbers, so a terminal's
// seed, its TPC-C warehouse and district, and its script variables (client_id) do not depend on
// how many parts there are. Rates and connections are shared out in proportion to terminals.

import { PgloadError } from '../errors.js'

/**
 * The terminals one part runs: numbers first .. first + count - 1 of the run's `total`.
 * @typedef {{ first: number, count: number, total: number }} TerminalRange
 */

/**
 * The whole run as one range.
 * @param {number} total terminals of the run
 * @returns {TerminalRange}
 */
export function wholeRange (total) {
  return { first: 0, count: total, total }
}

/**
 * Part `index` of `parts` of a range: contiguous, as even as whole groups allow (TPC-C keeps a
 * warehouse's 10 terminals together: group 10). A part may be empty when there are more parts
 * than groups; callers that cannot run an empty part refuse it (see `checkParts`).
 * @param {TerminalRange} range
 * @param {number} parts
 * @param {number} index 0-based
 * @param {{ group?: number }} [opts] terminals that stay in one part
 * @returns {TerminalRange}
 */
export function splitRange (range, parts, index, { group = 1 } = {}) {
  if (!Number.isInteger(parts) || parts < 1 || !Number.isInteger(index) || index < 0 || index >= parts) {
    throw new RangeError(`part ${index} of ${parts}`)
  }
  const groups = Math.ceil(range.count / group)
  const fromGroup = Math.floor(groups * index / parts)
  const toGroup = Math.floor(groups * (index + 1) / parts)
  const first = range.first + Math.min(range.count, fromGroup * group)
  const end = range.first + Math.min(range.count, toGroup * group)
  return { first, count: end - first, total: range.total }
}

/**
 * Refuse a split that would leave a part without terminals, in one line.
 * @param {TerminalRange} range
 * @param {number} parts
 * @param {{ group?: number, what: string, unit?: string }} opts what: '--jobs 4' or '--shards 8'
 */
export function checkParts (range, parts, { group = 1, what, unit = 'terminals' }) {
  const groups = Math.ceil(range.count / group)
  if (parts > groups) {
    throw new PgloadError(`${what} needs at least ${parts} ${unit}, the run has ${groups}`, { code: 'BAD_OPTION' })
  }
}

/**
 * Every part's share of a run-wide amount that must be a whole number summing exactly to the
 * amount over all parts (connections): in proportion to terminals, largest remainders first,
 * and at least `min` for a part with terminals (then, with fewer than one each, the sum is more).
 * One pass and one sort over the parts: -j or --shards in the thousands cost milliseconds.
 * @param {number} amount
 * @param {TerminalRange[]} ranges all parts, in order
 * @param {{ min?: number }} [opts]
 * @returns {number[]} the share of each part
 */
export function sharesOf (amount, ranges, { min = 1 } = {}) {
  const n = ranges.length
  const counts = new Float64Array(n)
  let total = 0
  for (let i = 0; i < n; i++) { counts[i] = ranges[i].count; total += counts[i] }
  const shares = new Array(n).fill(0)
  if (total === 0) return shares
  const remainders = new Float64Array(n)
  const order = []
  let left = amount
  for (let i = 0; i < n; i++) {
    if (counts[i] === 0) continue
    const exact = amount * counts[i] / total
    shares[i] = Math.max(min, Math.floor(exact))
    remainders[i] = exact - Math.floor(exact)
    left -= shares[i]
    order.push(i)
  }
  order.sort((a, b) => remainders[b] - remainders[a] || a - b)
  for (let k = 0; left > 0 && order.length > 0; k = (k + 1) % order.length, left--) shares[order[k]]++
  for (let i = 0; i < n; i++) shares[i] = Math.min(shares[i], counts[i])
  return shares
}

/**
 * One part's share (sharesOf); a caller that needs every part's calls sharesOf once.
 * @param {number} amount
 * @param {TerminalRange[]} ranges all parts, in order
 * @param {number} index the part
 * @param {{ min?: number }} [opts]
 * @returns {number}
 */
export function shareOf (amount, ranges, index, opts) {
  return sharesOf(amount, ranges, opts)[index]
}

/**
 * A part's share of the run's --rate: the sum of independent Poisson arrivals is a Poisson
 * process at the summed rate, so parts in proportion to their terminals give the asked rate.
 * @param {number} rate transactions per second for the whole run, 0 = unthrottled
 * @param {TerminalRange} range the part
 * @returns {number}
 */
export function rateShare (rate, range) {
  if (!(rate > 0) || range.total === 0) return rate
  return rate * range.count / range.total
}
