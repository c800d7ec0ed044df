// The pgload home, where the embedded PostgreSQL lives, and the files in it.
//
// Where it is:
//   $PGLOAD_HOME if set, else $XDG_CACHE_HOME/pgload, else ~/.cache/pgload.
//   As root with neither variable set: ~postgres/.cache/pgload, because the server runs as the
//   `postgres` OS user and must reach its data directory (root's home is private).
// Contents:
//   pg<major>/     the data directory (initdb'd once; data survives between commands)
//   pgpass         the superuser password in .pgpass format, mode 0600 (PGPASSFILE=<it> psql ...)
//   server.json    state of the running server (server-state.js): { pid, port, dataDir, startedAt, owner, keep, users }:
//                  owner is the pid of the pgload that started (or adopted) it, keep whether it
//                  stays up after the pgload commands end (`pgload server start`), users the
//                  commands using a server that is not kept: the last to end
//                  stops it, whether it started it or not
//   server.log     the server's log (pg_ctl -l)
//   lock           held while a command starts or stops the server

import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { homedir, userInfo } from 'node:os'
import { dirname, join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { PgloadError } from '../../errors.js'
import { binaries, giveToServerUser, SERVER_OS_USER } from './cluster.js'

/** The embedded server's superuser, whose password the home keeps. */
export const SUPERUSER = 'postgres'

/**
 * The pgload home directory (see the top of this file).
 * @param {{ env?: Record<string, string|undefined> }} [opts]
 * @returns {string}
 */
export function pgloadHome ({ env = process.env } = {}) {
  if (env.PGLOAD_HOME) return env.PGLOAD_HOME
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'pgload')
  if (userInfo().uid === 0) {
    const r = spawnSync('getent', ['passwd', SERVER_OS_USER], { encoding: 'utf8' })
    const home = r.status === 0 ? r.stdout.split(':')[5] : undefined
    if (home && home.startsWith('/')) return join(home, '.cache', 'pgload')
  }
  return join(env.HOME || homedir(), '.cache', 'pgload')
}

/**
 * Files of the embedded server under a home directory.
 * @param {string} home
 */
export async function embeddedPaths (home) {
  const { major } = await binaries()
  return {
    home,
    dataDir: join(home, `pg${major}`),
    pgpass: join(home, 'pgpass'),
    state: join(home, 'server.json'),
    log: join(home, 'server.log'),
    lock: join(home, 'lock')
  }
}

/** The directories from `first` down to `last` (both included), as mkdir -p created them. */
function createdChain (first, last) {
  const chain = [last]
  for (let dir = dirname(last); dir.length >= first.length && dir !== dirname(dir); dir = dirname(dir)) chain.unshift(dir)
  return chain
}

/**
 * Create the home (mode 0700) so that the server's OS user can reach it; one-line errors.
 * @param {Awaited<ReturnType<typeof embeddedPaths>>} paths
 * @param {{ uid?: number, gid?: number }} ids the server's OS user, when it is another (as root)
 */
export async function prepareHome (paths, ids) {
  try {
    const firstCreated = await mkdir(paths.home, { recursive: true, mode: 0o700 })
    // The server user must reach its data directory inside the home: it gets the home and every
    // directory created on the way to it (as root, ~postgres/.cache may not exist yet).
    if (ids.uid !== undefined) {
      const created = firstCreated ? createdChain(firstCreated, paths.home) : [paths.home]
      for (const dir of created) await giveToServerUser(dir, ids)
      if (!created.includes(paths.home)) await giveToServerUser(paths.home, ids)
    }
  } catch (err) {
    throw new PgloadError(`cannot create the pgload home ${paths.home}: ${err.code ?? err.message}`, {
      code: 'EMBEDDED_HOME', hint: 'set PGLOAD_HOME to a writable directory', cause: err
    })
  }
  if (ids.uid !== undefined) {
    const r = spawnSync('test', ['-w', paths.home, '-a', '-x', paths.home], { uid: ids.uid, gid: ids.gid })
    if (r.status !== 0) {
      throw new PgloadError(`the '${SERVER_OS_USER}' OS user that runs the embedded server cannot reach ${paths.home}`, {
        code: 'EMBEDDED_HOME', hint: `set PGLOAD_HOME to a directory ${SERVER_OS_USER} can reach (e.g. under /var/tmp)`
      })
    }
  }
}

/**
 * Keep the superuser's password in the home's pgpass file (mode 0600).
 * @param {string} file @param {string} password
 */
export async function writePgpass (file, password) {
  const esc = (s) => s.replace(/([\\:])/g, '\\$1')
  await writeFile(file, `127.0.0.1:*:*:${SUPERUSER}:${esc(password)}\n`, { mode: 0o600 })
}

/**
 * The superuser's password, from the home's pgpass file.
 * @param {{ pgpass: string, dataDir: string }} paths
 * @returns {Promise<string>}
 */
export async function readPassword (paths) {
  let text
  try {
    text = await readFile(paths.pgpass, 'utf8')
  } catch {
    throw new PgloadError(`the embedded server's password file ${paths.pgpass} is missing`, {
      code: 'EMBEDDED_STATE', hint: `stop the server (pgload server stop) and remove ${paths.dataDir} to start afresh`
    })
  }
  const line = text.split('\n')[0]
  return line.slice(line.indexOf(`:${SUPERUSER}:`) + SUPERUSER.length + 2).replace(/\\(.)/g, '$1')
}
