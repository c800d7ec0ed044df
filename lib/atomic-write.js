// A file written whole or not at all: a temporary file beside it, then a rename, so a reader
// (or a crash) never sees half of it. Results files, sweep documents and reports use it.

import { writeFile, rename, unlink } from 'node:fs/promises'

/**
 * @param {string} file
 * @param {string|Uint8Array} data
 */
export async function writeFileAtomic (file, data) {
  const tmp = `${file}.tmp-${process.pid}`
  try {
    await writeFile(tmp, data)
    await rename(tmp, file)
  } catch (err) {
    await unlink(tmp).catch(() => {})
    throw err
  }
}
