// Results documents as compare and check use them: read through the one results reader, and
// remembered with the file they came from (tables label runs by their file name).

import { readResults } from '../results/read.js'

/**
 * Read and check one results document (lib/results/read.js).
 * @param {string} file
 * @returns {Promise<object>} the document, with a non-enumerable `file` property
 */
export async function loadResults (file) {
  const doc = await readResults(file)
  Object.defineProperty(doc, 'file', { value: file, enumerable: false })
  return doc
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
