// The PostgreSQL every integration test uses: PGLOAD_TEST_URL when set, otherwise one embedded
// PostgreSQL 18 per test process in a fresh temp dir, stopped and removed when the process exits.

import { mkdtempSync, rmSync, chmodSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resolveTarget } from '../../lib/server/target/resolve-target.js'
import { pidAlive } from '../../lib/server/embedded/home-lock.js'
import { targetFor } from '../../lib/server/embedded/running-server.js'
import {
  binaries, serverUser, giveToServerUser, freePort, generatePassword,
  initCluster, startCluster, stopClusterSync
} from '../../lib/server/embedded/cluster.js'

const PREFIX = 'pgload-test-'
let pending = null

/**
 * The test server, started once per process.
 * @returns {Promise<{ target: import('../../lib/db/connection.js').Target, url: string, embedded: boolean }>}
 */
export function getTestServer () {
  pending ??= start()
  return pending
}

async function start () {
  const url = process.env.PGLOAD_TEST_URL
  if (url) return { target: resolveTarget({ url }), url, embedded: false }

  const ids = await serverUser()
  const bin = await binaries()
  sweepOrphans(bin, ids)
  const base = mkdtempSync(join(tmpdir(), PREFIX))
  chmodSync(base, 0o700)
  // written whole or not at all: a sibling process sweeping orphans must never read it empty
  writeFileSync(join(base, 'owner.tmp'), String(process.pid))
  renameSync(join(base, 'owner.tmp'), join(base, 'owner'))
  await giveToServerUser(base, ids)
  const dataDir = join(base, 'data')
  let started = false
  const cleanup = () => {
    if (started) { started = false; stopClusterSync({ pgCtl: bin.pg_ctl, dataDir, ids }) }
    rmSync(base, { recursive: true, force: true })
  }
  process.once('exit', cleanup)
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.once(sig, () => { cleanup(); process.kill(process.pid, sig) })
  }

  const password = generatePassword()
  // Durability is irrelevant for throw-away test data; these make loads and commits cheap.
  await initCluster({ dataDir, password, ids, noSync: true, settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: 200 } })
  let port
  for (let attempt = 1; ; attempt++) {
    port = await freePort()
    try {
      await startCluster({ dataDir, port, logFile: join(base, 'server.log'), ids })
      break
    } catch (err) {
      if (!err.portInUse || attempt >= 3) throw err
    }
  }
  started = true
  const testUrl = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`
  return { target: targetFor(port, password), url: testUrl, embedded: true }
}

// Servers of test processes that died without cleaning up (SIGKILL): stop them, remove their dirs.
function sweepOrphans (bin, ids) {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(PREFIX)) continue
    const dir = join(tmpdir(), name)
    let owner
    try {
      owner = Number(readFileSync(join(dir, 'owner'), 'utf8'))
    } catch {
      continue // being created, or not ours
    }
    if (pidAlive(owner)) continue
    stopClusterSync({ pgCtl: bin.pg_ctl, dataDir: join(dir, 'data'), ids })
    rmSync(dir, { recursive: true, force: true })
  }
}
