// The cells a DBA picks from a sweep: per database size, the fastest cell, and the fastest cell
// whose p99 stays within a latency limit in every repeat (the worst repeat, not the median: a
// configuration is judged by its worst case). Without a limit, a ladder of round limits shows
// what each step of allowed latency buys.

import { PgloadError } from '../../errors.js'
import { parseDurationS } from '../../options/parse.js'
import { axisValue, axisText } from './axes.js'
import { drawnCells } from './datasets.js'
import { shownValue } from '../../options/shown.js'

const isNum = (v) => typeof v === 'number' && Number.isFinite(v)
/** Round limits (ms) tried when no --p99-limit is given: 1-2-5 steps from 0.1 ms to 1 min. */
export const LIMIT_LADDER_MS = [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 60000]

/**
 * The worst p99 of a cell's repeats (its maximum, else its median).
 * @param {any} cell
 * @returns {number|null}
 */
export function worstP99Ms (cell) {
  const s = cell.p99Ms
  return isNum(s?.max) ? s.max : isNum(s?.median) ? s.median : null
}

/**
 * Parse `--p99-limit`: a latency with a unit (10ms, 0.5s, 800us); a bare number is milliseconds.
 * @param {unknown} value
 * @returns {number} milliseconds, > 0
 */
export function parseP99LimitMs (value) {
  const bare = typeof value === 'number' || (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value))
  // seconds to ms, rounded to a nanosecond so that 800us is 0.8, not 0.7999999999999999
  const ms = bare ? Number(value) : Math.round(parseDurationS(value, '--p99-limit') * 1e9) / 1e6
  if (!(ms > 0) || !Number.isFinite(ms)) throw new PgloadError(`--p99-limit must be a latency above zero like 10ms or 0.5s, got ${shownValue(value)}`, { code: 'BAD_OPTION' })
  return ms
}

/** The fastest of some cells (median tps); ties go to the lower worst p99. */
function fastest (cells) {
  let best = null
  for (const c of cells) {
    if (!best || c.tps.median > best.tps.median || (c.tps.median === best.tps.median && (worstP99Ms(c) ?? Infinity) < (worstP99Ms(best) ?? Infinity))) best = c
  }
  return best
}

/**
 * The fastest cell whose worst p99 is within `limitMs`, or null.
 * @param {any[]} cells
 * @param {number} limitMs
 */
export function bestWithin (cells, limitMs) {
  return fastest(cells.filter((c) => { const p = worstP99Ms(c); return p !== null && p <= limitMs }))
}

/**
 * The limits of the ladder that change the answer: from the first round limit any cell meets up
 * to the one the fastest cell meets, each kept only when its best cell differs from the last.
 * @param {any[]} cells
 * @returns {number[]}
 */
export function ladderLimits (cells) {
  const top = fastest(cells)
  const topP99 = top && worstP99Ms(top)
  if (topP99 === null || topP99 === undefined) return []
  const limits = []
  let last = null
  for (const limitMs of LIMIT_LADDER_MS) {
    const best = bestWithin(cells, limitMs)
    if (best && best !== last) {
      limits.push(limitMs)
      last = best
    }
    if (limitMs >= topP99) break
  }
  return limits
}

/**
 * @typedef {{ group: string|null, choice: string, limitMs: number|null, cell: any|null, note: string|null }} BestRow
 */

/**
 * The rows of the best-cells table, per database size when the size is swept.
 * @param {any} sweep
 * @param {import('./axes.js').SweepShape} shape
 * @param {{ p99LimitMs?: number|null }} [opts]
 * @returns {{ rows: BestRow[], limitNote: string }}
 */
export function bestCells (sweep, shape, opts = {}) {
  const limit = opts.p99LimitMs ?? null
  const cells = drawnCells(sweep, shape)
  const bySize = shape.sizeKey && shape.values[shape.sizeKey].length > 1
  const groups = bySize
    ? shape.values[shape.sizeKey].map((v) => ({ name: axisText(shape.sizeKey, v), cells: cells.filter((c) => axisValue(c.cell, shape.sizeKey) === v) }))
    : [{ name: null, cells }]
  const rows = []
  for (const g of groups) {
    if (g.cells.length === 0) continue
    rows.push({ group: g.name, choice: 'fastest', limitMs: null, cell: fastest(g.cells), note: null })
    for (const limitMs of limit === null ? ladderLimits(g.cells) : [limit]) {
      const cell = bestWithin(g.cells, limitMs)
      const lowest = Math.min(...g.cells.map(worstP99Ms).filter(isNum))
      const note = cell ? null : `no cell keeps p99 within ${msText(limitMs)}${Number.isFinite(lowest) ? ` (lowest worst p99: ${msText(lowest)})` : ''}`
      rows.push({ group: g.name, choice: `best with p99 ≤ ${msText(limitMs)}`, limitMs, cell, note })
    }
  }
  const limitNote = limit === null
    ? 'No --p99-limit given: the best cell for each round limit that changes the answer (p99 of the worst repeat).'
    : `p99 limit ${msText(limit)} (--p99-limit), met by the worst repeat of the cell.`
  return { rows, limitNote }
}

/**
 * A latency in ms as a limit is written: 0.5 ms, 10 ms, 2 s.
 * @param {number} ms
 */
export function msText (ms) {
  return ms >= 1000 ? `${+(ms / 1000).toFixed(3)} s` : `${+ms.toFixed(3)} ms`
}
