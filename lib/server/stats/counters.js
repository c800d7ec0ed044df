// Counter arithmetic for server statistics: text counters -> BigInt, deltas and rates that
// survive missing values and stats resets, the run's deltas and per-transaction figures.

import { round3 } from '../../format/round.js'

/** pg_stat_database columns read at each snapshot: [our name, column]. */
export const DATABASE_COUNTERS = [
  ['xactCommit', 'xact_commit'],
  ['xactRollback', 'xact_rollback'],
  ['blksRead', 'blks_read'],
  ['blksHit', 'blks_hit'],
  ['tupReturned', 'tup_returned'],
  ['tupFetched', 'tup_fetched'],
  ['tupInserted', 'tup_inserted'],
  ['tupUpdated', 'tup_updated'],
  ['tupDeleted', 'tup_deleted'],
  ['tempFiles', 'temp_files'],
  ['tempBytes', 'temp_bytes'],
  ['deadlocks', 'deadlocks'],
  ['conflicts', 'conflicts']
]

/** Per-table counters (pg_stat_user_tables + pg_statio_user_tables): [our name, column]. */
export const TABLE_COUNTERS = [
  ['seqScan', 'seq_scan'],
  ['idxScan', 'idx_scan'],
  ['nTupIns', 'n_tup_ins'],
  ['nTupUpd', 'n_tup_upd'],
  ['nTupDel', 'n_tup_del'],
  ['nTupHotUpd', 'n_tup_hot_upd'],
  ['autovacuumCount', 'autovacuum_count'],
  ['autoanalyzeCount', 'autoanalyze_count'],
  ['heapBlksRead', 'heap_blks_read'],
  ['heapBlksHit', 'heap_blks_hit']
]

/** Per-table gauges, reported as their value at the end of the run. */
export const TABLE_GAUGES = [
  ['nLiveTup', 'n_live_tup'],
  ['nDeadTup', 'n_dead_tup'],
  ['sizeBytes', 'size_bytes'],
  ['indexesSizeBytes', 'indexes_size_bytes']
]

/**
 * Parse an integer counter sent as text ('123', '123.0' from numeric); null stays null.
 * @param {string|null|undefined} text
 * @returns {bigint|null}
 */
export function parseCounter (text) {
  if (text === null || text === undefined || text === '') return null
  const dot = text.indexOf('.')
  try {
    return BigInt(dot === -1 ? text : text.slice(0, dot))
  } catch {
    return null
  }
}

/**
 * end - start as a Number; null when either is missing or the counter went backwards (reset).
 * @param {bigint|null|undefined} start
 * @param {bigint|null|undefined} end
 * @returns {number|null}
 */
export function counterDelta (start, end) {
  if (start === null || start === undefined || end === null || end === undefined) return null
  if (end < start) return null
  return Number(end - start)
}

/**
 * A per-second rate rounded to 3 decimals; null when the delta is missing or no time passed.
 * @param {number|null} delta
 * @param {number} seconds
 */
export function ratePerS (delta, seconds) {
  if (delta === null || !(seconds > 0)) return null
  return round3(delta / seconds)
}

/** Round to 3 decimals (figures stay readable in JSON). */

/**
 * Map a row to { ourName: bigint|null } using [name, column] pairs and the result's fields.
 * @param {string[]} fields
 * @param {(string|null)[]} row
 * @param {[string, string][]} pairs
 */
export function rowCounters (fields, row, pairs) {
  const out = {}
  for (const [name, column] of pairs) {
    const i = fields.indexOf(column)
    out[name] = i === -1 ? null : parseCounter(row[i])
  }
  return out
}

/**
 * The run's deltas between two snapshots (see StatsSampler.finish for the shape). The sampler's
 * own transactions between the two readings (`own`) are subtracted from the commit and rollback
 * counts, so xactCommit counts the workload's transactions only.
 * @param {any} base snapshot at the start of the measured window
 * @param {any} end snapshot at the end
 * @param {{ commits: number, rollbacks: number }} [own]
 */
export function computeDeltas (base, end, own = { commits: 0, rollbacks: 0 }) {
  const deltas = {}
  for (const [name] of DATABASE_COUNTERS) deltas[name] = counterDelta(base.db?.[name], end.db?.[name])
  if (deltas.xactCommit !== null) deltas.xactCommit = Math.max(0, deltas.xactCommit - own.commits)
  if (deltas.xactRollback !== null) deltas.xactRollback = Math.max(0, deltas.xactRollback - own.rollbacks)
  deltas.walBytes = counterDelta(base.walLsn, end.walLsn)
  deltas.walRecords = counterDelta(base.wal?.walRecords, end.wal?.walRecords)
  deltas.walFpi = counterDelta(base.wal?.walFpi, end.wal?.walFpi)
  deltas.checkpointsTimed = counterDelta(base.checkpoints?.timed, end.checkpoints?.timed)
  deltas.checkpointsRequested = counterDelta(base.checkpoints?.requested, end.checkpoints?.requested)
  deltas.checkpointsDone = counterDelta(base.checkpoints?.done, end.checkpoints?.done)
  deltas.buffersWritten = counterDelta(base.checkpoints?.buffersWritten, end.checkpoints?.buffersWritten)
  deltas.buffersClean = counterDelta(base.checkpoints?.buffersClean, end.checkpoints?.buffersClean)
  deltas.cacheHitRatio = cacheHitRatio(deltas.blksHit, deltas.blksRead)
  return deltas
}

/**
 * blks_hit / (blks_hit + blks_read), 4 decimals; null when unknown or no block was touched.
 * @param {number|null} hit
 * @param {number|null} read
 */
export function cacheHitRatio (hit, read) {
  if (hit === null || read === null || hit + read === 0) return null
  return Math.round(hit / (hit + read) * 10000) / 10000
}

/**
 * Figures per transaction: WAL bytes, blocks read (from outside shared buffers), blocks requested
 * (read + hit) and tuples (returned + fetched + inserted + updated + deleted, everything
 * pg_stat_database counts as tuple work).
 * @param {Record<string, number|null>} deltas
 * @param {number|undefined} transactions the run's transactions (committed + rolled back by the workload)
 */
export function perTransaction (deltas, transactions) {
  const per = (x) => (x === null || x === undefined || !(transactions > 0)) ? null : round3(x / transactions)
  const sum = (...xs) => xs.some(x => x === null || x === undefined) ? null : xs.reduce((a, b) => a + b, 0)
  return {
    walBytes: per(deltas.walBytes),
    blocksRead: per(deltas.blksRead),
    blocks: per(sum(deltas.blksRead, deltas.blksHit)),
    tuples: per(sum(deltas.tupReturned, deltas.tupFetched, deltas.tupInserted, deltas.tupUpdated, deltas.tupDeleted))
  }
}

/**
 * Per-table figures: counter deltas, gauges at the end. Tables absent from either snapshot are
 * reported with null figures.
 * @param {Record<string, any>} baseTables name -> counters
 * @param {Record<string, any>} endTables name -> counters and gauges
 * @param {string[]} names
 */
export function tableDeltas (baseTables, endTables, names) {
  const out = {}
  for (const name of names) {
    const b = baseTables?.[name]
    const e = endTables?.[name]
    const t = {}
    for (const [key] of TABLE_COUNTERS) t[key] = counterDelta(b?.[key], e?.[key])
    for (const [key] of TABLE_GAUGES) t[key] = e?.[key] === null || e?.[key] === undefined ? null : Number(e[key])
    out[name] = t
  }
  return out
}
