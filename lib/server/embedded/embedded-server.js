// The embedded PostgreSQL for real use: one cluster per user in a cache directory, initialised
// once, started detached on a free loopback port, reused by later commands until stopped.
//
// Where it lives (the "pgload home"):
//   $PGLOAD_HOME if set, else $XDG_CACHE_HOME/pgload, else ~/.cache/pgload.
//   As root with neither variable set: ~postgres/.cache/pgload, because the server runs as the
//   `postgres` OS user and must reach its data directory (root's home is private).
// Contents:
//   pg<major>/     the data directory (initdb'd once; data survives between commands)
//   pgpass         the superuser password in .pgpass format, mode 0600 (PGPASSFILE=<it> psql ...)
//   server.json    state of the running server (server-state.js): { pid, port, dataDir, startedAt, owner, keep, users }:
//                  owner is the pid of the pgload that started (or adopted) it, keep whether it
//                  stays up after the pgload commands end (`pgload server start`), users the
//                  commands using a server that is not kept (server-users.js): the last to end
//                  stops it, whether it started it or not
//   server.log     the server's log (pg_ctl -l)
//   lock           held while a command starts or stops the server
//
// A server that is not kept and whose users are all gone was left by a pgload that was killed: it
// is "orphaned". The next command adopts it (same data directory and password, so it is the same
// server) and stops it when done, as if it had started it; see adoptOrphan().

