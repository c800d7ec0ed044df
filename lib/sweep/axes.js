// The axes of a sweep (scale or warehouses, clients, rate; chbench's analytic streams) as comma
// lists, and the cells they span: every combination, one cell per point of the grid.

import { PgloadError } from '../errors.js'
import { shownValue } from '../options/shown.js'

/**
 * @typedef {{ scale?: number|null, warehouses?: number|null, clients: number|null, rate: number|null, streams?: number|null }} Cell
 *   a point of the grid; an axis that is not swept is null (tpcc and chbench have `warehouses`
 *   instead of `scale`; only chbench has `streams`)
 * @typedef {{ scale?: number[]|null, warehouses?: number[]|null, clients: number[]|null, rate: number[]|null, streams?: number[]|null }} Axes
 */

/** The workloads sized by warehouses, whose terminals are fixed (10 per warehouse). */
const TPCC_TABLES = ['tpcc', 'chbench']

/**
 * Whether a workload runs TPC-C's terminals on TPC-C's tables (tpcc, chbench).
 * @param {string} workload
 * @returns {boolean}
 */
export function isTpccLike (workload) {
  return TPCC_TABLES.includes(workload)
}

/**
 * The name of the size axis: what `init` loads. TPC-C (and CH-benCHmark on its tables) counts
 * warehouses, pgbench's tables a scale.
 * @param {string} workload the workload module's name (tpcb also for script files)
 * @returns {'scale'|'warehouses'}
 */
export function sizeAxis (workload) {
  return isTpccLike(workload) ? 'warehouses' : 'scale'
}

/**
 * A comma list of numbers as typed (`1,2,4`), in ascending order. An empty item, a value out
 * of range or a repeated value is a mistake worth one line.
 * @param {unknown} value a string, a number, or an array of them (a flag given several times)
 * @param {string} flag e.g. '--clients'
 * @param {{ integer?: boolean, min?: number, exclusiveMin?: boolean }} [kind]
 * @returns {number[]|null} null when the flag was not given
 */
export function parseList (value, flag, { integer = true, min = 1, exclusiveMin = false } = {}) {
  if (value === undefined || value === null) return null
  const text = Array.isArray(value) ? value.join(',') : String(value)
  const what = `a comma-separated list of ${integer ? 'integers' : 'numbers'} ${exclusiveMin ? '>' : '>='} ${min}`
  const items = text.split(',').map((s) => s.trim())
  const out = []
  for (const item of items) {
    const n = item === '' ? NaN : Number(item)
    const ok = (integer ? /^\d+$/.test(item) : /^\d+(\.\d+)?$/.test(item)) && Number.isFinite(n) && (exclusiveMin ? n > min : n >= min)
    if (!ok) throw new PgloadError(`${flag} must be ${what}, got ${shownValue(text)}`, { code: 'BAD_OPTION' })
    if (out.includes(n)) throw new PgloadError(`${flag} lists ${n} twice, got ${shownValue(text)}`, { code: 'BAD_OPTION' })
    out.push(n)
  }
  return out.sort((a, b) => a - b)
}

/**
 * The axes from the options as typed. `--streams` (0: no analytic stream) is chbench's alone:
 * another workload's sweep would run the same cell again under another name.
 * @param {{ size?: unknown, clients?: unknown, rate?: unknown, streams?: unknown }} given size: --scale or --warehouses
 * @param {string} workload
 * @returns {Axes}
 */
export function parseAxes ({ size, clients, rate, streams }, workload) {
  const name = sizeAxis(workload)
  const axes = {
    [name]: parseList(size, `--${name}`),
    clients: parseList(clients, '--clients'),
    rate: parseList(rate, '--rate', { integer: false, min: 0, exclusiveMin: true })
  }
  if (workload === 'chbench') axes.streams = parseList(streams, '--streams', { min: 0 })
  else if (streams !== undefined && streams !== null) {
    throw new PgloadError(`--streams goes with chbench only, not with ${workload}`, { code: 'BAD_OPTION', hint: 'pgload sweep chbench --warehouses 1 --streams 0,1,2,4' })
  }
  return axes
}

/**
 * Every cell of the grid, by size, then clients, then rate, then streams, ascending. A cell
 * names the streams only in a chbench sweep.
 * @param {Axes} axes
 * @returns {Cell[]}
 */
export function cellsOf (axes) {
  const name = 'warehouses' in axes ? 'warehouses' : 'scale'
  const cells = []
  for (const size of axes[name] ?? [null]) {
    for (const clients of axes.clients ?? [null]) {
      for (const rate of axes.rate ?? [null]) {
        if (!('streams' in axes)) cells.push({ [name]: size, clients, rate })
        else for (const streams of axes.streams ?? [null]) cells.push({ [name]: size, clients, rate, streams })
      }
    }
  }
  return cells
}

/**
 * The size of a cell (its scale or warehouses), or null.
 * @param {Cell} cell
 * @returns {number|null}
 */
export function cellSize (cell) {
  return cell.warehouses ?? cell.scale ?? null
}

/**
 * A stable key for a cell, for grouping runs: `scale=1 clients=4 rate=null`.
 * @param {Cell} cell
 * @returns {string}
 */
export function cellKey (cell) {
  return Object.entries(cell).map(([k, v]) => `${k}=${v}`).join(' ')
}

const SHORT = { scale: 's', warehouses: 'w', clients: 'c', rate: 'R', streams: 'k' }

/**
 * The file name of a run of a cell: `s1-c4-r2.json` (scale 1, 4 clients, second repeat;
 * `w1-k2-r1.json`: 1 warehouse, 2 analytic streams); axes that are not swept are left out.
 * @param {Cell} cell
 * @param {number} repeat 1-based
 * @returns {string}
 */
export function runFileName (cell, repeat) {
  const parts = Object.entries(cell).filter(([, v]) => v !== null).map(([k, v]) => `${SHORT[k]}${v}`)
  return `${[...parts, `r${repeat}`].join('-')}.json`
}

/**
 * The cell in words, for progress lines: `scale 10, clients 4, rate 1000`.
 * @param {Cell} cell
 * @returns {string}
 */
export function cellText (cell) {
  const parts = Object.entries(cell).filter(([, v]) => v !== null).map(([k, v]) => `${k} ${v}`)
  return parts.join(', ')
}
