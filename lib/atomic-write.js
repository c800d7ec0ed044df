// A file written whole or not at all: a temporary file beside it, flushed to disk, then a rename,
// and the directory flushed, so a reader, a crash or a power loss never leaves half a file (or an
// empty one where the rename reached the disk before the data), as PostgreSQL does with its own.
// Results files, sweep documents and reports use it. The temporary file's name says what it is
// (`results.json.incomplete-PID.tmp`); one left by a process killed mid-write (SIGKILL, a power
// loss) is removed by the next write of the same file once its process is gone.

import * as fsPromises from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

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
  const tmp = temporaryName(file, process.pid)
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
  await removeStale(file, fs)
}

/**
 * The temporary file of `file` while process `pid` writes it.
 * @param {string} file
 * @param {number} pid
 * @returns {string}
 */
export function temporaryName (file, pid) {
  return `${file}.incomplete-${pid}.tmp`
}

/**
 * Remove temporary files of `file` whose writer is gone (this name, and the `.tmp-PID` of
 * earlier versions); those of live processes are theirs. Never fails the write that calls it.
 * @param {string} file
 * @param {AtomicWriteFs} fs
 * @param {(pid: number) => boolean} [alive]
 */
export async function removeStale (file, fs, alive = processAlive) {
  const base = basename(file)
  let names
  try {
    names = await fsPromises.readdir(dirname(file))
  } catch {
    return
  }
  for (const name of names) {
    if (!name.startsWith(base + '.')) continue
    const m = /^\.(?:incomplete-(\d+)\.tmp|tmp-(\d+))$/.exec(name.slice(base.length))
    const pid = m && Number(m[1] ?? m[2])
    if (!pid || pid === process.pid || alive(pid)) continue
    await fs.unlink(join(dirname(file), name)).catch(() => {})
  }
}

/** Whether a process exists (EPERM: it does, as another user's). */
function processAlive (pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return err.code === 'EPERM'
  }
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
