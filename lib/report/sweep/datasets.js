// Shapes a sweep document's cells into the datasets the sweep charts read: throughput and latency
// against clients (median with the repeats' minimum and maximum), CH-benCHmark's own figures
// against the analytic streams, latency against throughput, and throughput against the data's size (the workload's tables) relative to shared_buffers and to memory.

import { axisValue, axisText, cellName, seriesName, compareCells, pointText, AXIS_KEYS } from './axes.js'

const isNum = (v) => typeof v === 'number' && Number.isFinite(v)
/** Ratios keep 4 significant digits: 0.000634 stays readable where rounding to 3 decimals would not. */
const sig4 = (v) => Number(v.toPrecision(4))
/** Latency statistics drawn against clients and throughput. */
export const LATENCY_STATS = [['p50', 'p50Ms'], ['p99', 'p99Ms']]

/**
 * The cells that have a finished run and a throughput, in series then x order.
 * @param {any} sweep
 * @param {import('./axes.js').SweepShape} shape
 * @returns {any[]}
 */
export function drawnCells (sweep, shape) {
  return sweep.cells
    .filter((c) => c.runs > 0 && isNum(c.tps?.median) && axisValue(c.cell, shape.xKey) !== null)
    .sort((a, b) => compareCells(a.cell, b.cell, shape))
}

/** The median and the whiskers of one figure, or null when the median is missing. */
function spreadOf (s) {
  if (!isNum(s?.median)) return null
  return { mid: s.median, lo: isNum(s.min) ? s.min : s.median, hi: isNum(s.max) ? s.max : s.median }
}

/**
 * Throughput against the x axis, one row per cell: median tps, whiskers from min to max.
 * @returns {{ x: number, series: string, tps: number, tpsMin: number, tpsMax: number, runs: number, cell: string }[]}
 */
export function throughputRows (sweep, shape) {
  return drawnCells(sweep, shape).map((c) => {
    const s = spreadOf(c.tps)
    return { x: c.cell[shape.xKey], series: seriesName(c.cell, shape, sweep.workload), tps: s.mid, tpsMin: s.lo, tpsMax: s.hi, runs: c.runs, cell: cellName(c.cell) }
  })
}

/**
 * p50 and p99 against the x axis, one row per cell and statistic, with the repeats' min and max.
 * @returns {{ x: number, series: string, stat: string, ms: number, msMin: number, msMax: number, runs: number, cell: string }[]}
 */
export function latencyRows (sweep, shape) {
  const rows = []
  for (const [stat, field] of LATENCY_STATS) {
    for (const c of drawnCells(sweep, shape)) {
      const s = spreadOf(c[field])
      if (s) rows.push({ x: c.cell[shape.xKey], series: seriesName(c.cell, shape, sweep.workload), stat, ms: s.mid, msMin: s.lo, msMax: s.hi, runs: c.runs, cell: cellName(c.cell) })
    }
  }
  return rows
}

/**
 * One figure of the cells (a CH-benCHmark sweep's tpmC, New-Order p90 or queries per hour)
 * against the x axis, one row per cell that has it: median, whiskers from min to max.
 * @param {string} field the cell's figure, e.g. 'tpmC'
 * @returns {{ x: number, series: string, value: number, valueMin: number, valueMax: number, runs: number, cell: string }[]}
 */
export function figureRows (sweep, shape, field) {
  const rows = []
  for (const c of drawnCells(sweep, shape)) {
    const s = spreadOf(c[field])
    if (s) rows.push({ x: c.cell[shape.xKey], series: seriesName(c.cell, shape, sweep.workload), value: s.mid, valueMin: s.lo, valueMax: s.hi, runs: c.runs, cell: cellName(c.cell) })
  }
  return rows
}

/**
 * Latency against throughput, medians, one row per cell and statistic; `order` is the x axis
 * value (clients), so each line joins its points in client order and shows where it turns up.
 * @returns {{ tps: number, ms: number, stat: string, series: string, order: number, point: string, cell: string }[]}
 */
export function kneeRows (sweep, shape) {
  const rows = []
  for (const [stat, field] of LATENCY_STATS) {
    for (const c of drawnCells(sweep, shape)) {
      const ms = c[field]?.median
      if (!isNum(ms)) continue
      const x = c.cell[shape.xKey]
      rows.push({ tps: c.tps.median, ms, stat, series: seriesName(c.cell, shape, sweep.workload), order: x, point: pointText(shape.xKey, x), cell: cellName(c.cell) })
    }
  }
  return rows
}

/** Layout of the knee chart's point labels (pixels), matching reports/sweep/knee.vl.json. */
export const KNEE_LAYOUT = { widthPx: 560, heightPx: 300, charPx: 6.2, rowPx: 12, gapPx: 4 }

/**
 * The p99 points of the knee chart that get a text label: a label is left out (its point keeps
 * its tooltip) when it would overlap one already placed, estimated on the chart's own scales.
 * @param {ReturnType<typeof kneeRows>} rows
 * @param {{ logScale?: boolean }} [opts]
 * @returns {{ tps: number, ms: number, text: string }[]}
 */
