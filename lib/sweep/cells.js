// Per cell of a sweep: the median of its finished runs with their minimum and maximum, for
// throughput and latency (and, for CH-benCHmark, tpmC, New-Order p90 and queries per hour). The median, not the mean: one run disturbed by a checkpoint or an
// autovacuum must not move a cell's figure.

import { median } from '../compare/statistics/distribution-free.js'
import { cellKey } from './axes.js'

/** The figures of a run that a cell summarises, as the sweep document names them. */
export const FIGURES = ['tps', 'p50Ms', 'p99Ms', 'maxMs']
/** A CH-benCHmark run's own figures (lib/sweep/runner.js chbenchFields), summarised when its runs have them. */
export const CHBENCH_FIGURES = ['tpmC', 'newOrderP90Ms', 'queriesPerHour']

/**
 * Median, minimum and maximum of the numbers among the values (null and undefined left out);
 * all null when there are none.
 * @param {(number|null|undefined)[]} values
 * @returns {{ median: number|null, min: number|null, max: number|null }}
 */
export function spread (values) {
  const xs = values.filter((v) => typeof v === 'number' && Number.isFinite(v))
  if (xs.length === 0) return { median: null, min: null, max: null }
  return { median: round(median(xs)), min: Math.min(...xs), max: Math.max(...xs) }
}

/**
 * The cells with at least one `done` run, in the grid's order (size, clients, rate ascending),
 * each with its figures over its done runs.
 * @param {{ cell: import('./axes.js').Cell, status: string, tablesSizeBytes?: number|null, dbSizeBytes?: number|null } & Record<string, any>[]} runs
 * @returns {object[]}
 */
export function summariseCells (runs) {
  const groups = new Map()
  for (const run of runs) {
    if (run.status !== 'done') continue
    const key = cellKey(run.cell)
    if (!groups.has(key)) groups.set(key, { cell: run.cell, runs: [] })
    groups.get(key).runs.push(run)
  }
  const cells = [...groups.values()].map(({ cell, runs: done }) => {
    const out = { cell, runs: done.length }
    for (const f of FIGURES) out[f] = spread(done.map((r) => r[f]))
    for (const f of CHBENCH_FIGURES) if (done.some((r) => f in r)) out[f] = spread(done.map((r) => r[f]))
    for (const k of ['tablesSizeBytes', 'dbSizeBytes']) {
      const size = spread(done.map((r) => r[k])).median
      out[k] = size === null ? null : Math.round(size)
    }
    return out
  })
  return cells.sort((a, b) => compareCells(a.cell, b.cell))
}

/**
 * Order of cells on the grid: by each axis in turn, ascending, a missing value first.
 * @param {import('./axes.js').Cell} a
 * @param {import('./axes.js').Cell} b
 */
export function compareCells (a, b) {
  for (const k of Object.keys(a)) {
    const x = a[k] ?? -Infinity
    const y = b[k] ?? -Infinity
    if (x !== y) return x < y ? -1 : 1
  }
  return 0
}

// the median of an even count is the mean of the middle two: no float noise in the document
function round (x) {
  return Math.round(x * 1e6) / 1e6
}
