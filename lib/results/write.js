// Where results go, checked before a run starts, and the atomic write (temp file + rename).

import { mkdir, writeFile, access, unlink, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { constants } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { PgloadError } from '../errors.js'
import { writeFileAtomic } from '../atomic-write.js'

/** Default folder for results, relative to the working directory. */
export const DEFAULT_RESULTS_DIR = 'pgload-results'

/**
 * The default results path: `./pgload-results/<UTC timestamp>-<workload>.json`.
 * @param {string} workload
 * @param {Date} [at]
 */
export function defaultResultsPath (workload, at = new Date()) {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')
  const safe = workload.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 60)
  return join(DEFAULT_RESULTS_DIR, `${stamp}-${safe}.json`)
}

/**
 * Make sure the results file can be written, before any measurement starts.
 * @param {string} file
 * @param {string} [flag]
 */
export async function ensureWritable (file, flag = '--out') {
  const dir = dirname(resolve(file))
  try {
    await mkdir(dir, { recursive: true })
    await access(dir, constants.W_OK)
  } catch (err) {
    throw new PgloadError(`${flag}: cannot write results to ${file}: ${err.code === 'EACCES' ? 'permission denied' : err.code === 'ENOTDIR' ? 'a parent is not a directory' : err.message}`, { code: 'RESULTS_NOT_WRITABLE' })
  }
  // A directory given as the file, or a place where the temporary file cannot be made, is a
  // mistake worth catching now rather than after the run.
  let info = null
  try { info = await stat(file) } catch { /* does not exist yet: fine */ }
  if (info?.isDirectory()) throw new PgloadError(`${flag}: ${file} is a directory; give a file name such as ${join(file, 'results.json')}`, { code: 'RESULTS_NOT_WRITABLE' })
  const probe = `${file}.tmp-${process.pid}`
  try {
    await writeFile(probe, '')
    await unlink(probe)
  } catch (err) {
    throw new PgloadError(`${flag}: cannot write results to ${file}: ${err.code === 'EACCES' ? 'permission denied' : err.message}`, { code: 'RESULTS_NOT_WRITABLE' })
  }
}

/**
 * Write a results document atomically: readers see the old file or the whole new one.
 * @param {string} file
 * @param {object} doc
 */
export async function writeResults (file, doc) {
  const text = JSON.stringify(doc, null, 1) + '\n'
  try {
    await mkdir(dirname(resolve(file)), { recursive: true })
    await writeFileAtomic(file, text)
  } catch (err) {
    // Measured results are never lost: keep them somewhere and say where.
    const rescue = join(tmpdir(), `pgload-results-${process.pid}-${Date.now()}.json`)
    await writeFile(rescue, text)
    throw new PgloadError(`could not write results to ${file} (${err.code ?? err.message}); they were saved to ${rescue}`, { code: 'RESULTS_NOT_WRITTEN', exitCode: 2, cause: err })
  }
}