export function kneeLabels (rows, opts = {}) {
  const p99 = rows.filter((r) => r.stat === 'p99')
  if (p99.length === 0) return []
  const L = KNEE_LAYOUT
  const maxTps = Math.max(...rows.map((r) => r.tps)) * 1.25 // vega's nice domain may end a step further
  const ms = rows.map((r) => r.ms).filter((v) => v > 0)
  const [lo, hi] = [Math.min(...ms), Math.max(...ms) * 1.25]
  const yPx = (v) => (opts.logScale
    ? L.heightPx * (1 - Math.log(v / lo) / Math.max(Math.log(hi / lo), 1e-9))
    : L.heightPx * (1 - v / hi))
  const placed = []
  const labels = []
  for (const r of p99) {
    // The label sits right of its point and a little above it (dx 5, dy -6 in the spec).
    const box = { x0: (r.tps / maxTps) * L.widthPx + 5, y0: yPx(r.ms) - 6 - L.rowPx, w: r.point.length * L.charPx, h: L.rowPx }
    const clash = placed.some((b) => box.x0 < b.x0 + b.w + L.gapPx && b.x0 < box.x0 + box.w + L.gapPx && box.y0 < b.y0 + b.h && b.y0 < box.y0 + box.h)
    if (clash) continue
    placed.push(box)
    labels.push({ tps: r.tps, ms: r.ms, text: r.point })
  }
  return labels
}

/**
 * What the size chart measures: the workload's own tables (with their indexes), which is what a
 * run reads and writes, when every drawn cell records them; else, for sweeps of scripts and
 * documents written before pgload recorded them, the whole database, which other workloads'
 * tables may swell.
 * @param {any} sweep
 * @param {import('./axes.js').SweepShape} shape
 * @returns {{ key: 'tablesSizeBytes'|'dbSizeBytes', label: string }}
 */
export function sizeMeasure (sweep, shape) {
  const cells = drawnCells(sweep, shape)
  return cells.length > 0 && cells.every((c) => isNum(c.tablesSizeBytes) && c.tablesSizeBytes > 0)
    ? { key: 'tablesSizeBytes', label: "workload's tables" }
    : { key: 'dbSizeBytes', label: 'database' }
}

/**
 * Throughput against the data's size (sizeMeasure) as a multiple of shared_buffers and of the
 * machine's memory, one row per cell and basis, in line order; lines join the cells that differ
 * only in size.
 * @returns {{ basis: string, ratio: number, tps: number, tpsMin: number, tpsMax: number, line: string, cell: string, sizeBytes: number, dbSizeBytes: number|null }[]}
 */
export function sizeRows (sweep, shape) {
  const bases = sizeBases(sweep)
  const { key } = sizeMeasure(sweep, shape)
  const lineKeys = sizeLineKeys(shape)
  // In line order, then by size: the first appearance of each line names the legend's order.
  const byLine = [...AXIS_KEYS.filter((k) => lineKeys.includes(k)), shape.sizeKey].filter(Boolean)
  const cells = drawnCells(sweep, shape).sort((a, b) => {
    for (const k of byLine) {
      const d = (axisValue(a.cell, k) ?? -Infinity) - (axisValue(b.cell, k) ?? -Infinity)
      if (d !== 0) return d
    }
    return 0
  })
  const rows = []
  for (const { basis, bytes } of bases) {
    for (const c of cells) {
      const size = c[key]
      if (!isNum(size) || size <= 0) continue
      const s = spreadOf(c.tps)
      const line = lineKeys.filter((k) => axisValue(c.cell, k) !== null).map((k) => axisText(k, c.cell[k])).join(', ') || sweep.workload
      rows.push({ basis, ratio: sig4(size / bytes), tps: s.mid, tpsMin: s.lo, tpsMax: s.hi, line, cell: cellName(c.cell), sizeBytes: size, dbSizeBytes: isNum(c.dbSizeBytes) ? c.dbSizeBytes : null })
    }
  }
  return rows
}

/**
 * The axes that split the size chart into lines: the other swept axes (clients, usually), else
 * clients and rate as the sweep names them.
 * @param {import('./axes.js').SweepShape} shape
 * @returns {string[]}
 */
export function sizeLineKeys (shape) {
  const swept = AXIS_KEYS.filter((k) => k !== shape.sizeKey && shape.values[k].length > 1)
  return swept.length > 0 ? swept : ['clients', 'rate']
}

/**
 * What the database size is measured against: shared_buffers and the host's memory, when known.
 * @param {any} sweep
 * @returns {{ basis: 'shared_buffers'|'memory', bytes: number }[]}
 */
export function sizeBases (sweep) {
  const bases = []
  const sb = sweep.server?.sharedBuffersBytes
  const mem = sweep.host?.memoryBytes
  if (isNum(sb) && sb > 0) bases.push({ basis: 'shared_buffers', bytes: sb })
  if (isNum(mem) && mem > 0) bases.push({ basis: 'memory', bytes: mem })
  return bases
}
