// Reading results documents for compare/check: through lib/results/read.js when it exists,
// then checking only the fields these commands rely on.

import { readFile } from 'node:fs/promises'
import { PgloadError } from '../errors.js'

let readerPromise = null

async function projectReader () {
  readerPromise ??= import('../results/read.js').then(m => m.readResults ?? null, () => null)
  return readerPromise
}

/**
 * Read and validate one results document.
 * @param {string} file
 * @param {string} [flag] the option or argument that named the file, for messages
 * @returns {Promise<object>} the document, with a non-enumerable `file` property
 */
export async function loadResults (file, flag = 'results file') {
  const reader = await projectReader()
  let doc
  if (reader) {
    try {
      doc = await reader(file)
    } catch (err) {
      if (err?.name === 'PgloadError' && flag.startsWith('-')) err.message = `${flag}: ${err.message}`
      throw err
    }
  } else {
    let text
    try {
      text = await readFile(file, 'utf8')
    } catch (err) {
      throw new PgloadError(`${flag} ${file}: cannot read (${err.code ?? err.message})`, { code: 'RESULTS_READ', cause: err })
    }
    try {
      doc = JSON.parse(text)
    } catch (err) {
      throw new PgloadError(`${flag} ${file}: not JSON (${err.message})`, { code: 'RESULTS_INVALID', cause: err })
    }
  }
  validateResults(doc, `${flag} ${file}`)
  Object.defineProperty(doc, 'file', { value: file, enumerable: false })
  return doc
}

/**
 * Throw unless `doc` has what compare and check read.
 * @param {any} doc
 * @param {string} where
 */
export function validateResults (doc, where) {
  const bad = (what) => new PgloadError(`${where}: not a pgload results document (${what})`, {
    code: 'RESULTS_INVALID', hint: 'give a file written by `pgload run` (schemaVersion 1)'
  })
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw bad('not an object')
  if (doc.schemaVersion !== 1) throw bad(`schemaVersion ${JSON.stringify(doc.schemaVersion)}, expected 1`)
  if (!doc.run || typeof doc.run !== 'object') throw bad('no run')
  if (!doc.summary || typeof doc.summary !== 'object') throw bad('no summary')
  if (doc.transactions !== undefined && (typeof doc.transactions !== 'object' || doc.transactions === null)) throw bad('transactions is not an object')
  if (doc.intervals !== undefined && !Array.isArray(doc.intervals)) throw bad('intervals is not an array')
}

/**
 * A short label for a results document in tables: its file name.
 * @param {object} doc
 * @returns {string}
 */
export function label (doc) {
  const f = doc.file ?? '(results)'
  return f.split(/[\\/]/).pop()
}
