// A throw-away PostgreSQL cluster serving inside a network namespace (test/helpers/netns.js), on
// the namespace's addresses, for clients in other namespaces. Root only (it runs as `postgres`).

import { mkdtempSync, rmSync, chmodSync, appendFileSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { binaries, serverUser, giveToServerUser, generatePassword, initCluster, stopClusterSync } from '../../lib/server/embedded/cluster.js'
import { runInNamespace, cleanUpAlways } from './netns.js'

const PORT = 5432

/**
 * @param {{ ns: string, addresses: string[], network: string }} opts
 *   addresses: where it listens; network: the clients' CIDR, let in by pg_hba.conf
 * @returns {Promise<{ url: (address: string) => string, stop: () => void }>}
 */
export async function startNamespaceCluster ({ ns, addresses, network }) {
  const ids = await serverUser()
  const bin = await binaries()
  const base = mkdtempSync(join(tmpdir(), 'pgload-netns-cluster-'))
  chmodSync(base, 0o700)
  await giveToServerUser(base, ids)
  const dataDir = join(base, 'data')
  const logFile = join(base, 'server.log')
  let running = false
  const stop = cleanUpAlways(() => {
    if (running) { running = false; stopClusterSync({ pgCtl: bin.pg_ctl, dataDir, ids }) }
    rmSync(base, { recursive: true, force: true })
  })
  const password = generatePassword()
  const settings = { listen_addresses: `'${addresses.join(',')}'`, fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' }
  await initCluster({ dataDir, password, ids, noSync: true, settings })
  appendFileSync(join(dataDir, 'pg_hba.conf'), `host all all ${network} scram-sha-256\n`)
  // pg_ctl started inside the namespace, as the server user: the postmaster stays there
  const asServerUser = ids.uid === undefined ? [] : ['setpriv', `--reuid=${ids.uid}`, `--regid=${ids.gid}`, '--clear-groups']
  const r = await runInNamespace(ns, [...asServerUser, bin.pg_ctl, 'start', '-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', `-p ${PORT}`], { env: { LC_ALL: 'C' } })
  if (r.code !== 0) {
    const log = readFileSync(logFile, 'utf8')
    stop()
    throw new Error(`the cluster did not start in namespace ${ns}: ${r.stderr.trim()}\n${log}`)
  }
  running = true
  return {
    url: (address) => `postgres://postgres:${encodeURIComponent(password)}@${address}:${PORT}/postgres`,
    stop
  }
}
