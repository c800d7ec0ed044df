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
 * A part's share of a run-wide amount that must be a whole number summing exactly to the
 * amount over all parts (connections): in proportion to terminals, largest remainders first,
 * and at least `min` for a part with terminals (then, with fewer than one each, the sum is more).
 * @param {number} amount
 * @param {TerminalRange[]} ranges all parts, in order
 * @param {number} index the part
 * @param {{ min?: number }} [opts]
 * @returns {number}
 */
export function shareOf (amount, ranges, index, { min = 1 } = {}) {
  const total = ranges.reduce((s, r) => s + r.count, 0)
  if (total === 0) return 0
  const exact = ranges.map((r) => amount * r.count / total)
  const shares = exact.map((x, i) => ranges[i].count > 0 ? Math.max(min, Math.floor(x)) : 0)
  let left = amount - shares.reduce((s, x) => s + x, 0)
  const order = exact.map((x, i) => i).filter((i) => ranges[i].count > 0).sort((a, b) => (exact[b] - Math.floor(exact[b])) - (exact[a] - Math.floor(exact[a])) || a - b)
  for (let k = 0; left > 0 && order.length > 0; k = (k + 1) % order.length, left--) shares[order[k]]++
  return Math.min(shares[index], ranges[index].count)
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
