// The lock of the pgload home: held while a command starts, adopts or stops the embedded server,
// so two commands never start two servers on one data directory.

import { open, readFile, rm, stat } from 'node:fs/promises'
import { PgloadError } from '../../errors.js'

const LOCK_WAIT_MS = 120_000 // how long a command waits for another one starting the server

/**
 * Take the lock file (it holds the owner's pid); a lock whose owner died is taken over.
 * @param {string} file
 * @returns {Promise<() => Promise<void>>} release
 */
export async function acquireLock (file) {
  const deadline = Date.now() + LOCK_WAIT_MS
  for (;;) {
    try {
      const fh = await open(file, 'wx', 0o600)
      await fh.writeFile(String(process.pid))
      await fh.close()
      return () => rm(file, { force: true })
    } catch (err) {
      if (err.code !== 'EEXIST') throw err
    }
    const owner = Number(await readFile(file, 'utf8').catch(() => ''))
    const age = await stat(file).then(s => Date.now() - s.mtimeMs, () => 0)
    if (!pidAlive(owner) && age > 1000) {
      await rm(file, { force: true })
      continue
    }
    if (Date.now() > deadline) {
      throw new PgloadError(`the embedded server is busy (lock ${file} held by pid ${owner})`, { code: 'EMBEDDED_LOCK', hint: `remove ${file} if no pgload is running` })
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/**
 * Whether a process exists (signal 0; EPERM means it exists but is not ours).
 * @param {number} pid
 */
export function pidAlive (pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return err.code === 'EPERM'
  }
}
