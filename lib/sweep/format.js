// What `pgload sweep` prints: a line before and after each run (stderr), and the table of
// cells at the end (stdout): median [min..max] of the runs for tps and latency (and, for
// CH-benCHmark, tpmC, New-Order p90 and the analytic queries per hour).

import { formatDuration } from './estimate.js'
import { plural } from '../format/plural.js'

/**
 * `pgload sweep: cell 5/18 (scale 10, clients 4, repeat 2): running 60 s after a 10 s warm-up; time left about 12m30s`
 * @param {{ run: { repeat: number }, text: string, position: number, total: number, leftS: number|null, loadsLeft: number[] }} info
 * @param {{ durationS?: number, warmupS?: number, transactionsPerClient?: number }} plan
 * @param {string} axis scale or warehouses, for the loads still to come
 * @returns {string}
 */
export function startLine (info, plan, axis) {
  const length = plan.durationS !== undefined
    ? `running ${seconds(plan.durationS)}${plan.warmupS ? ` after a ${seconds(plan.warmupS)} warm-up` : ''}`
    : `running ${plural(plan.transactionsPerClient, 'transaction')} per client`
  const left = info.leftS === null ? 'time left unknown until a run has ended' : `time left about ${formatDuration(info.leftS)}`
  const loads = info.loadsLeft.length ? ` plus loading ${axis} ${info.loadsLeft.join(', ')}` : ''
  return `${head(info)}: ${length}; ${left}${loads}\n`
}

/**
 * `pgload sweep: cell 5/18 (scale 10, clients 4, repeat 2): 1234.5 tps, p50 1.20 ms, p99 5.60 ms, max 20.1 ms`
 * @param {{ run: { repeat: number, status: string }, text: string, position: number, total: number, results: any }} info
 * @returns {string}
 */
export function doneLine (info) {
  const s = info.results.summary
  const lat = s.latencyMs ?? {}
  const status = info.run.status === 'done' ? '' : ` (${info.run.status})`
  const ch = info.results.chbench
    ? `, tpmC ${whole(info.results.tpcc?.tpmC)}, queries per hour ${whole(info.results.chbench.queriesPerHour)}`
    : ''
  return `${head(info)}: ${number(s.tps)} tps, p50 ${ms(lat.p50)}, p99 ${ms(lat.p99)}, max ${ms(lat.max)}${ch}${status}\n`
}

function head ({ run, text, position, total }) {
  return `pgload sweep: cell ${position}/${total} (${text ? `${text}, ` : ''}repeat ${run.repeat})`
}

const COLUMNS = [
  { title: 'tps', key: 'tps', format: (v) => number(v) },
  { title: 'p50 ms', key: 'p50Ms', format: (v) => msNumber(v) },
  { title: 'p99 ms', key: 'p99Ms', format: (v) => msNumber(v) },
  { title: 'max ms', key: 'maxMs', format: (v) => msNumber(v) }
]
// a CH-benCHmark sweep's own: what the analytic streams cost the transactions, and what they did
const CHBENCH_COLUMNS = [
  { title: 'tpmC', key: 'tpmC', format: (v) => whole(v) },
  { title: 'New-Order p90 ms', key: 'newOrderP90Ms', format: (v) => msNumber(v) },
  { title: 'queries/h', key: 'queriesPerHour', format: (v) => whole(v) }
]

/**
 * The cells as a table: one row per cell, its axes, the runs done out of those planned, and
 * median [min..max] of each figure; then the cell with the highest median throughput.
 * @param {Record<string, any>} doc a sweep document
 * @returns {string}
 */
export function cellTable (doc) {
  const axes = Object.keys(doc.axes).filter((k) => doc.axes[k] !== null)
  const planned = new Map()
  for (const r of doc.runs) planned.set(JSON.stringify(r.cell), (planned.get(JSON.stringify(r.cell)) ?? 0) + 1)
  const columns = doc.cells.some((c) => 'tpmC' in c) ? [...COLUMNS, ...CHBENCH_COLUMNS] : COLUMNS
  const header = [...axes, 'runs', ...columns.map((c) => c.title)]
  const rows = doc.cells.map((c) => [
    ...axes.map((a) => String(c.cell[a])),
    `${c.runs}/${planned.get(JSON.stringify(c.cell)) ?? c.runs}`,
    ...columns.map((col) => spreadText(c[col.key], col.format))
  ])
  if (rows.length === 0) return 'no run of the sweep has finished: no cells to show\n'
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const line = (cols) => cols.map((v, i) => i < axes.length + 1 ? v.padStart(widths[i]) : v.padEnd(widths[i])).join('  ').trimEnd()
  let text = `${doc.workload}: ${doc.cells.length} cell${doc.cells.length === 1 ? '' : 's'}; each figure is the median of the cell's runs [min..max]\n`
  text += line(header) + '\n' + [...rows.map(line)].join('\n') + '\n'
  const best = fastest(doc.cells)
  if (best && doc.cells.length > 1) {
    const where = axes.map((a) => `${a} ${best.cell[a]}`).join(', ')
    text += `highest median throughput: ${where}: ${number(best.tps.median)} tps, p99 ${ms(best.p99Ms.median)}\n`
  }
  return text
}

function fastest (cells) {
  let best = null
  for (const c of cells) if (c.tps.median !== null && (best === null || c.tps.median > best.tps.median)) best = c
  return best
}

function spreadText (s, format) {
  if (!s || s.median === null) return '-'
  return `${format(s.median)} [${format(s.min)}..${format(s.max)}]`
}

const seconds = (s) => s >= 60 && s % 60 === 0 ? `${s / 60} min` : `${Math.round(s * 10) / 10} s`

/** A throughput: whole numbers from 100 up, one decimal below. */
function number (v) {
  if (typeof v !== 'number') return '-'
  return v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(1)
}

/** A count per minute or per hour: whole numbers. */
const whole = (v) => typeof v === 'number' ? Math.round(v).toLocaleString('en-US') : '-'

/** A latency in ms with three significant digits or whole ms. */
function msNumber (v) {
  if (typeof v !== 'number') return '-'
  if (v >= 100) return Math.round(v).toLocaleString('en-US')
  return v >= 10 ? v.toFixed(1) : v.toFixed(2)
}

const ms = (v) => typeof v === 'number' ? `${msNumber(v)} ms` : '-'