import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { homedir, userInfo } from 'node:os'
import { dirname, join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { PgloadError } from '../../errors.js'
import { openConnection } from '../../db/connection.js'
import { displayUrl } from '../target/resolve-target.js'
import { acquireLock } from './home-lock.js'
import { readState, writeState, newUser, liveUsers, withUser, withoutUser } from './server-state.js'
import {
  binaries, serverUser, giveToServerUser, freePort, generatePassword,
  initCluster, startCluster, stopCluster, clusterPid, SERVER_OS_USER
} from './cluster.js'

const SUPERUSER = 'postgres'
const DATABASE = 'postgres'
// postgresql.conf additions at initdb: room for the "few hundred connections" of DESIGN.md.
const SERVER_SETTINGS = { max_connections: 300 }
const silentLog = { info () {}, debug () {}, warn () {}, error () {} }
const CLOSING_CLIENTS_WAIT_MS = 2000 // how long backends of commands that just ended may take to exit

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

/**
 * Use the embedded server: reuse a running one, or start one (initialising it the first time).
 * @param {{ keep?: boolean, env?: Record<string, string|undefined>, log?: any }} [opts]
 *   keep: leave it running after this command (`pgload server start`)
 * @returns {Promise<{ target: import('../../db/connection.js').Target, owned: boolean, reused: boolean,
 *   adopted: boolean, startMs: number, stop: () => Promise<boolean> }>} owned: this call started or
 *   adopted it, and keep was false. stop() ends this call's use of a server a pgload command started
 *   (not kept): the last such use to end stops it, unless clients other than pgload's are connected;
 *   resolves true when it stopped it. adopted: an orphaned server (see the top of this file) became
 *   this call's.
 */
export async function ensureEmbeddedServer ({ keep = false, env = process.env, log = silentLog } = {}) {
  const paths = await embeddedPaths(pgloadHome({ env }))
  const ids = await serverUser()
  await prepareHome(paths, ids)
  const t0 = performance.now()
  const release = await acquireLock(paths.lock)
  const user = newUser()
  let running
  let reused = true
  let adopted = false
  let using = false // this call is one of the users of a server that is not kept
  try {
    running = await runningServer(paths, ids)
    if (running?.refused) throw refusedError(running)
    if (running?.orphaned) {
      adopted = true
      await adoptOrphan(paths, running, keep, user, log)
      using = !keep
    } else if (!running) {
      reused = false
      await stopUnreachable(paths, ids, log)
      running = await startServerLocked(paths, ids, { keep, user }, log)
      using = !keep
    } else if (running.keep === false && !keep) {
      await writeState(paths, withUser(await readState(paths, running.pid), user))
      using = true
    }
  } finally {
    await release()
  }
  const startMs = performance.now() - t0
  const owned = (!reused || adopted) && !keep
  const target = targetFor(running.port, running.password)
  log.info({ target: target.display, reused, startMs: Math.round(startMs) }, reused ? 'using the running embedded server' : 'started the embedded server')
  return {
    target,
    owned,
    reused,
    adopted,
    startMs,
    async stop () {
      if (!using) return false
      using = false
      return leaveServer(paths, ids, { target, user, log })
    }
  }
}

// The end of one use of a server that is not kept: the last user stops it.
async function leaveServer (paths, ids, { target, user, log }) {
  const release = await acquireLock(paths.lock)
  try {
    const pid = await clusterPid({ dataDir: paths.dataDir, ids })
    if (!pid) return false
    const state = await readState(paths, pid)
    if (state.keep !== false) return false // stopped and started again by hand meanwhile
    const left = withoutUser(state, user)
    if (left.users.length === 0) {
      if (await otherClients(target) === 0) {
        const stopped = await stopCluster({ dataDir: paths.dataDir, ids })
        await rm(paths.state, { force: true })
        return stopped
      }
      log.warn({ target: target.display }, 'other clients are connected: leaving the embedded server running (pgload server stop)')
    }
    await writeState(paths, left)
    return false
  } finally {
    await release()
  }
}

/**
 * Start the embedded server detached (it outlives this process) unless it already runs.
 * @param {{ env?: Record<string, string|undefined>, log?: any }} [opts]
 */
export async function startServer ({ env = process.env, log = silentLog } = {}) {
  const s = await ensureEmbeddedServer({ keep: true, env, log })
  return { target: s.target, alreadyRunning: s.reused, startMs: s.startMs }
}

/**
 * Stop the embedded server (fast shutdown).
 * @param {{ env?: Record<string, string|undefined> }} [opts]
 * @returns {Promise<boolean>} false when it was not running
 */
export async function stopServer ({ env = process.env } = {}) {
  const paths = await embeddedPaths(pgloadHome({ env }))
  if (!existsSync(paths.dataDir)) return false
  const ids = await serverUser()
  const release = await acquireLock(paths.lock)
  try {
    const pid = await clusterPid({ dataDir: paths.dataDir, ids })
    const stopped = pid ? await stopCluster({ dataDir: paths.dataDir, ids }) : false
    await rm(paths.state, { force: true })
    return stopped
  } finally {
    await release()
  }
}

/**
 * Describe the embedded server.
 * @param {{ env?: Record<string, string|undefined> }} [opts]
 * @returns {Promise<{ running: boolean, home: string, dataDir: string, initialised: boolean,
 *   pgpass: string, logFile: string, pid?: number, port?: number, url?: string, version?: string, startedAt?: string,
 *   owner?: number, keep?: boolean, users?: number[], orphaned?: boolean }>} owner: the pgload that started
 *   or adopted it; users: the pids of the pgload commands using it (when not kept); orphaned: not
 *   kept, and every pgload that used it is gone (see the top of this file)
 */
export async function serverStatus ({ env = process.env } = {}) {
  const paths = await embeddedPaths(pgloadHome({ env }))
  const base = {
    running: false,
    home: paths.home,
    dataDir: paths.dataDir,
    initialised: existsSync(join(paths.dataDir, 'PG_VERSION')),
    pgpass: paths.pgpass,
    logFile: paths.log
  }
  if (!base.initialised) return base
  const ids = await serverUser()
  const running = await runningServer(paths, ids)
  if (!running || running.refused) return base
  return {
    ...base,
    running: true,
    pid: running.pid,
    port: running.port,
    url: targetFor(running.port, running.password).display,
    version: running.version,
    startedAt: running.startedAt,
    owner: running.owner,
    keep: running.keep,
    users: running.users,
    orphaned: running.orphaned
  }
}

/**
 * The Target of the embedded server on a port.
 * @param {number} port
 * @param {string} password
 * @returns {import('../../db/connection.js').Target}
 */
export function targetFor (port, password) {
  const config = { host: '127.0.0.1', port, user: SUPERUSER, database: DATABASE, password, ssl: false, application_name: 'pgload' }
  return { config, display: displayUrl(config), embedded: true }
}

/** The directories from `first` down to `last` (both included), as mkdir -p created them. */
function createdChain (first, last) {
  const chain = [last]
  for (let dir = dirname(last); dir.length >= first.length && dir !== dirname(dir); dir = dirname(dir)) chain.unshift(dir)
  return chain
}

async function prepareHome (paths, ids) {
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

// The running server of this home, or null: postmaster alive (pg_ctl status) and connectable.
async function runningServer (paths, ids) {
  if (!existsSync(join(paths.dataDir, 'PG_VERSION'))) return null
  const pid = await clusterPid({ dataDir: paths.dataDir, ids })
  if (!pid) return null
  const password = await readPassword(paths)
  // postmaster.pid line 4 is the port; the state file may be missing after a crash.
  const lines = (await readFile(join(paths.dataDir, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')
  const port = Number(lines[3])
  if (!Number.isInteger(port) || port <= 0) return null
  let version
  try {
    const conn = await openConnection(targetFor(port, password), { connectTimeoutMs: 5000 })
    try {
      version = (await conn.simpleQuery("select current_setting('server_version')")).rows[0][0]
    } finally {
      await conn.close()
    }
  } catch (err) {
    // An error answer (too many connections, say) comes from a server at work, perhaps for
    // another pgload: never taken for one that does not answer, which is stopped and restarted.
    if (typeof err?.severity === 'string') return { pid, port, refused: err }
    return null
  }
  const state = await readState(paths, pid)
  // A server with no owner on record (started by an older pgload, or by hand) is never orphaned.
  const users = state.keep === false ? [...new Set(liveUsers(state).map((u) => u.pid))] : []
  const orphaned = state.keep === false && Number.isInteger(state.owner) && users.length === 0
  return { pid, port, password, version, startedAt: state.startedAt, owner: state.owner, keep: state.keep, users, orphaned }
}

// The orphan becomes this command's: the same data directory and password (it answered with
// them), so it is the server this command would start, minus the start. Stopping it instead would
// also cut off another pgload that reused it meanwhile; stop() still leaves it to those.
async function adoptOrphan (paths, running, keep, user, log) {
  const state = await readState(paths, running.pid)
  await writeState(paths, { ...state, owner: process.pid, keep, users: keep ? [] : [user] })
  log.warn({ pid: running.pid, port: running.port, owner: running.owner },
    `the embedded PostgreSQL (pid ${running.pid}, port ${running.port}) was left running by a pgload that is gone (pid ${running.owner}): ` +
    (keep ? 'it stays running (pgload server stop)' : 'using it, and stopping it when this command ends'))
  running.owner = process.pid
  running.keep = keep
  running.orphaned = false
}

function refusedError ({ pid, port, refused }) {
  return new PgloadError(`the embedded PostgreSQL (pid ${pid}, port ${port}) refuses connections: ${refused.message}`, {
    code: 'EMBEDDED_REFUSED', cause: refused, hint: 'if another pgload is using it, wait for it; else stop it: pgload server stop'
  })
}

// A postmaster of this data directory that is alive but did not answer (hung, or its state is
// lost): stop it (fast shutdown) before starting a fresh one, which would fail next to it.
async function stopUnreachable (paths, ids, log) {
  if (!existsSync(join(paths.dataDir, 'PG_VERSION'))) return
  const pid = await clusterPid({ dataDir: paths.dataDir, ids })
  if (!pid) return
  log.warn({ pid }, `the embedded PostgreSQL (pid ${pid}) runs but does not answer: stopping it (fast) to start it again`)
  await stopCluster({ dataDir: paths.dataDir, ids })
}

async function startServerLocked (paths, ids, { keep, user }, log) {
  let password
  if (!existsSync(join(paths.dataDir, 'PG_VERSION'))) {
    if (existsSync(paths.dataDir)) await rm(paths.dataDir, { recursive: true, force: true }) // a failed initdb
    password = generatePassword()
    await writePgpass(paths.pgpass, password)
    log.info({ dataDir: paths.dataDir }, 'initialising the embedded PostgreSQL (once)')
    await initCluster({ dataDir: paths.dataDir, password, ids, settings: SERVER_SETTINGS })
  } else {
    password = await readPassword(paths)
  }
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    try {
      await startCluster({ dataDir: paths.dataDir, port, logFile: paths.log, ids })
      const pid = await clusterPid({ dataDir: paths.dataDir, ids })
      const state = { pid, port, dataDir: paths.dataDir, startedAt: new Date().toISOString(), owner: process.pid, keep, users: keep ? [] : [user] }
      await writeState(paths, state)
      const version = await serverVersion(targetFor(port, password))
      return { pid, port, password, version, startedAt: state.startedAt }
    } catch (err) {
      if (!err.portInUse || attempt >= 3) throw err
    }
  }
}

async function serverVersion (target) {
  const conn = await openConnection(target, { connectTimeoutMs: 5000 })
  try {
    return (await conn.simpleQuery("select current_setting('server_version')")).rows[0][0]
  } finally {
    await conn.close()
  }
}

// Clients connected other than this one; the backends of commands that just ended may take a
// moment to exit, so a count above zero is looked at again for a short while.
async function otherClients (target) {
  try {
    const conn = await openConnection(target, { connectTimeoutMs: 5000 })
    try {
      const deadline = performance.now() + CLOSING_CLIENTS_WAIT_MS
      for (;;) {
        const r = await conn.simpleQuery("select count(*) from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()")
        const n = Number(r.rows[0][0])
        if (n === 0 || performance.now() > deadline) return n
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    } finally {
      await conn.close()
    }
  } catch {
    return 0
  }
}

async function writePgpass (file, password) {
  const esc = (s) => s.replace(/([\\:])/g, '\\$1')
  await writeFile(file, `127.0.0.1:*:*:${SUPERUSER}:${esc(password)}\n`, { mode: 0o600 })
}

async function readPassword (paths) {
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
