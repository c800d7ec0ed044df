// A file written whole or not at all: a temporary file beside it, flushed to disk, then a rename,
// and the directory flushed, so a reader, a crash or a power loss never leaves half a file (or an
// empty one where the rename reached the disk before the data), as PostgreSQL does with its own.
// Results files, sweep documents and reports use it.

import * as fsPromises from 'node:fs/promises'
import { dirname } from 'node:path'

// Platforms where a directory cannot be opened or flushed (Windows) say so with these codes;
// PostgreSQL's fsync_fname ignores the same ones for directories.
const DIRECTORY_SYNC_UNSUPPORTED = new Set(['EISDIR', 'EINVAL', 'EPERM', 'EACCES', 'EBADF'])

/**
 * @typedef {object} AtomicWriteFs the file system calls used (node:fs/promises by default)
 * @property {typeof fsPromises.open} open
 * @property {typeof fsPromises.rename} rename
 * @property {typeof fsPromises.unlink} unlink
 */

/**
 * @param {string} file
 * @param {string|Uint8Array} data
 * @param {{ fs?: AtomicWriteFs }} [options] fs: injected by tests
 */
export async function writeFileAtomic (file, data, { fs = fsPromises } = {}) {
  const tmp = `${file}.tmp-${process.pid}`
  try {
    const handle = await fs.open(tmp, 'w')
    try {
      await handle.writeFile(data)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await fs.rename(tmp, file)
  } catch (err) {
    await fs.unlink(tmp).catch(() => {})
    throw err
  }
  await syncDirectory(dirname(file), fs)
}

/**
 * Makes the rename durable: the new directory entry is on disk once this returns.
 * @param {string} dir
 * @param {AtomicWriteFs} fs
 */
async function syncDirectory (dir, fs) {
  let handle
  try {
    handle = await fs.open(dir, 'r')
    await handle.sync()
  } catch (err) {
    if (!DIRECTORY_SYNC_UNSUPPORTED.has(/** @type {any} */ (err).code)) throw err
  } finally {
    await handle?.close()
  }
}
