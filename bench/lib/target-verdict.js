// Whether repeated paired rounds show a ratio target met, missed, or neither: the median of the
// rounds' ratios and its distribution-free confidence interval (order statistics), against the
// target. One round's ratio varies by 15-35 % on a 2-core machine shared by client and server,
// so a median alone can sit on either side of a target by chance; the interval says when it does.

import { medianInterval } from '../../lib/compare/statistics/distribution-free.js'

/**
 * @typedef {object} TargetVerdict
 * @property {number} median the median of the finite ratios
 * @property {number|null} lo the interval's lower end (null with fewer than 2 rounds)
 * @property {number|null} hi the interval's upper end
 * @property {number} confidence what the interval covers (0.94-0.99 for 5-9 rounds; 0 for 1 round)
 * @property {number} rounds the finite ratios counted
 * @property {'met'|'missed'|'within noise'} verdict met or missed only when the whole interval is on one side
 */

/**
 * @param {number[]} ratios one per round (NaN for a failed round, left out)
 * @param {number} target
 * @param {'atLeast'|'atMost'} direction tps ratios must be at least their target, CPU ratios at most
 * @param {number} [confidence] asked of the interval; fewer rounds give the widest (min..max) with what it has
 * @returns {TargetVerdict}
 */
export function targetVerdict (ratios, target, direction, confidence = 0.95) {
  const v = ratios.filter(Number.isFinite)
  const m = medianInterval(v, confidence)
  let verdict = 'within noise'
  if (m.lo !== null && m.hi !== null) {
    const below = m.hi < target
    const above = m.lo > target
    if (direction === 'atLeast') verdict = m.lo >= target ? 'met' : below ? 'missed' : verdict
    else verdict = m.hi <= target ? 'met' : above ? 'missed' : verdict
  }
  return { median: m.median, lo: m.lo, hi: m.hi, confidence: m.confidence, rounds: v.length, verdict }
}
