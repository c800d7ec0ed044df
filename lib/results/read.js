// Reading a results file: the one reader behind report, compare and check. Any file pgload cannot
// use fails here with one line naming the file (and the field): never later, inside a chart.

import { readFile } from 'node:fs/promises'
import { gunzip } from 'node:zlib'
import { promisify } from 'node:util'
import { PgloadError } from '../errors.js'
import { validateResults, SCHEMA_VERSION, RESULTS_INVALID } from './schema.js'

export { validateResults, SCHEMA_VERSION, RESULTS_INVALID }

const gunzipAsync = promisify(gunzip)
// A results document gzipped (`results.json.gz`) is read as well: files are often archived so.
const isGzip = (buf) => buf.length >= 2 && buf[0] === 0x1f && buf[1] === 0x8b
// Bound on a decompressed document, so a damaged or hostile file cannot exhaust memory.
const MAX_GUNZIPPED_BYTES = 1 << 30

// Documents readResults has checked: a later check of the same object (the report renders what
// the command read) is not done twice.
const checked = new WeakSet()

const oneLine = (err) => String(err?.message ?? err).replace(/\s+/g, ' ').trim()

/**
 * Read, parse and deeply check one results file (plain or gzipped JSON).
 * @param {string} file
 * @returns {Promise<object>} the results document
 * @throws {PgloadError} code RESULTS_INVALID, exit code 1: `FILE: FIELD: what is wrong`
 */
export async function readResults (file) {
  let buf
  try {
    buf = await readFile(file)
  } catch (err) {
    const why = err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'a directory, not a results file' : err.code === 'EACCES' ? 'permission denied' : oneLine(err)
    throw new PgloadError(`${file}: cannot read results file: ${why}`, { code: RESULTS_INVALID, cause: err })
  }
  if (isGzip(buf)) {
    try {
      buf = await gunzipAsync(buf, { maxOutputLength: MAX_GUNZIPPED_BYTES })
    } catch (err) {
      throw new PgloadError(`${file}: damaged gzip data (${oneLine(err)})`, { code: RESULTS_INVALID, cause: err })
    }
  }
  let doc
  try {
    doc = JSON.parse(buf.toString('utf8'))
  } catch (err) {
    throw new PgloadError(`${file}: not a JSON document (${shortJsonError(err)})`, { code: RESULTS_INVALID, cause: err })
  }
  checked.add(validateResults(doc, file))
  return doc
}

/**
 * Deeply check a results document unless readResults returned this very object (already checked).
 * @param {any} doc
 * @param {string} [source] the file name (or label) for the message
 * @returns {object} the document
 */
export function ensureValidResults (doc, source) {
  return checked.has(doc) ? doc : validateResults(doc, source)
}

// V8's JSON messages quote a stretch of the file, newlines and binary bytes included: keep
// them short and printable.
function shortJsonError (err) {
  const msg = oneLine(err).replace(/[^\x20-\x7e]/g, '?')
  return msg.length > 120 ? `${msg.slice(0, 117)}...` : msg
}
