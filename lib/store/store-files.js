// Storing files: results documents and sweep documents (recognised by `"format": "pgload-sweep"`),
// each in its own transaction, so one bad file stops only itself. What `pgload ab` writes beside
// its runs is understood too: its directory stands for its runs' files, its compare.json (a
// verdict, not a run) is skipped with a word.

import { readFile, readdir, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { readResults, ensureValidResults } from '../results/read.js'
import { PgloadError } from '../errors.js'
import { isSweepDocument } from '../sweep/document.js'
import { storeRunDocument } from './store-run.js'
import { storeSweep } from './store-sweep.js'
import { withResultsStore } from './connect.js'

/**
 * @typedef {{ file: string, kind: 'run'|'sweep', status: 'stored'|'already stored'|'updated',
 *   runId?: number, sweep?: import('./store-sweep.js').SweepStored } | { file: string, kind: 'verdict', status: 'skipped' }
 *   | { file: string, error: Error }} FileStored
 */

/** The file ab writes its verdict to, beside the runs' files (NN-A.json, NN-B.json). */
const AB_VERDICT_FILE = 'compare.json'

/**
 * Whether a file holds a compare verdict (`pgload compare --json`, ab's compare.json): plain JSON
 * with the verdict's shape, no results document.
 * @param {string} file
 * @returns {Promise<boolean>}
 */
async function isVerdictFile (file) {
  let text
  try {
    text = await readFile(file, 'utf8')
  } catch {
    return false
  }
  if (!text.trimStart().startsWith('{') || !text.includes('"regressions"')) return false
  try {
    const doc = JSON.parse(text)
    return doc.schemaVersion === undefined && Array.isArray(doc.rows) && Array.isArray(doc.a?.files) && Array.isArray(doc.b?.files)
  } catch {
    return false
  }
}

/**
 * The files to store: an ab directory (holding compare.json) stands for its runs' files.
 * @param {string[]} files
 * @returns {Promise<string[]>}
 */
async function expandAbDirectories (files) {
  const out = []
  for (const file of files) {
    if (!(await isDirectory(file)) || !(await isVerdictFile(join(file, AB_VERDICT_FILE)))) { out.push(file); continue }
    const runs = (await readdir(file)).filter((f) => /^\d+-[AB]\.json(\.gz)?$/.test(f)).sort()
    out.push(...runs.map((f) => join(file, f)))
  }
  return out
}

/**
 * Whether a file holds a sweep document: plain JSON with the sweep marker (results files may be gzipped).
 * @param {string} file
 * @returns {Promise<boolean>}
 */
async function isSweepFile (file) {
  let text
  try {
    text = await readFile(file, 'utf8')
  } catch {
    return false // the results reader says why
  }
  if (!text.trimStart().startsWith('{') || !text.includes('pgload-sweep')) return false
  try {
    return isSweepDocument(JSON.parse(text))
  } catch {
    return false
  }
}

async function isDirectory (path) {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return false
  }
}

/**
 * Store one file (a results document or a sweep document) through an open results database.
 * @param {import('./connect.js').ResultsStore} store
 * @param {string} file a results file, a sweep document, or a sweep's directory (holding sweep.json)
 * @returns {Promise<FileStored>}
 * @throws {import('../errors.js').PgloadError} for a file pgload cannot use
 */
export async function storeFile (store, file) {
  // a sweep's directory stands for its document
  const inDirectory = join(file, 'sweep.json')
  if (await isDirectory(file) && await isSweepFile(inDirectory)) file = inDirectory
  if (await isSweepFile(file)) {
    const sweep = await storeSweep(file, { store })
    const status = sweep.status === 'unchanged' ? 'already stored' : sweep.status
    return { file, kind: 'sweep', status, sweep }
  }
  if (await isVerdictFile(file)) return { file, kind: 'verdict', status: 'skipped' }
  const doc = await readResults(file)
  // one shard is part of a run: its figures would pass for a whole run's in history and baselines
  const shard = doc.run?.shard
  if (shard) {
    throw new PgloadError(`${file}: the results of shard ${shard.index}/${shard.count} of run ${shard.runId} are part of a run: merge every shard's file (pgload merge FILES -o merged.json) and store the merged one`, { code: 'BAD_OPTION' })
  }
  const r = await storeRunDocument(store.conn, doc, { sourceFile: resolve(file) })
  return { file, kind: 'run', status: r.stored ? 'stored' : 'already stored', runId: r.runId }
}

/**
 * Store files in the results database, each on its own: an error is that file's outcome.
 * @param {string[]} files
 * @param {{ resultsUrl?: string|null, env?: Record<string, string|undefined>, log?: any,
 *   onFile?: (outcome: FileStored) => void }} [opts] onFile: called as each file is done
 * @returns {Promise<FileStored[]>}
 * @throws {import('../errors.js').PgloadError} when the results database cannot be reached
 */
export async function storeFiles (files, { resultsUrl = null, env = process.env, log, onFile = () => {} } = {}) {
  const expanded = await expandAbDirectories(files)
  return withResultsStore({ resultsUrl, env, log }, async (store) => {
    const out = []
    for (const file of expanded) {
      let outcome
      try {
        outcome = await storeFile(store, file)
      } catch (err) {
        // a lost connection ends the command: later files could not be stored either
        if (err?.code === 'CONNECTION_LOST') throw err
        outcome = { file, error: err }
      }
      out.push(outcome)
      onFile(outcome)
    }
    return out
  })
}

/**
 * Store a results document just written (`run --store`).
 * @param {any} doc the results document
 * @param {{ sourceFile?: string|null, resultsUrl?: string|null, env?: Record<string, string|undefined>, log?: any }} [opts]
 * @returns {Promise<{ runId: number, stored: boolean, display: string }>}
 */
export async function storeResults (doc, { sourceFile = null, resultsUrl = null, env = process.env, log } = {}) {
  ensureValidResults(doc, sourceFile ?? 'results')
  return withResultsStore({ resultsUrl, env, log }, async (store) => ({
    ...await storeRunDocument(store.conn, doc, { sourceFile: sourceFile && resolve(sourceFile) }),
    display: store.display
  }))
}
