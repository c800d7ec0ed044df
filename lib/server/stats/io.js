// pg_stat_io (PostgreSQL 16+): reads, writes, extends and fsyncs by backend type, object and
// context; per-interval rates by backend type for the series, and the window's deltas per row.

import { counterDelta, parseCounter } from './counters.js'
import { round3 } from '../../format/round.js'

/** The operations read from pg_stat_io: [our name, count column, time column]. */
export const IO_OPS = [
  ['reads', 'reads', 'read_time'],
  ['writes', 'writes', 'write_time'],
  ['extends', 'extends', 'extend_time'],
  ['fsyncs', 'fsyncs', 'fsync_time']
]

/**
 * The reading's rows keyed `backend type|object|context`; counts as BigInt, times (ms, 0 unless
 * track_io_timing is on) as Number. A count the server does not track for a row stays null.
 * @param {string[]} fields
 * @param {(string|null)[][]} rows
 * @returns {Map<string, { backendType: string, object: string, context: string, counts: Record<string, bigint|null>, timesMs: Record<string, number|null> }>}
 */
export function parseIoRows (fields, rows) {
  const at = (c) => fields.indexOf(c)
  const out = new Map()
  for (const row of rows) {
    const counts = {}
    const timesMs = {}
    for (const [name, count, time] of IO_OPS) {
      counts[name] = parseCounter(row[at(count)])
      const t = row[at(time)]
      timesMs[name] = t === null || t === undefined ? null : Number(t)
    }
    const [backendType, object, context] = [row[at('backend_type')], row[at('object')], row[at('context')]]
    out.set(`${backendType}|${object}|${context}`, { backendType, object, context, counts, timesMs })
  }
  return out
}

/**
 * Per-second rates by backend type between two readings: { [backendType]: { reads, writes,
 * extends, fsyncs } }, rows summed over objects and contexts. null when either reading lacks
 * pg_stat_io or no time passed; a row that went backwards (stats reset) counts as nothing.
 * @param {Map<string, any>|null|undefined} prev
 * @param {Map<string, any>|null|undefined} cur
 * @param {number} seconds
 * @returns {Record<string, Record<string, number>>|null}
 */
export function ioRates (prev, cur, seconds) {
  if (!prev || !cur || !(seconds > 0)) return null
  const out = {}
  for (const d of ioDeltas(prev, cur)) {
    const sums = out[d.backendType] ?? (out[d.backendType] = { reads: 0, writes: 0, extends: 0, fsyncs: 0 })
    for (const [name] of IO_OPS) sums[name] += d[name] ?? 0
  }
  for (const sums of Object.values(out)) for (const [name] of IO_OPS) sums[name] = round3(sums[name] / seconds)
  return out
}

/**
 * The rows that moved between two readings (a row absent from `base` counts from zero), with their count deltas and their times' deltas
 * (`readTimeMs`, ...: present only when track_io_timing made a time move), largest first.
 * @param {Map<string, any>} base
 * @param {Map<string, any>} end
 * @returns {{ backendType: string, object: string, context: string, reads: number|null, writes: number|null, extends: number|null, fsyncs: number|null }[]}
 */
export function ioDeltas (base, end) {
  const out = []
  for (const [key, e] of end) {
    const b = base.get(key)
    const d = { backendType: e.backendType, object: e.object, context: e.context }
    let moved = false
    for (const [name] of IO_OPS) {
      // a row absent from the earlier reading was at zero (the query leaves such rows out)
      d[name] = counterDelta(b ? b.counts[name] : ZERO(e.counts[name]), e.counts[name])
      if (d[name] > 0) moved = true
      const dt = e.timesMs[name] === null ? 0 : e.timesMs[name] - (b ? b.timesMs[name] ?? e.timesMs[name] : 0)
      if (dt > 0) d[`${name.slice(0, -1)}TimeMs`] = round3(dt)
    }
    if (moved) out.push(d)
  }
  return out.sort((x, y) => ioTotal(y) - ioTotal(x))
}

// Zero where the server counts the operation, null where it does not.
const ZERO = (count) => count === null ? null : 0n

/**
 * Reads + writes + extends + fsyncs of a delta row or a backend type's sums.
 * @param {Record<string, number|null>} d
 */
export function ioTotal (d) {
  return IO_OPS.reduce((s, [name]) => s + (d[name] ?? 0), 0)
}

/**
 * The window's I/O by backend type, largest first: the summary's figures. `wal` is the part of
 * them on the WAL object (PostgreSQL 18+), null where there was none.
 * @param {ReturnType<typeof ioDeltas>} rows
 * @returns {{ backendType: string, reads: number, writes: number, extends: number, fsyncs: number, wal: Record<string, number>|null }[]}
 */
export function ioByBackendType (rows) {
  const by = new Map()
  for (const r of rows) {
    const s = by.get(r.backendType) ?? { backendType: r.backendType, reads: 0, writes: 0, extends: 0, fsyncs: 0, wal: null }
    // PostgreSQL 18 counts WAL as an object of its own: its share is said apart, as it is not the tables'
    if (r.object === 'wal' && !s.wal) s.wal = { reads: 0, writes: 0, extends: 0, fsyncs: 0 }
    for (const [name] of IO_OPS) {
      s[name] += r[name] ?? 0
      if (r.object === 'wal') s.wal[name] += r[name] ?? 0
    }
    by.set(r.backendType, s)
  }
  return [...by.values()].sort((a, b) => ioTotal(b) - ioTotal(a))
}
