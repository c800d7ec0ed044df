// The embedded PostgreSQL for real use: one cluster per user in a cache directory, initialised
// once, started detached on a free loopback port, reused by later commands until stopped.
//
// Its home, where the data directory, password and state live: home.js.
//
// A server that is not kept and whose users are all gone was left by a pgload that was killed: it
// is "orphaned". The next command adopts it (same data directory and password, so it is the same
// server) and stops it when done, as if it had started it; see adoptOrphan().

import { rm } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { PgloadError } from '../../errors.js'
import { acquireLock } from './home-lock.js'
import { readState, writeState, newUser, withUser, withoutUser } from './server-state.js'
import { serverUser, freePort, generatePassword, initCluster, startCluster, stopCluster, clusterPid } from './cluster.js'
import { START_SETTINGS } from './start-settings.js'
import { pgloadHome, embeddedPaths, prepareHome, writePgpass, readPassword } from './home.js'
import { targetFor, runningServer, serverVersion, otherClients } from './running-server.js'

// postgresql.conf additions at initdb: room for the "few hundred connections" of DESIGN.md.
const SERVER_SETTINGS = { max_connections: 300 }
const silentLog = { info () {}, debug () {}, warn () {}, error () {} }

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
      await startCluster({ dataDir: paths.dataDir, port, logFile: paths.log, ids, settings: START_SETTINGS })
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
