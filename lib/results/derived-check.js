// The figures a results document derives from others, held to their sources within the rounding
// they are written with: rates against counts over their window, totals against the types'
// counts, latency figures against their histograms, the window against the intervals' span,
// stages against the run, TPC-C's tpmC and efficiency, capacity's steps. The field rules
// (schema.js) have checked the types first; this walk reads only numbers it finds.

import { mismatch } from './rules.js'
import { checkWindow, checkRate, isNumber } from './window-check.js'
import { checkStages } from './stages-check.js'
import { checkOrder } from './latency-check.js'
import { checkTpcc, checkCapacity } from './sections-check.js'

const INTERVAL_ROUNDING_S = 0.01

/**
 * Intervals: each one's rate against its counts and length; the run's window against their span.
 * @param {any[]} intervals @param {number|null|undefined} durationS
 */
function checkIntervals (intervals, durationS) {
  for (let i = 0; i < intervals.length; i++) {
    const iv = intervals[i]
    if (!iv.count || typeof iv.count !== 'object') continue
    const n = Object.values(iv.count).reduce((a, c) => a + c, 0)
    checkRate(`intervals[${i}].tps`, iv.tps, n, iv.lengthS, { over: `intervals[${i}].lengthS` })
    for (const key of ['latencyMs', 'lagMs', 'queueMs']) checkOrder(iv[key], `intervals[${i}].${key}`)
  }
  const last = intervals[intervals.length - 1]
  if (isNumber(durationS) && last && Math.abs(last.t - durationS) > INTERVAL_ROUNDING_S) {
    throw mismatch('run.durationS', durationS, `the intervals end at t = ${last.t} s`)
  }
}

/**
 * Throw a FieldProblem naming the first derived figure of `doc` that contradicts its source.
 * @param {any} doc a results document that passed the field rules
 */
export function checkDerived (doc) {
  const durationS = doc.run.durationS
  // the window first: a wrong run.durationS is named as such, not as the rates over it
  checkIntervals(doc.intervals, durationS)
  checkWindow(doc.summary, doc.transactions, durationS, '')
  if (Array.isArray(doc.stages)) checkStages(doc.stages, doc.summary, durationS)
  if (doc.tpcc) checkTpcc(doc.tpcc, doc.transactions, durationS)
  if (doc.capacity !== undefined) checkCapacity(doc.capacity, doc.stages)
  if (doc.scenarios) checkScenarios(doc.scenarios, doc.transactions)
}

/**
 * Each scenario over its own window, and its types in the totals under `NAME/type` with the same
 * counts: the totals are the scenarios' sums.
 * @param {Record<string, any>} scenarios @param {Record<string, any>} totals the run's transactions
 */
function checkScenarios (scenarios, totals) {
  for (const [name, s] of Object.entries(scenarios)) {
    const path = `scenarios.${name}`
    checkWindow(s.summary, s.transactions, s.endS - s.startS, path)
    for (const [type, t] of Object.entries(s.transactions)) {
      const total = totals[`${name}/${type}`]
      if (total?.count !== t.count) throw mismatch(`transactions.${name}/${type}.count`, total?.count ?? null, `${path}.transactions.${type}.count is ${t.count}`)
    }
  }
}
