// The shape of a sweep as its report draws it: which axis runs along x (CH-benCHmark's analytic
// streams, else clients, else the rate or the size when only they are swept), which axes make the lines (one per scale, say), how cells are
// named, and which cells of the grid have no finished run.

/** Axes that name the database size: scale (pgbench-like) or warehouses (tpcc, chbench). */
const SIZE_KEYS = ['scale', 'warehouses']
/** Every axis a cell can name, in the order a cell's name lists them (streams: chbench's). */
export const AXIS_KEYS = [...SIZE_KEYS, 'clients', 'rate', 'streams']

const isNum = (v) => typeof v === 'number' && Number.isFinite(v)
const fmtNum = (v) => v.toLocaleString('en-US', { maximumFractionDigits: 3 })

/**
 * @typedef {{ sizeKey: string|null, xKey: string|null, seriesKeys: string[], values: Record<string, number[]> }} SweepShape
 *   values: every value of each axis, ascending (from `axes` and from the runs)
 */

/**
 * The value of one axis in a cell, or null when the cell does not name it.
 * @param {Record<string, number|null|undefined>} key a cell's `cell`
 * @param {string} axis
 * @returns {number|null}
 */
export function axisValue (key, axis) {
  const v = key?.[axis]
  return isNum(v) ? v : null
}

/**
 * The sweep's shape: axis values, the x axis and the axes that split cells into lines.
 * @param {any} sweep a checked sweep document
 * @returns {SweepShape}
 */
export function sweepShape (sweep) {
  const values = {}
  for (const axis of AXIS_KEYS) {
    const seen = new Set(Array.isArray(sweep.axes?.[axis]) ? sweep.axes[axis].filter(isNum) : [])
    for (const r of [...sweep.runs, ...sweep.cells]) {
      const v = axisValue(r.cell, axis)
      if (v !== null) seen.add(v)
    }
    values[axis] = [...seen].sort((a, b) => a - b)
  }
  const sizeKey = SIZE_KEYS.find((k) => values[k].length > 0) ?? null
  // The analytic streams along x when they are swept: what they cost is the question such a sweep
  // asks; else clients, as pgbench-tools draws it; else the rate, else the size.
  const order = ['streams', 'clients', 'rate', sizeKey].filter(Boolean)
  const xKey = order.find((k) => values[k].length > 1) ?? order.find((k) => values[k].length > 0) ?? null
  const seriesKeys = AXIS_KEYS.filter((k) => k !== xKey && values[k].length > 1)
  return { sizeKey, xKey, seriesKeys, values }
}

/**
 * One axis value as a reader says it: "scale 10", "10 warehouses", "16 clients", "rate 1,000/s".
 * @param {string} axis
 * @param {number} v
 * @returns {string}
 */
export function axisText (axis, v) {
  if (axis === 'scale') return `scale ${fmtNum(v)}`
  if (axis === 'warehouses') return `${fmtNum(v)} warehouse${v === 1 ? '' : 's'}`
  if (axis === 'clients') return `${fmtNum(v)} client${v === 1 ? '' : 's'}`
  if (axis === 'streams') return `${fmtNum(v)} analytic stream${v === 1 ? '' : 's'}`
  return `rate ${fmtNum(v)}/s`
}

/**
 * The title of an axis on a chart.
 * @param {string} axis
 */
export function axisTitle (axis) {
  if (axis === 'streams') return 'analytic streams'
  return axis === 'rate' ? 'target rate (transactions per second)' : axis
}

/**
 * The x axis in a chart's title: "clients", "the target rate", "scale", "warehouses".
 * @param {string} axis
 */
export function axisInTitle (axis) {
  if (axis === 'streams') return 'analytic streams'
  return axis === 'rate' ? 'the target rate' : axis
}

/**
 * A point's label on the knee chart: short, the x axis value ("16", "1,000/s", "scale 10").
 * @param {string} axis
 * @param {number} v
 */
export function pointText (axis, v) {
  if (axis === 'clients' || axis === 'streams') return String(v)
  return axis === 'rate' ? `${fmtNum(v)}/s` : axisText(axis, v)
}

/**
 * A cell's full name: every axis it names, "scale 10, 16 clients".
 * @param {Record<string, number|null>} key
 * @returns {string}
 */
export function cellName (key) {
  return AXIS_KEYS.filter((a) => axisValue(key, a) !== null).map((a) => axisText(a, key[a])).join(', ')
}

/**
 * The line a cell belongs to: its values on the series axes, or, when no other axis is swept,
 * the size the whole sweep ran at (or the workload).
 * @param {Record<string, number|null>} key
 * @param {SweepShape} shape
 * @param {string} workload
 * @returns {string}
 */
export function seriesName (key, shape, workload) {
  const keys = shape.seriesKeys.length > 0 ? shape.seriesKeys : [shape.sizeKey].filter((k) => k && k !== shape.xKey)
  const parts = keys.filter((a) => axisValue(key, a) !== null).map((a) => axisText(a, key[a]))
  return parts.length > 0 ? parts.join(', ') : workload
}

/**
 * Sort key of a cell along the series axes then x: lines and legends in numeric order.
 * @param {Record<string, number|null>} a
 * @param {Record<string, number|null>} b
 * @param {SweepShape} shape
 */
export function compareCells (a, b, shape) {
  for (const axis of [...shape.seriesKeys, shape.xKey]) {
    const d = (axisValue(a, axis) ?? -Infinity) - (axisValue(b, axis) ?? -Infinity)
    if (d !== 0) return d
  }
  return 0
}

const sameCell = (a, b) => AXIS_KEYS.every((k) => axisValue(a, k) === axisValue(b, k))

/**
 * Cells of the grid (every combination of the axes' values) with no finished run, each with
 * what happened to its runs ("2 failed, 1 pending", or "no run recorded").
 * @param {any} sweep
 * @param {SweepShape} shape
 * @returns {{ cell: Record<string, number|null>, name: string, why: string }[]}
 */
export function missingCells (sweep, shape) {
  let grid = [{}]
  for (const axis of AXIS_KEYS) {
    if (shape.values[axis].length === 0) continue
    grid = grid.flatMap((g) => shape.values[axis].map((v) => ({ ...g, [axis]: v })))
  }
  const missing = []
  for (const key of grid) {
    if (sweep.cells.some((c) => sameCell(c.cell, key) && c.runs > 0)) continue
    const counts = new Map()
    for (const r of sweep.runs) if (sameCell(r.cell, key)) counts.set(r.status, (counts.get(r.status) ?? 0) + 1)
    const why = counts.size === 0 ? 'no run recorded' : [...counts].map(([s, n]) => `${n} ${s}`).join(', ')
    missing.push({ cell: key, name: cellName(key), why })
  }
  return missing
}
