// A user's --restart-command (or --trigger): run through the shell, bounded in time; a failure is
// one line with its exit status (or signal) and the last line it wrote on stderr.

import { spawn } from 'node:child_process'
import { PgloadError } from '../../errors.js'

/** Bytes of the command's stderr kept: enough for its last lines. */
const STDERR_TAIL_BYTES = 8192

/**
 * The last non-empty line of a text, or a note that there was none.
 * @param {string} text
 * @returns {string}
 */
export function lastLine (text) {
  const lines = String(text).split('\n').map((l) => l.trim()).filter(Boolean)
  return lines.length ? lines[lines.length - 1] : '(nothing on stderr)'
}

/**
 * Run the command with `sh -c` and wait for it. It runs in a process group of its own, so that a
 * command past its time is killed with everything it started.
 * @param {string} command
 * @param {{ env?: Record<string, string|undefined>, timeoutS: number, shell?: string, flag?: string, code?: string }} opts
 *   flag and code: the option the command came from, named in a failure, and the error's code
 * @returns {Promise<{ seconds: number }>} how long it took
 */
export function runRestartCommand (command, { env = process.env, timeoutS, shell = '/bin/sh', flag = '--restart-command', code: errorCode = 'COLD_RESTART' }) {
  const t0 = performance.now()
  return new Promise((resolve, reject) => {
    const child = spawn(shell, ['-c', command], { env, stdio: ['ignore', 'ignore', 'pipe'], detached: true })
    let stderr = ''
    let timedOut = false
    child.stderr.on('data', (d) => {
      stderr += d
      if (stderr.length > 2 * STDERR_TAIL_BYTES) stderr = stderr.slice(-STDERR_TAIL_BYTES)
    })
    const timer = setTimeout(() => {
      timedOut = true
      try { process.kill(-child.pid, 'SIGKILL') } catch { child.kill('SIGKILL') }
    }, timeoutS * 1000)
    const fail = (what) => new PgloadError(`${flag} ${what}: ${lastLine(stderr)}`, { code: errorCode })
    child.on('error', (err) => {
      clearTimeout(timer)
      reject(new PgloadError(`${flag} could not be started (${shell}): ${err.message}`, { code: errorCode, cause: err }))
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (timedOut) reject(fail(`did not finish within ${timeoutS} s and was killed`))
      else if (signal) reject(fail(`was killed by ${signal}`))
      else if (code !== 0) reject(fail(`failed with exit status ${code}`))
      else resolve({ seconds: (performance.now() - t0) / 1000 })
    })
  })
}
