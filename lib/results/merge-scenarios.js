// The `scenarios` section of partitions of one scenario run (shards) merged scenario by
// scenario, with the code that merges the run's totals: counters added, histograms merged, each
// scenario's intervals on the run's grid, its window the longest of its parts'.

import { PgloadError } from '../errors.js'
import { mergeIntervals, gridShifts } from './merge-series.js'
import { mergeSummary, mergeTransactions } from './merge-totals.js'
import { mergeStages } from './merge-stages.js'
import { mergeWaits } from './merge-waits.js'
import { combineObjects, combineValues, agreed, unionKeys } from './merge-fields.js'
import { PARTITION_OPTIONS } from './merge-check.js'
import { round3 } from '../format/round.js'

/**
 * @param {any[]} parts the partitions' documents, coordinator first
 * @param {number} stepS the run's interval length
 * @param {string[]} sources the documents' names, in the order of `parts`, for messages
 * @returns {Record<string, any>|undefined} the merged section; undefined when no part has one
 */
export function mergeScenarios (parts, stepS, sources) {
  const sections = parts.map((d) => d.scenarios)
  if (sections.every((s) => s === undefined || s === null)) return sections[0]
  const names = unionKeys(sections)
  sections.forEach((s, p) => {
    const lacking = names.find((n) => !s?.[n])
    if (lacking !== undefined) throw new PgloadError(`cannot merge ${sources[p]}: it has no scenario ${lacking}, ${sources[0]} has`, { code: 'RESULTS_MISMATCH' })
  })
  // a scenario's intervals count from its own start, which the barrier made common to all shards:
  // each part moves by its run's shift
  const shifts = gridShifts(parts, stepS)
  return Object.fromEntries(names.map((name) => [name, mergeScenario(parts.map((d) => d.scenarios[name]), shifts, stepS)]))
}

/** One scenario's parts into one section. */
function mergeScenario (list, shifts, stepS) {
  const startS = list[0].startS
  const durationS = round3(Math.max(...list.map((s, p) => shifts[p] * stepS + (s.endS - s.startS))))
  // each part as a document whose measured window opens at its shift on the grid
  const docs = list.map((s, p) => ({ run: { startTime: new Date(shifts[p] * stepS * 1000).toISOString(), warmupS: 0 }, ...s }))
  const typeOrder = unionKeys(list.map((s) => s.transactions))
  const intervals = mergeIntervals(docs, stepS)
  const transactions = mergeTransactions(docs, durationS, typeOrder)
  return combineObjects(list, {
    startS: () => startS,
    endS: () => round3(startS + durationS),
    openedS: () => { const v = list.map((s) => s.openedS).filter((x) => typeof x === 'number'); return v.length ? Math.min(...v) : undefined },
    options: () => partitionFree(list[0].options),
    clients: () => combineValues(list.map((s) => s.clients)),
    connections: () => combineValues(list.map((s) => s.connections)),
    summary: () => mergeSummary(docs, { durationS, intervals, stepS }),
    transactions: () => transactions,
    intervals: () => intervals,
    stages: () => mergeStages(list.map((s) => s.stages), typeOrder),
    waits: () => mergeWaits(list.map((s) => s.waits), transactions, { shifts, stepS })
  }, agreed)
}

/** A scenario's options without those that differ between its parts (its shard, its threads). */
function partitionFree (options) {
  if (!options || typeof options !== 'object') return options
  return Object.fromEntries(Object.entries(options).filter(([k]) => !PARTITION_OPTIONS.has(k)))
}
