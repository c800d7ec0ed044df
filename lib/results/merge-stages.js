// The stages[] of partitions of one run (worker threads, shards) merged stage by stage: stage k
// of every partition into stage k, counters added, histograms added and every figure derived
// again by the code that merges the run's totals (lib/results/merge-totals.js).

import { mergeSummary, mergeTransactions } from './merge-totals.js'
import { meanTarget } from '../metrics/stage-windows.js'
import { round3 } from '../format/round.js'
import { PgloadError } from '../errors.js'

// run-wide figures of a summary that a stage does not have
const NOT_OF_A_STAGE = ['steadyState', 'initialConnectionMs', 'averageConnectionMs', 'unfinishedWaitMs']

/**
 * @param {(import('../metrics/stage-windows.js').StageEntry[]|undefined)[]} partStages each
 *   partition's stages[] (undefined: it has none)
 * @param {string[]} typeOrder the run's transaction types
 * @returns {import('../metrics/stage-windows.js').StageEntry[]|undefined}
 */
export function mergeStages (partStages, typeOrder) {
  const lists = partStages.filter(Array.isArray)
  if (lists.length === 0) return undefined
  const count = Math.max(...lists.map((l) => l.length))
  const out = []
  for (let k = 0; k < count; k++) {
    const entries = lists.map((l) => l[k]).filter((e) => e !== null && typeof e === 'object')
    out.push(mergeStage(entries, typeOrder))
  }
  return out
}

/** @param {import('../metrics/stage-windows.js').StageEntry[]} entries stage k of each partition */
function mergeStage (entries, typeOrder) {
  const first = entries[0]
  for (const e of entries) {
    if (e.kind !== first.kind || e.startS !== first.startS || e.endS !== first.endS || e.target?.from !== first.target?.from || e.target?.to !== first.target?.to) {
      throw new PgloadError(`cannot merge: stage ${first.index + 1} differs between the partitions (${e.kind} ${e.startS}-${e.endS} s to ${e.target?.to}, and ${first.kind} ${first.startS}-${first.endS} s to ${first.target?.to})`, { code: 'RESULTS_MISMATCH' })
    }
  }
  const lengthS = round3(Math.max(...entries.map((e) => e.lengthS ?? 0)))
  const transactions = mergeTransactions(entries, lengthS, typeOrder)
  for (const t of Object.values(transactions)) { delete t.keyingMs; delete t.thinkMs }
  const summary = mergeSummary(entries, { durationS: lengthS, intervals: [], stepS: 1 })
  for (const k of NOT_OF_A_STAGE) delete summary[k]
  const bounds = { startUs: first.startS * 1e6, endUs: first.endS * 1e6, from: first.target.from, to: first.target.to, ramp: first.ramp }
  return {
    index: first.index,
    kind: first.kind,
    startS: first.startS,
    endS: first.endS,
    lengthS,
    target: { ...first.target },
    ramp: first.ramp,
    offeredTps: first.kind === 'rate' ? round3(meanTarget(bounds, Math.min(first.endS, first.startS + lengthS) - first.startS)) : null,
    achievedTps: summary.tps,
    dropped: summary.dropped ?? 0,
    // partitions written before stages counted by arrival have no countedBy: neither has the merge
    ...(entries.every((e) => e.countedBy === 'arrival') ? { countedBy: 'arrival' } : {}),
    summary,
    transactions
  }
}
