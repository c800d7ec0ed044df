// Writes by a workload that only reads: blocks its statements dirtied and WAL full-page images
// they wrote (pg_stat_statements). A read-only workload that writes is setting hint bits or
// pruning pages, the cost of the first reads after a bulk load that was not vacuumed.

// Transaction control and session settings: neither reads nor writes of the workload's tables.
const NEUTRAL = /^\s*(begin|start\s+transaction|commit|end|rollback|abort|savepoint|release|set|reset|show|discard|deallocate)\b/i
const READ = /^\s*(select|values|table|with)\b/i
// Inside a reading statement: what makes it write (data-modifying WITH, row locks, sequences).
const WRITES = /\b(insert|update|delete|merge|nextval|setval)\b|\bfor\s+(no\s+key\s+update|key\s+share|update|share)\b/i

/**
 * Whether a statement's text only reads (false for DML, DDL, utility such as VACUUM, and text
 * that cannot be seen); null for transaction control, which neither reads nor writes.
 * @param {string|null} query pg_stat_statements' normalised text
 * @returns {boolean|null}
 */
export function readsOnly (query) {
  if (typeof query !== 'string') return false
  if (NEUTRAL.test(query)) return null
  return READ.test(query) && !WRITES.test(query)
}

/**
 * The window's statements in total: how many, whether all of them only read, and the blocks they
 * dirtied and the full-page images they wrote (null when pg_stat_statements lacks the column).
 * @param {{ query: string|null, calls: number, blksDirtied?: number|null, walFpi?: number|null }[]} deltas statementDeltas' rows
 * @returns {{ statements: number, readOnly: boolean, blksDirtied: number|null, walFpi: number|null }}
 */
export function statementWrites (deltas) {
  let readOnly = true
  let reading = 0
  const sum = { blksDirtied: 0, walFpi: 0 }
  for (const d of deltas) {
    const r = readsOnly(d.query)
    if (r === false) readOnly = false
    if (r === true) reading++
    for (const k of ['blksDirtied', 'walFpi']) {
      if (d[k] === null || d[k] === undefined) sum[k] = null
      else if (sum[k] !== null) sum[k] += d[k]
    }
  }
  return { statements: deltas.length, readOnly: readOnly && reading > 0, ...sum }
}

/**
 * The summary's line for a read-only workload whose statements wrote, or null.
 * @param {ReturnType<typeof statementWrites>|undefined} w serverStats.statements.writes
 * @returns {string|null}
 */
export function readOnlyWritesText (w) {
  if (!w?.readOnly || !(w.blksDirtied > 0 || w.walFpi > 0)) return null
  const n = (x) => Number(x).toLocaleString('en-US')
  const what = [w.blksDirtied > 0 ? `dirtied ${n(w.blksDirtied)} blocks` : null, w.walFpi > 0 ? `wrote ${n(w.walFpi)} WAL full-page images` : null].filter(Boolean)
  return `note: this workload only reads, yet its statements ${what.join(' and ')} (setting hint bits or pruning after a load): VACUUM the tables first`
}
