// The sweep document (`<dir>/sweep.json`): what was asked, every planned run with its outcome
// and results file, and the per-cell figures. Rewritten atomically after every run, so a crash
// keeps every finished run and `--resume` knows what is missing. docs/results-format.md
// ("Sweep documents") documents each field.

import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { PgloadError } from '../errors.js'
import { writeFileAtomic } from '../atomic-write.js'
import { summariseCells } from './cells.js'
import { runFileName } from './axes.js'

export const SWEEP_FORMAT = 'pgload-sweep'

/**
 * Whether a parsed JSON value is a sweep document (by its `format`).
 * @param {unknown} doc
 * @returns {boolean}
 */
export function isSweepDocument (doc) {
  return doc !== null && typeof doc === 'object' && /** @type {any} */ (doc).format === SWEEP_FORMAT
}
export const SWEEP_VERSION = 1
/** The document's name in a sweep's directory, and the directory of its runs' results files. */
export const SWEEP_FILE = 'sweep.json'
export const RUNS_DIR = 'runs'
export const STATUSES = ['done', 'failed', 'interrupted', 'pending']

/**
 * A new document with every run pending.
 * @param {{ id: string, at: Date, toolVersion: string, command: string, args: string[], workload: string,
 *   label: string|null, axes: import('./axes.js').Axes, repeat: number, orderSeed: number,
 *   options: Record<string, any>, host: Record<string, any>,
 *   planned: import('./order.js').PlannedRun[] }} what
 * @returns {Record<string, any>}
 */
export function newSweepDocument ({ id, at, toolVersion, command, args, workload, label, axes, repeat, orderSeed, options, host, planned }) {
  const time = at.toISOString()
  return {
    format: SWEEP_FORMAT,
    version: SWEEP_VERSION,
    id,
    createdAt: time,
    updatedAt: time,
    toolVersion,
    command,
    args,
    workload,
    label,
    axes,
    repeat,
    orderSeed,
    options,
    server: null,
    host,
    loads: [],
    runs: planned.map(({ cell, repeat: r, order }) => ({
      cell,
      repeat: r,
      order,
      status: 'pending',
      file: `${RUNS_DIR}/${runFileName(cell, r)}`,
      error: null,
      startTime: null,
      durationS: null,
      tps: null,
      p50Ms: null,
      p99Ms: null,
      maxMs: null,
      tablesSizeBytes: null,
      dbSizeBytes: null
    })),
    cells: []
  }
}

/**
 * Record what became of a run (by its order), and the cells' figures again.
 * @param {Record<string, any>} doc changed in place
 * @param {number} order
 * @param {Record<string, any>} fields the run entry's new fields (status, figures, ...)
 * @param {Date} [at]
 */
export function recordRun (doc, order, fields, at = new Date()) {
  const run = doc.runs.find((r) => r.order === order)
  if (!run) throw new Error(`no run ${order} in the sweep document`)
  Object.assign(run, fields)
  doc.cells = summariseCells(doc.runs)
  doc.updatedAt = at.toISOString()
}

/**
 * Write the document atomically: a reader (or a crash) sees the old one or the whole new one.
 * @param {string} dir the sweep's directory
 * @param {object} doc
 */
export async function writeSweepDocument (dir, doc) {
  const file = join(dir, SWEEP_FILE)
  try {
    await writeFileAtomic(file, JSON.stringify(doc, null, 1) + '\n')
  } catch (err) {
    throw new PgloadError(`could not write the sweep document ${file}: ${err.code ?? err.message}`, { code: 'SWEEP_NOT_WRITTEN', exitCode: 2, cause: err })
  }
}

/**
 * Read and check a sweep's document.
 * @param {string} dir the sweep's directory
 * @returns {Promise<Record<string, any>>}
 * @throws {PgloadError} code SWEEP_INVALID: `FILE: FIELD: what is wrong`
 */
export async function readSweepDocument (dir) {
  const file = join(dir, SWEEP_FILE)
  let text
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    const why = err.code === 'ENOENT' ? 'no sweep document there' : err.code === 'ENOTDIR' ? 'not a directory' : err.code ?? err.message
    throw new PgloadError(`${file}: cannot read: ${why}`, { code: 'SWEEP_INVALID', cause: err })
  }
  let doc
  try {
    doc = JSON.parse(text)
  } catch (err) {
    throw new PgloadError(`${file}: not a JSON document (${err.message.split('\n')[0]})`, { code: 'SWEEP_INVALID', cause: err })
  }
  const problem = documentProblem(doc)
  if (problem) throw new PgloadError(`${file}: ${problem}`, { code: 'SWEEP_INVALID' })
  return doc
}

/**
 * What is wrong with a sweep document, as `field: problem`, or null when nothing is.
 * @param {any} doc
 * @returns {string|null}
 */
export function documentProblem (doc) {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return 'expected a sweep document (an object)'
  if (doc.format !== SWEEP_FORMAT) return `format: expected "${SWEEP_FORMAT}", got ${JSON.stringify(doc.format)}`
  if (doc.version !== SWEEP_VERSION) return `version: this pgload reads version ${SWEEP_VERSION}, got ${JSON.stringify(doc.version)}`
  if (typeof doc.id !== 'string') return 'id: expected a string'
  if (!Array.isArray(doc.args) || !doc.args.every((a) => typeof a === 'string')) return 'args: expected a list of strings'
  if (typeof doc.axes !== 'object' || doc.axes === null) return 'axes: expected an object'
  if (!Number.isInteger(doc.repeat) || doc.repeat < 1) return 'repeat: expected an integer >= 1'
  if (!Array.isArray(doc.runs)) return 'runs: expected a list'
  for (const [i, run] of doc.runs.entries()) {
    const problem = runProblem(run)
    if (problem) return `runs[${i}]${problem}`
  }
  return null
}

function runProblem (run) {
  if (typeof run !== 'object' || run === null) return ': expected an object'
  if (typeof run.cell !== 'object' || run.cell === null) return '.cell: expected an object'
  if (!Number.isInteger(run.repeat) || run.repeat < 1) return '.repeat: expected an integer >= 1'
  if (!Number.isInteger(run.order) || run.order < 0) return '.order: expected an integer >= 0'
  if (!STATUSES.includes(run.status)) return `.status: expected one of ${STATUSES.join(', ')}, got ${JSON.stringify(run.status)}`
  if (typeof run.file !== 'string' || run.file.startsWith('/') || run.file.split(/[\\/]/).includes('..')) return '.file: expected a path inside the sweep\'s directory'
  return null
}
