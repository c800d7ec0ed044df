// A PgBouncer (the system's pgbouncer binary) on a free loopback port, in front of a test server,
// in a temp dir of its own: for tests of runs through a pooler. Started under the server's OS
// user when the tests run as root (PgBouncer refuses to run as root).

import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync, chmodSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import net from 'node:net'
import { serverUser, giveToServerUser, freePort } from '../../lib/server/embedded/cluster.js'

export const PGBOUNCER = '/usr/sbin/pgbouncer'

/** The pgbouncer binary's version ('1.18.0'), or null when there is none. */
export function pgbouncerVersion () {
  const r = spawnSync(PGBOUNCER, ['--version'], { encoding: 'utf8' })
  if (r.status !== 0) return null
  return /PgBouncer (\d+\.\d+(?:\.\d+)?)/.exec(r.stdout)?.[1] ?? null
}

/**
 * Start PgBouncer in front of `server` (getTestServer's): database `postgres` and `pgbouncer`
 * (the admin console), clients trusted, the server's user an admin.
 * @param {{ url: string }} server
 * @param {{ poolMode?: string, poolSize?: number, extra?: Record<string, string|number> }} [opts]
 * @returns {Promise<{ port: number, url: (db?: string) => string, stop: () => Promise<void>, log: () => string }>}
 */
export async function startPgbouncer (server, { poolMode = 'transaction', poolSize = 2, extra = {} } = {}) {
  const u = new URL(server.url)
  const ids = await serverUser()
  const dir = mkdtempSync(join(tmpdir(), 'pgload-pgbouncer-'))
  chmodSync(dir, 0o700)
  await giveToServerUser(dir, ids)
  const port = await freePort()
  const user = decodeURIComponent(u.username)
  const settings = {
    listen_addr: '127.0.0.1',
    listen_port: port,
    unix_socket_dir: '',
    auth_type: 'trust',
    auth_file: join(dir, 'userlist.txt'),
    admin_users: user,
    pool_mode: poolMode,
    default_pool_size: poolSize,
    max_client_conn: 200,
    logfile: join(dir, 'pgbouncer.log'),
    pidfile: join(dir, 'pgbouncer.pid'),
    ...extra
  }
  const dbLine = `postgres = host=${u.hostname} port=${u.port} dbname=postgres user=${user} password=${decodeURIComponent(u.password)}`
  const ini = `[databases]\n${dbLine}\n\n[pgbouncer]\n${Object.entries(settings).map(([k, v]) => `${k} = ${v}`).join('\n')}\n`
  writeFileSync(join(dir, 'pgbouncer.ini'), ini, { mode: 0o600 })
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" ""\n`, { mode: 0o600 })
  for (const f of ['pgbouncer.ini', 'userlist.txt']) await giveToServerUser(join(dir, f), ids)
  const args = [...(ids.uid !== undefined ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')]
  const child = spawn(PGBOUNCER, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (d) => { stderr += d })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const log = () => { try { return readFileSync(settings.logfile, 'utf8') } catch { return '' } }
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT')
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000).unref())])
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    }
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await waitForPort(port, exited, () => `${stderr}${log()}`)
  } catch (err) {
    await stop()
    throw err
  }
  const url = (db = 'postgres') => `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${db}`
  return { port, url, stop, log }
}

async function waitForPort (port, exited, output) {
  let dead = false
  exited.then(() => { dead = true })
  for (let i = 0; i < 100; i++) {
    if (dead) throw new Error(`pgbouncer exited: ${output()}`)
    if (await canConnect(port)) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`pgbouncer did not listen on ${port} within 10 s: ${output()}`)
}

function canConnect (port) {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1')
    s.once('connect', () => { s.destroy(); resolve(true) })
    s.once('error', () => resolve(false))
  })
}
