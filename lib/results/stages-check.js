// stages[] held to its sources: each stage's figures to its own counts, histograms and window,
// its window to its bounds and the run's, and the stages' counters to the run's (they add up to
// the run exactly, docs/results-format.md "stages[]").

import { mismatch } from './rules.js'
import { checkWindow, checkRate, isNumber, SUMMED } from './window-check.js'
import { round3 } from '../format/round.js'

// lengths are rounded to the millisecond from bounds and a window that are rounded too
const LENGTH_ROUNDING_S = 0.002
const OUTCOMES = ['transactions', 'failed', 'skipped', 'dropped', 'unfinished', 'outcomeUnknown']
const ADDED = ['transactions', ...SUMMED, 'dropped', 'arrivals']

/**
 * @param {any[]} stages results `stages[]`, checked by the field rules
 * @param {any} summary the run's summary
 * @param {number|null|undefined} durationS the run's measured window
 */
export function checkStages (stages, summary, durationS) {
  stages.forEach((s, i) => {
    const path = `stages[${i}]`
    checkLength(s, path, i === stages.length - 1, durationS)
    checkWindow(s.summary, s.transactions, s.lengthS, path)
    checkRate(`${path}.achievedTps`, s.achievedTps, s.summary.transactions, s.lengthS, { over: `${path}.lengthS` })
    if (s.kind === 'rate' && s.countedBy === 'arrival') checkArrivals(s.summary, `${path}.summary`)
  })
  if (stages.length === 0) return
  for (const key of ADDED) {
    if (!isNumber(summary[key]) || !stages.every((s) => isNumber(s.summary[key]))) continue
    const sum = stages.reduce((a, s) => a + s.summary[key], 0)
    if (sum !== summary[key]) throw mismatch(`summary.${key}`, summary[key], `the stages' ${key} add up to ${sum}`)
  }
}

// A stage lasts no longer than its bounds; the last one (where the run stopped) to the run's end.
function checkLength (s, path, last, durationS) {
  const planned = s.endS - s.startS
  if (!last && s.lengthS > planned + LENGTH_ROUNDING_S) {
    throw mismatch(`${path}.lengthS`, s.lengthS, `the stage runs from ${s.startS} to ${s.endS} s`)
  }
  if (last && isNumber(durationS)) {
    const expected = Math.max(0, durationS - s.startS)
    if (Math.abs(s.lengthS - expected) > LENGTH_ROUNDING_S) {
      throw mismatch(`${path}.lengthS`, s.lengthS, `the last stage starts at ${s.startS} s and the run's window (run.durationS) ends at ${durationS} s: ${round3(expected)} s`)
    }
  }
}

/**
 * Every arrival of a rate stage counted by arrival has one outcome: arrivals = transactions +
 * failed + skipped + dropped + unfinished + outcome unknown, exactly.
 * @param {any} summary a stage's summary @param {string} path
 */
function checkArrivals (summary, path) {
  if (!OUTCOMES.every((k) => isNumber(summary[k])) || !isNumber(summary.arrivals)) return
  const sum = OUTCOMES.reduce((a, k) => a + summary[k], 0)
  if (sum !== summary.arrivals) {
    throw mismatch(`${path}.arrivals`, summary.arrivals, `its outcomes add up to ${sum} (${OUTCOMES.map((k) => `${k} ${summary[k]}`).join(', ')})`)
  }
}
