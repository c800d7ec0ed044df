// Reading a sweep document (`pgload sweep`'s sweep.json) for its report: the fields the report
// relies on are checked once here, so a damaged document fails with one line naming the field.

import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { PgloadError } from '../../errors.js'
import { FieldProblem, number, string, object, arrayOf, refine, describe } from '../../results/rules.js'
import { SWEEP_FORMAT, isSweepDocument } from '../../sweep/document.js'

/** The sweep document version this report reads. */
export const SWEEP_VERSION = 1
/** Error code of a sweep document the report cannot use. */
export const SWEEP_INVALID = 'SWEEP_INVALID'

const amountOrNull = number({ min: 0, nullable: true })
const positiveInt = number({ min: 1, integer: true })
const textOrNull = string({ nullable: true })
const axis = arrayOf(number({ min: 0 }), { nullable: true })
// A cell names its values on each axis: scale (or warehouses for tpcc and chbench), clients and
// rate, and chbench's analytic streams.
const cellKey = object({
  scale: amountOrNull, warehouses: amountOrNull, clients: number({ min: 1, integer: true, nullable: true }), rate: amountOrNull, streams: number({ min: 0, integer: true, nullable: true })
})
const spread = object({ median: amountOrNull, min: amountOrNull, max: amountOrNull }, { nullable: true })
const STATUSES = ['done', 'failed', 'interrupted', 'pending']

const run = object({
  cell: cellKey,
  repeat: positiveInt,
  order: number({ min: 0, integer: true, nullable: true }),
  status: refine(string(), (v) => (STATUSES.includes(v) ? null : `expected one of ${STATUSES.join(', ')}, got ${describe(v)}`)),
  file: textOrNull,
  error: textOrNull,
  tps: amountOrNull,
  p50Ms: amountOrNull,
  p99Ms: amountOrNull,
  maxMs: amountOrNull,
  tpmC: amountOrNull,
  newOrderP90Ms: amountOrNull,
  queriesPerHour: amountOrNull,
  tablesSizeBytes: amountOrNull,
  dbSizeBytes: amountOrNull
}, { required: ['cell', 'status'] })

const cell = object({
  cell: cellKey,
  runs: number({ min: 0, integer: true }),
  tps: spread,
  p50Ms: spread,
  p99Ms: spread,
  maxMs: spread,
  tpmC: spread,
  newOrderP90Ms: spread,
  queriesPerHour: spread,
  tablesSizeBytes: amountOrNull,
  dbSizeBytes: amountOrNull
}, { required: ['cell', 'tps'] })

const sweep = object({
  workload: string(),
  command: textOrNull,
  label: textOrNull,
  axes: object({ scale: axis, warehouses: axis, clients: axis, rate: axis, streams: axis }),
  repeat: number({ min: 1, integer: true, nullable: true }),
  options: object({}, { nullable: true }),
  server: object({ version: textOrNull, sharedBuffersBytes: amountOrNull }, { nullable: true }),
  host: object({ memoryBytes: amountOrNull, cpus: amountOrNull, hostname: textOrNull }, { nullable: true }),
  runs: arrayOf(run),
  cells: arrayOf(cell)
}, { required: ['workload', 'axes', 'runs', 'cells'] })

// Documents validateSweep has checked: the report renders what the command read, once.
const checked = new WeakSet()

/**
 * Check a sweep document unless validateSweep already checked this very object.
 * @param {any} doc
 * @param {string} [source]
 * @returns {any} the same document
 */
export function ensureValidSweep (doc, source) {
  return checked.has(doc) ? doc : validateSweep(doc, source)
}

/**
 * Throw a PgloadError (code SWEEP_INVALID) naming the source and the first wrong field, unless
 * `doc` is a sweep document of the version this report reads.
 * @param {any} doc
 * @param {string} [source]
 * @returns {any} the same document
 */
export function validateSweep (doc, source = 'sweep') {
  try {
    if (!isSweepDocument(doc)) throw new FieldProblem('format', `expected "${SWEEP_FORMAT}", got ${describe(doc?.format)}`)
    if (doc.version !== SWEEP_VERSION) throw new FieldProblem('version', `this pgload reads sweep documents of version ${SWEEP_VERSION}, got ${describe(doc.version)}`)
    sweep(doc, '')
  } catch (err) {
    if (!(err instanceof FieldProblem)) throw err
    throw new PgloadError(`${source}: ${err.message}`, { code: SWEEP_INVALID })
  }
  checked.add(doc)
  return doc
}

/** The sweep document's name in a sweep's directory (`pgload sweep --dir`). */
export const SWEEP_FILE_NAME = 'sweep.json'

/**
 * Read a file that may be a sweep document, or a sweep's directory: the checked document and
 * its path when it is one, null when it is anything else (a results file, or not JSON: its own
 * reader says what is wrong with it).
 * @param {string} file
 * @returns {Promise<{ sweep: any, file: string } | null>}
 */
export async function readSweepIfAny (file) {
  const path = (await stat(file).catch(() => null))?.isDirectory() ? join(file, SWEEP_FILE_NAME) : file
  let doc
  try {
    doc = JSON.parse(await readFile(path, 'utf8'))
  } catch {
    return null
  }
  return isSweepDocument(doc) ? { sweep: validateSweep(doc, path), file: path } : null
}
