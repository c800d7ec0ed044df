// Reading a results file: the one reader behind report, compare and check. Any file pgload cannot
// use fails here with one line naming the file (and the field): never later, inside a chart.

import { readFile, stat } from 'node:fs/promises'
import { gunzip } from 'node:zlib'
import { constants as bufferConstants } from 'node:buffer'
import { promisify } from 'node:util'
import { PgloadError } from '../errors.js'
import { validateResults, SCHEMA_VERSION, RESULTS_INVALID } from './schema.js'

export { validateResults, SCHEMA_VERSION, RESULTS_INVALID }

const gunzipAsync = promisify(gunzip)
// A results document gzipped (`results.json.gz`) is read as well: files are often archived so.
const isGzip = (buf) => buf.length >= 2 && buf[0] === 0x1f && buf[1] === 0x8b
/**
 * The largest results document read, plain or decompressed: the longest string V8 makes
 * (512 MiB), so a larger one could not be parsed anyway; a gzip bomb is refused when its output
 * passes it, not after filling memory. A day at 1 s intervals with ten transaction types is
 * about 430 MB (5 KB per interval).
 */
export const MAX_DOCUMENT_BYTES = bufferConstants.MAX_STRING_LENGTH

// Documents readResults has checked: a later check of the same object (the report renders what
// the command read) is not done twice.
const checked = new WeakSet()

const oneLine = (err) => String(err?.message ?? err).replace(/\s+/g, ' ').trim()

/**
 * Read, parse and deeply check one results file (plain or gzipped JSON).
 * @param {string} file
 * @param {{ maxBytes?: number }} [opts] maxBytes: the largest document read (tests lower it)
 * @returns {Promise<object>} the results document
 * @throws {PgloadError} code RESULTS_INVALID, exit code 1: `FILE: FIELD: what is wrong`
 */
export async function readResults (file, { maxBytes = MAX_DOCUMENT_BYTES } = {}) {
  const tooLarge = (what) => new PgloadError(`${file}: ${what} is larger than the ${mib(maxBytes)} a results document may have`, { code: RESULTS_INVALID })
  let buf
  try {
    if ((await stat(file)).size > maxBytes) throw tooLarge('the file')
    buf = await readFile(file)
  } catch (err) {
    if (err instanceof PgloadError) throw err
    const why = err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'a directory, not a results file' : err.code === 'EACCES' ? 'permission denied' : oneLine(err)
    throw new PgloadError(`${file}: cannot read results file: ${why}`, { code: RESULTS_INVALID, cause: err })
  }
  if (isGzip(buf)) {
    try {
      buf = await gunzipAsync(buf, { maxOutputLength: maxBytes })
    } catch (err) {
      if (err?.code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge('its decompressed content')
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

const mib = (bytes) => bytes < 1048576 ? `${bytes} bytes` : `${Math.round(bytes / 1048576 * 10) / 10} MiB`

// V8's JSON messages quote a stretch of the file, newlines and binary bytes included: keep
// them short and printable.
function shortJsonError (err) {
  const msg = oneLine(err).replace(/[^\x20-\x7e]/g, '?')
  return msg.length > 120 ? `${msg.slice(0, 117)}...` : msg
}
