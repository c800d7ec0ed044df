// Reads results documents for the report: plain JSON.parse plus the checks the charts rely on.
// Optional parts (intervals, serverStats, tpcc, thresholds) are only checked for shape when present.

import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import { PgloadError } from '../errors.js'

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)

/**
 * Check that a parsed results document has what the report needs; throw a PgloadError naming
 * the source and the field otherwise.
 * @param {any} doc
 * @param {string} [source] file name for the message
 * @returns {any} the same document
 */
export function validateResults (doc, source = 'results') {
  const fail = (what) => {
    throw new PgloadError(`${source}: not a pgload results document (${what})`, { code: 'BAD_RESULTS' })
  }
  if (!isObject(doc)) fail('expected a JSON object')
  if (doc.schemaVersion !== 1) fail(`schemaVersion must be 1, got ${JSON.stringify(doc.schemaVersion)}`)
  if (!isObject(doc.run) || typeof doc.run.workload !== 'string') fail('run.workload missing')
  if (!isObject(doc.transactions)) fail('transactions missing')
  for (const [name, t] of Object.entries(doc.transactions)) {
    if (!isObject(t)) fail(`transactions.${name} is not an object`)
    if (t.histogram !== undefined && t.histogram !== null && typeof t.histogram !== 'string') fail(`transactions.${name}.histogram must be an encoded string`)
  }
  if (doc.intervals !== undefined && !Array.isArray(doc.intervals)) fail('intervals must be an array')
  if (doc.serverStats !== undefined && doc.serverStats !== null && !isObject(doc.serverStats)) fail('serverStats must be an object')
  if (doc.thresholds !== undefined && doc.thresholds !== null && !Array.isArray(doc.thresholds)) fail('thresholds must be an array')
  return doc
}

/**
 * Read and check one results file.
 * @param {string} file
 * @returns {Promise<any>}
 */
export async function readResultsFile (file) {
  let text
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    throw new PgloadError(`cannot read results file ${file}: ${err.code ?? err.message}`, { code: 'BAD_RESULTS', cause: err })
  }
  let doc
  try {
    doc = JSON.parse(text)
  } catch (err) {
    throw new PgloadError(`${file}: invalid JSON (${err.message})`, { code: 'BAD_RESULTS', cause: err })
  }
  return validateResults(doc, basename(file))
}
