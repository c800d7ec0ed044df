// Read a results document and check it is one pgload can use.

import { readFile } from 'node:fs/promises'
import { PgloadError } from '../errors.js'

/** The results schema version this build writes and reads. */
export const SCHEMA_VERSION = 1

/**
 * @param {string} file
 * @returns {Promise<object>}
 */
export async function readResults (file) {
  let text
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    throw new PgloadError(`cannot read results file ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`, { code: 'RESULTS_UNREADABLE' })
  }
  let doc
  try {
    doc = JSON.parse(text)
  } catch (err) {
    throw new PgloadError(`${file} is not a pgload results file: invalid JSON (${err.message})`, { code: 'RESULTS_INVALID' })
  }
  return validateResults(doc, file)
}

/**
 * @param {any} doc
 * @param {string} [file]
 */
export function validateResults (doc, file = 'results') {
  if (!doc || typeof doc !== 'object' || !('schemaVersion' in doc)) {
    throw new PgloadError(`${file} is not a pgload results file (no schemaVersion)`, { code: 'RESULTS_INVALID' })
  }
  if (doc.schemaVersion !== SCHEMA_VERSION) {
    throw new PgloadError(`${file} has results schema version ${doc.schemaVersion}; this pgload reads version ${SCHEMA_VERSION}`, { code: 'RESULTS_VERSION' })
  }
  for (const key of ['run', 'summary', 'transactions', 'intervals']) {
    if (!(key in doc)) throw new PgloadError(`${file} is not a complete pgload results file (no ${key})`, { code: 'RESULTS_INVALID' })
  }
  return doc
}
