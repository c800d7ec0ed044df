// A sweep document (docs/results-format.md, "Sweep documents") as the rows of the results
// database: the sweep, one row per run of a cell, one per cell. Pure, and checked first.

import { PgloadError } from '../errors.js'
import { contentKey } from './run-rows.js'
import { SWEEP_FORMAT, isSweepDocument } from '../sweep/document.js'

/** The sweep document version this pgload reads. */
export const SWEEP_VERSION = 1

const num = (v) => typeof v === 'number' && Number.isFinite(v) ? v : null
const int = (v) => Number.isInteger(v) ? v : null
const str = (v) => typeof v === 'string' ? v : null
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Check the parts of a sweep document the results database relies on; throw one line naming
 * the source and the field otherwise.
 * @param {any} doc
 * @param {string} source the file name for the message
 * @returns {any} the document
 */
export function checkSweepDocument (doc, source) {
  const fail = (field, what) => { throw new PgloadError(`${source}: ${field}: ${what}`, { code: 'SWEEP_INVALID' }) }
  if (!isSweepDocument(doc)) fail('format', `expected "${SWEEP_FORMAT}"`)
  if (doc.version !== SWEEP_VERSION) fail('version', `this pgload reads version ${SWEEP_VERSION}, got ${JSON.stringify(doc.version)}`)
  if (typeof doc.id !== 'string' || doc.id === '') fail('id', 'expected a non-empty string')
  if (!Array.isArray(doc.runs)) fail('runs', 'expected an array')
  if (!Array.isArray(doc.cells ?? [])) fail('cells', 'expected an array')
  doc.runs.forEach((r, i) => {
    if (!isObject(r)) fail(`runs[${i}]`, 'expected an object')
    if (!isObject(r.cell)) fail(`runs[${i}].cell`, 'expected an object')
    if (r.file !== null && r.file !== undefined && typeof r.file !== 'string') fail(`runs[${i}].file`, 'expected a path or null')
  })
  ;(doc.cells ?? []).forEach((c, i) => {
    if (!isObject(c) || !isObject(c.cell)) fail(`cells[${i}].cell`, 'expected an object')
  })
  return doc
}

/** The scale axis's name: `warehouses` for TPC-C sweeps, else `scale`. */
function scaleAxis (doc) {
  return doc.axes && Object.hasOwn(doc.axes, 'warehouses') ? 'warehouses' : 'scale'
}

const cellKeys = (cell) => ({
  scale: int(cell.scale ?? cell.warehouses),
  clients: int(cell.clients),
  rate: num(cell.rate)
})

/**
 * The `sweeps` row.
 * @param {any} doc a checked sweep document
 * @param {{ sourceFile?: string|null }} [opts]
 */
export function sweepRow (doc, { sourceFile = null } = {}) {
  return {
    sweep_id: doc.id,
    content_key: contentKey(doc),
    label: str(doc.label),
    workload: str(doc.workload),
    command: str(doc.command),
    created_at: str(doc.createdAt),
    updated_at: str(doc.updatedAt),
    tool_version: str(doc.toolVersion),
    scale_axis: scaleAxis(doc),
    axes: doc.axes ?? null,
    repeat: int(doc.repeat),
    options: doc.options ?? null,
    server_version: str(doc.server?.version),
    shared_buffers_bytes: num(doc.server?.sharedBuffersBytes),
    server_embedded: typeof doc.server?.embedded === 'boolean' ? doc.server.embedded : null,
    host_name: str(doc.host?.hostname),
    host_cpus: int(doc.host?.cpus),
    host_memory_bytes: num(doc.host?.memoryBytes),
    source_file: sourceFile
  }
}

/**
 * The `sweep_runs` rows (run_id: the stored run of the run's file, from `runIds` by index).
 * @param {any} doc
 * @param {(number|null)[]} runIds
 */
export function sweepRunRows (doc, runIds) {
  return doc.runs.map((r, i) => ({
    sweep_id: doc.id,
    run_order: int(r.order) ?? i,
    ...cellKeys(r.cell),
    repeat: int(r.repeat),
    status: str(r.status),
    file: str(r.file),
    error: r.error === null || r.error === undefined ? null : String(r.error),
    start_time: str(r.startTime),
    duration_s: num(r.durationS),
    tps: num(r.tps),
    p50_ms: num(r.p50Ms),
    p99_ms: num(r.p99Ms),
    max_ms: num(r.maxMs),
    db_size_bytes: num(r.dbSizeBytes),
    cell: r.cell,
    run_id: runIds[i] ?? null
  }))
}

const spread = (name, s) => ({ [`${name}_median`]: num(s?.median), [`${name}_min`]: num(s?.min), [`${name}_max`]: num(s?.max) })

/**
 * The `sweep_cells` rows: the per-cell medians with their minimum and maximum.
 * @param {any} doc
 */
export function sweepCellRows (doc) {
  return (doc.cells ?? []).map((c, i) => ({
    sweep_id: doc.id,
    cell_index: i,
    ...cellKeys(c.cell),
    runs: int(c.runs),
    ...spread('tps', c.tps),
    ...spread('p50_ms', c.p50Ms),
    ...spread('p99_ms', c.p99Ms),
    ...spread('max_ms', c.maxMs),
    db_size_bytes: num(c.dbSizeBytes),
    cell: c.cell
  }))
}
