// Storing a sweep: the sweep document, its runs and cells, and every run file it indexes, in one
// transaction. Stored again (after --resume), the sweep's rows are replaced by the new document's;
// run files already stored are found by their content key.

import { readFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { PgloadError } from '../errors.js'
import { readResults } from '../results/read.js'
import { checkSweepDocument, sweepRow, sweepRunRows, sweepCellRows } from './sweep-rows.js'
import { insertRun, insertRows } from './store-run.js'
import { rollback } from './schema.js'
import { withResultsStore } from './connect.js'

/**
 * @typedef {object} SweepStored
 * @property {string} sweepId the sweep document's id
 * @property {'stored'|'updated'|'unchanged'} status new, replaced by a newer document, or the same document again
 * @property {number} runsStored run files stored now
 * @property {number} runsKnown run files that were stored already
 * @property {{ file: string|null, reason: string }[]} skipped runs without a stored file (not done, and no readable file)
 */

/**
 * Store a sweep document and the results files of its runs in the results database.
 * Runs whose status is `done` must have a readable results file (else nothing is stored and
 * the error names the file); other runs' files are stored when they are there and readable.
 * @param {string} sweepFile path of the sweep document (`<dir>/sweep.json`); run paths are relative to its directory
 * @param {{ resultsUrl?: string|null, env?: Record<string, string|undefined>, log?: any,
 *   store?: import('./connect.js').ResultsStore }} [opts]
 *   resultsUrl: the results database (default: `pgload_results` on the embedded server);
 *   store: an open results database to use instead (it stays open)
 * @returns {Promise<SweepStored>}
 * @throws {PgloadError} SWEEP_INVALID for a document or run file pgload cannot use; connection errors
 */
export async function storeSweep (sweepFile, { resultsUrl = null, env = process.env, log, store } = {}) {
  const doc = checkSweepDocument(await readJson(sweepFile), sweepFile)
  const files = await readRunFiles(doc, dirname(resolve(sweepFile)), sweepFile)
  const save = (s) => storeSweepDocument(s.conn, doc, files, { sourceFile: resolve(sweepFile) })
  return store ? save(store) : withResultsStore({ resultsUrl, env, log }, save)
}

/**
 * Read a JSON file (a sweep document).
 * @param {string} file
 * @returns {Promise<any>}
 */
export async function readJson (file) {
  let text
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    throw new PgloadError(`${file}: cannot read: ${err.code === 'ENOENT' ? 'no such file' : err.code ?? err.message}`, { code: 'SWEEP_INVALID', cause: err })
  }
  try {
    return JSON.parse(text)
  } catch (err) {
    throw new PgloadError(`${file}: not a JSON document (${err.message.split('\n')[0]})`, { code: 'SWEEP_INVALID', cause: err })
  }
}

/** Each run's results document (or null with the reason), read and checked before any transaction opens. */
async function readRunFiles (doc, dir, source) {
  const out = []
  for (const r of doc.runs) {
    if (typeof r.file !== 'string') {
      if (r.status === 'done') throw new PgloadError(`${source}: a done run has no file (cell ${JSON.stringify(r.cell)}, repeat ${r.repeat})`, { code: 'SWEEP_INVALID' })
      out.push({ doc: null, file: null, reason: `status ${r.status ?? 'unknown'}, no file` })
      continue
    }
    const path = resolve(dir, r.file)
    try {
      out.push({ doc: await readResults(path), file: path, reason: null })
    } catch (err) {
      if (r.status === 'done') throw new PgloadError(`${source}: run ${r.file}: ${err.message}`, { code: 'SWEEP_INVALID', cause: err })
      out.push({ doc: null, file: r.file, reason: `status ${r.status ?? 'unknown'}: ${err.message}` })
    }
  }
  return out
}

/**
 * Store a checked sweep document and its read run files in one transaction.
 * @param {import('../db/connection.js').PgConnection} conn
 * @param {any} doc
 * @param {{ doc: any, file: string|null, reason: string|null }[]} files one per run of the document
 * @param {{ sourceFile?: string|null }} [opts]
 * @returns {Promise<SweepStored>}
 */
export async function storeSweepDocument (conn, doc, files, { sourceFile = null } = {}) {
  const row = sweepRow(doc, { sourceFile })
  const skipped = files.filter((f) => f.doc === null).map(({ file, reason }) => ({ file, reason }))
  await conn.simpleQuery('begin')
  try {
    const before = await conn.query('select content_key from pgload.sweeps where sweep_id = $1 for update', [doc.id])
    if (before.rows.length && before.rows[0][0] === row.content_key) {
      await conn.simpleQuery('commit')
      return { sweepId: doc.id, status: 'unchanged', runsStored: 0, runsKnown: files.length - skipped.length, skipped }
    }
    const runIds = []
    let runsStored = 0
    for (const f of files) {
      if (f.doc === null) { runIds.push(null); continue }
      const r = await insertRun(conn, f.doc, { sourceFile: f.file })
      runIds.push(r.runId)
      if (r.stored) runsStored++
    }
    if (before.rows.length) {
      // a newer state of the same sweep: its rows are replaced (cascading to its runs and cells
      // rows; the stored runs they point to stay)
      await conn.query('delete from pgload.sweeps where sweep_id = $1', [doc.id])
    }
    await insertRows(conn, 'pgload.sweeps', [row])
    await insertRows(conn, 'pgload.sweep_runs', sweepRunRows(doc, runIds))
    await insertRows(conn, 'pgload.sweep_cells', sweepCellRows(doc))
    await conn.simpleQuery('commit')
    const runsKnown = runIds.filter((id) => id !== null).length - runsStored
    return { sweepId: doc.id, status: before.rows.length ? 'updated' : 'stored', runsStored, runsKnown, skipped }
  } catch (err) {
    await rollback(conn)
    throw err
  }
}
