// Dropping the OS page cache for a cold start: only as root, only when the server's files are
// on this machine, only where /proc/sys/vm/drop_caches can be written (not in most containers).

import { execFile } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { promisify } from 'node:util'

const execFileAsync = promisify(execFile)

/** The kernel's switch: writing 3 frees the page cache and the dentry and inode caches. */
export const DROP_CACHES_PATH = '/proc/sys/vm/drop_caches'
/** ms `sync` may take before the drop is given up (dirty pages of a big load can take a while). */
const SYNC_TIMEOUT_MS = 120_000

/**
 * Whether pgload can drop the page cache here, and if not, why (one line).
 * @param {{ keep?: boolean, local: boolean, host?: string, uid?: number, path?: string,
 *   writable?: (path: string) => string|null }} facts keep: the user asked to keep it;
 *   local: the server's files are on this machine; uid: this process's (undefined where there is none);
 *   writable: null when the path can be written, else the reason (default: access(2))
 * @returns {{ drop: boolean, note: string|null }}
 */
export function pageCacheDecision ({ keep = false, local, host, uid, path = DROP_CACHES_PATH, writable = writableReason }) {
  if (keep) return { drop: false, note: 'kept (--keep-page-cache)' }
  if (!local) return { drop: false, note: `not dropped: the server${host ? ` (${host})` : ''} is not on this machine` }
  if (uid !== 0) return { drop: false, note: `not dropped: pgload is not root (uid ${uid ?? 'unknown'}); dropping the OS page cache needs root` }
  const why = writable(path)
  if (why) return { drop: false, note: `not dropped: ${path} ${why}` }
  return { drop: true, note: null }
}

/**
 * Why a path cannot be written, or null when it can.
 * @param {string} path
 * @returns {string|null}
 */
export function writableReason (path) {
  try {
    accessSync(path, constants.W_OK)
    return null
  } catch (err) {
    if (err.code === 'ENOENT') return 'does not exist (not Linux?)'
    if (err.code === 'EROFS') return 'is on a read-only file system (as in a container)'
    return `is not writable (${err.code ?? err.message})`
  }
}

/**
 * sync, then write 3 to the kernel's switch.
 * @param {{ path?: string, sync?: () => Promise<unknown> }} [io]
 * @returns {Promise<{ dropped: boolean, note: string|null }>} a failure is a note, not an error
 */
export async function dropPageCache ({ path = DROP_CACHES_PATH, sync = () => execFileAsync('sync', [], { timeout: SYNC_TIMEOUT_MS }) } = {}) {
  try {
    await sync()
  } catch (err) {
    return { dropped: false, note: `not dropped: sync failed (${String(err.message).split('\n')[0]})` }
  }
  try {
    await writeFile(path, '3\n')
    return { dropped: true, note: null }
  } catch (err) {
    return { dropped: false, note: `not dropped: writing ${path} failed (${err.code ?? err.message})` }
  }
}

/**
 * Whether a host name or address is this machine: loopback, or a Unix socket directory.
 * @param {string|undefined} host
 */
export function isLocalHost (host) {
  if (typeof host !== 'string' || host === '') return false
  if (host.startsWith('/')) return true
  const h = host.replace(/^\[|\]$/g, '').toLowerCase()
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h)
}
