// Client and server on CPUs of their own (vs-pgbench --pin CLIENT:SERVER): the server's processes
// on one set of CPUs, each runner on another, with taskset. On a machine where they share every
// core, a runner competes with the server's processes for CPU time, and its tps then follows its
// CPU per transaction; pinned, it gets a core of its own, as a load generator on a machine of its
// own does, and the runs show whether it keeps up with the server.

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { openConnection } from '../../lib/db/connection.js'
import { PgloadError } from '../../lib/errors.js'
import { childPids } from './runner-sched.js'

/**
 * Parse `CLIENT:SERVER`, each a CPU list as taskset takes it (`0`, `0,2`, `1-3`).
 * @param {string} text
 * @returns {{ client: string, server: string }}
 */
export function parsePin (text) {
  const m = /^([\d,-]+):([\d,-]+)$/.exec(text ?? '')
  if (!m) throw new PgloadError(`--pin must be CLIENT:SERVER CPU lists such as 0:1 or 0:1-3, got ${JSON.stringify(text)}`)
  return { client: m[1], server: m[2] }
}

/**
 * Pin the server's postmaster and every process it has forked to `cpus` (backends forked later
 * inherit the postmaster's mask). The server must run on this machine: its data directory is
 * read (superuser or pg_read_all_settings) for postmaster.pid.
 * @param {import('../../lib/db/connection.js').Target} target
 * @param {string} cpus
 * @returns {Promise<{ postmasterPid: number, restore: () => void }>} restore: the postmaster's
 *   former mask, back on it and on its processes
 */
export async function pinServer (target, cpus) {
  const conn = await openConnection(target, { protocol: 'simple', applicationName: 'pgload-bench' })
  /** @type {string} */
  let dataDir
  try {
    dataDir = (await conn.simpleQuery('SHOW data_directory')).rows[0][0]
  } catch (err) {
    throw new PgloadError(`--pin needs the server's data directory (superuser or pg_read_all_settings): ${err.message}`)
  } finally {
    await conn.close()
  }
  let postmasterPid
  try {
    postmasterPid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'latin1').split('\n')[0])
  } catch (err) {
    throw new PgloadError(`--pin needs the server on this machine: cannot read ${join(dataDir, 'postmaster.pid')} (${err.code ?? err.message})`)
  }
  const shown = taskset(['-p', String(postmasterPid)])
  const mask = /affinity mask: ([0-9a-f]+)/.exec(shown)?.[1]
  if (!mask) throw new PgloadError(`--pin: cannot read the postmaster's CPU affinity: ${shown.trim()}`)
  const apply = (args) => {
    taskset(['-a', '-p', ...args, String(postmasterPid)])
    for (const pid of childPids(postmasterPid)) taskset(['-a', '-p', ...args, String(pid)], { quiet: true })
  }
  apply(['-c', cpus])
  // an interrupted bench must not leave the server pinned
  const onSignal = (signal) => { restore(); process.kill(process.pid, signal) }
  let pinned = true
  function restore () {
    if (!pinned) return
    pinned = false
    process.removeListener('SIGINT', onSignal).removeListener('SIGTERM', onSignal)
    apply([mask])
  }
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal)
  return { postmasterPid, restore }
}

/**
 * The command that runs `file args` on `cpus`.
 * @param {string} cpus
 * @param {string} file
 * @param {string[]} args
 * @returns {[string, string[]]}
 */
export function onCpus (cpus, file, args) {
  return ['taskset', ['-c', cpus, file, ...args]]
}

// A process that ended meanwhile (quiet) is no error: the pins that matter are the postmaster's.
function taskset (args, { quiet = false } = {}) {
  const r = spawnSync('taskset', args, { encoding: 'utf8' })
  if (r.error) throw new PgloadError(`--pin needs taskset (util-linux): ${r.error.message}`)
  if (r.status !== 0 && !quiet) throw new PgloadError(`taskset ${args.join(' ')} failed: ${(r.stderr || r.stdout).trim()}`)
  return r.stdout
}
