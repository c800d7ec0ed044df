// A primary and a streaming standby of PostgreSQL 15 (pg_basebackup -R), loopback only, trust
// authentication, in a temp dir removed when stopped or when the process exits.

import { mkdtempSync, rmSync, chmodSync, appendFileSync, existsSync } from 'node:fs'
import { execFile, execFileSync } from 'node:child_process'
import { promisify } from 'node:util'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serverUser, giveToServerUser, freePort } from '../../lib/server/embedded/cluster.js'

const BIN = '/usr/lib/postgresql/15/bin'
const run = promisify(execFile)

/** @returns {boolean} whether PostgreSQL 15's binaries are installed */
export function haveStandbyBinaries () {
  return existsSync(join(BIN, 'pg_basebackup'))
}

/**
 * @returns {Promise<{ primaryPort: number, standbyPort: number, stopStandby: () => Promise<void>,
 *   startStandby: () => Promise<void>, stopPrimary: () => Promise<void>, promoteStandby: () => Promise<void>, failoverCommand: string, stop: () => void }>}
 *   stopPrimary: an immediate stop, as a crash; promoteStandby: pg_ctl promote, waited for;
 *   failoverCommand: a shell command that does both, a second apart (as the servers' OS user)
 */
export async function startStandbyPair () {
  const ids = await serverUser()
  const base = mkdtempSync(join(tmpdir(), 'pgload-pair-'))
  chmodSync(base, 0o700)
  await giveToServerUser(base, ids)
  const as = { ...ids, timeout: 60000 }
  const primary = join(base, 'primary')
  const standby = join(base, 'standby')
  const pgctl = (dir, ...args) => run(join(BIN, 'pg_ctl'), ['-D', dir, '-w', '-t', '60', ...args], as)
  const started = new Set()
  const stop = () => {
    for (const dir of started) {
      try { execFileSync(join(BIN, 'pg_ctl'), ['-D', dir, '-m', 'immediate', '-w', 'stop'], { ...ids, stdio: 'ignore' }) } catch {}
    }
    started.clear()
    rmSync(base, { recursive: true, force: true })
  }
  process.once('exit', stop)
  await run(join(BIN, 'initdb'), ['-D', primary, '-U', 'postgres', '--auth=trust', '--no-sync', '--no-instructions'], as)
  appendFileSync(primary + '/postgresql.conf', "\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = ''\nfsync = off\n")
  const primaryPort = await freePort()
  await pgctl(primary, '-l', join(base, 'primary.log'), '-o', `-p ${primaryPort}`, 'start')
  started.add(primary)
  await run(join(BIN, 'pg_basebackup'), ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', standby, '-R', '-X', 'stream'], as)
  const standbyPort = await freePort()
  const startStandby = async () => {
    await pgctl(standby, '-l', join(base, 'standby.log'), '-o', `-p ${standbyPort}`, 'start')
    started.add(standby)
  }
  await startStandby()
  return {
    primaryPort,
    standbyPort,
    startStandby,
    async stopStandby () {
      await pgctl(standby, '-m', 'fast', 'stop')
      started.delete(standby)
    },
    async stopPrimary () {
      await pgctl(primary, '-m', 'immediate', 'stop')
      started.delete(primary)
    },
    async promoteStandby () {
      await pgctl(standby, 'promote')
    },
    failoverCommand: failoverCommand({ primary, standby, asServer: ids.uid === undefined ? '' : 'runuser -u postgres -- ' }),
    stop
  }
}

/** The shell command of a failover: the primary stopped as in a crash, the standby promoted a second later. */
function failoverCommand ({ primary, standby, asServer }) {
  const pgctl = `${asServer}${join(BIN, 'pg_ctl')}`
  return `${pgctl} -D '${primary}' -m immediate -w stop && sleep 1 && ${pgctl} -D '${standby}' -w promote`
}
