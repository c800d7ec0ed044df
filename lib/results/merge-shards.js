// Shards of one run (`run.shard` in each results file): the merge takes all of them or none,
// each once, and aligns them on the server's clock, where their common start was set.

import { PgloadError } from '../errors.js'
import { isNum } from './merge-fields.js'
import { round3 } from '../format/round.js'

/**
 * The shards' record for the merged run (`run.shards`), and which document is shard 0 (the
 * coordinator, whose server statistics the merge keeps). Null when no document is a shard's.
 * Throws a one-line PgloadError (RESULTS_MISMATCH) unless the documents are every shard of one
 * run, each once.
 * @param {any[]} docs
 * @param {string[]} sources names of the documents, for the message
 * @returns {{ coordinator: number, record: { runId: string, count: number, scheduledStart: string|null, startSkewMs: number|null } } | null}
 */
export function shardsOf (docs, sources) {
  const marks = docs.map((d) => d.run?.shard ?? null)
  const marked = marks.findIndex((m) => m !== null)
  if (marked < 0) return null
  const unmarked = marks.findIndex((m) => m === null)
  if (unmarked >= 0) throw mismatch(`${sources[unmarked]} is not a shard's results, ${sources[marked]} is: merge the results of one sharded run`)
  const { runId, count } = marks[marked]
  const byIndex = new Array(count).fill(-1)
  marks.forEach((m, i) => {
    if (m.runId !== runId) throw mismatch(`${sources[i]} is of run id ${m.runId}, ${sources[marked]} of run id ${runId}: not shards of one run`)
    if (m.count !== count) throw mismatch(`${sources[i]} is shard ${m.index}/${m.count}, ${sources[marked]} shard ${marks[marked].index}/${count}: the run's shard counts differ`)
    if (byIndex[m.index] >= 0) throw mismatch(`${sources[byIndex[m.index]]} and ${sources[i]} are both shard ${m.index}/${count} of run id ${runId}`)
    byIndex[m.index] = i
  })
  const missing = byIndex.map((i, k) => i < 0 ? `${k}/${count}` : null).filter(Boolean)
  if (missing.length) throw mismatch(`run id ${runId} has ${count} shards: the results of ${missing.length === 1 ? 'shard' : 'shards'} ${missing.join(', ')} are missing`)
  const late = marks.map((m) => m.startedLateMs)
  const starts = new Set(marks.map((m) => m.scheduledStart))
  return {
    coordinator: byIndex[0],
    record: {
      runId,
      count,
      scheduledStart: starts.size === 1 ? marks[0].scheduledStart : null,
      // how far apart the shards started, on the server's clock
      startSkewMs: starts.size === 1 && late.every(isNum) ? round3(Math.max(...late) - Math.min(...late)) : null
    }
  }
}

/**
 * When a shard's measured window began, in ms since the epoch on the server's clock: the common
 * start, how late the shard began, and its warm-up. Null for a document that is not a shard's.
 * @param {any} doc
 * @returns {number|null}
 */
export function shardMeasuredStartMs (doc) {
  const s = doc.run?.shard
  const at = Date.parse(s?.scheduledStart ?? '')
  if (Number.isNaN(at)) return null
  return at + (isNum(s.startedLateMs) ? s.startedLateMs : 0) + (doc.run.warmupS ?? 0) * 1000
}

const mismatch = (message) => new PgloadError(`cannot merge: ${message}`, { code: 'RESULTS_MISMATCH' })
