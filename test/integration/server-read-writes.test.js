// A select-only run right after a bulk load that was not vacuumed sets hint bits: its statements dirty
// blocks, and the summary says so; after VACUUM it does not. A cluster of the embedded server's
// binaries with pg_stat_statements preloaded (the shared test server does not preload it).

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { binaries } from '../../lib/server/embedded/cluster.js'
import { openConnection } from '../../lib/db/connection.js'
import { runCli } from '../helpers/cli.js'
import { startLocalCluster } from './server-stats-scenario.js'

let cluster, admin, url, dir

before(async () => {
  cluster = await startLocalCluster(dirname((await binaries()).initdb))
  admin = await openConnection(cluster.target)
  await admin.simpleQuery('CREATE EXTENSION pg_stat_statements')
  const c = cluster.target.config
  url = `postgres://${c.user}:${encodeURIComponent(c.password)}@${c.host}:${c.port}/${c.database}`
  dir = mkdtempSync(join(tmpdir(), 'pgload-read-writes-'))
})

after(async () => {
  await admin?.close()
  await cluster?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

async function selectOnly (name) {
  const out = join(dir, `${name}.json`)
  const r = await runCli(['run', '-b', 'select-only', '-c', '2', '-T', '2s', '--url', url, '--out', out])
  assert.equal(r.code, 0, r.stderr)
  return { stdout: r.stdout, results: JSON.parse(readFileSync(out, 'utf8')) }
}

test('select-only after a load without VACUUM reports the blocks it dirtied; after VACUUM it does not', async (t) => {
  const init = await runCli(['init', 'tpcb', '--scale', '1', '--force', '--url', url])
  assert.equal(init.code, 0, init.stderr)
  // init loads with COPY FREEZE (as pgbench does): its rows need no hint bits. A reload by
  // INSERT leaves them unset; autovacuum is kept off the table so that only the reads set them,
  // and the CHECKPOINT writes the loaded pages out (hint bits on a page still dirty count nothing).
  await admin.simpleQuery(`ALTER TABLE pgbench_accounts SET (autovacuum_enabled = off);
    CREATE TABLE accounts_copy AS SELECT * FROM pgbench_accounts; TRUNCATE pgbench_accounts;
    INSERT INTO pgbench_accounts SELECT * FROM accounts_copy; DROP TABLE accounts_copy`)
  await admin.simpleQuery('CHECKPOINT')
  const first = await selectOnly('unvacuumed')
  const w = first.results.serverStats.statements.writes
  t.diagnostic(`unvacuumed: ${JSON.stringify(w)}`)
  assert.equal(w.readOnly, true)
  assert.ok(w.blksDirtied > 0)
  assert.ok(w.walFpi > 0, 'data checksums (initdb 18\'s default) log a hint bit\'s first change after a checkpoint')
  assert.match(first.stdout, /^ {8}note: this workload only reads, yet its statements dirtied [\d,]+ blocks.*: VACUUM the tables first$/m)

  await admin.simpleQuery('VACUUM pgbench_accounts, pgbench_branches, pgbench_tellers, pgbench_history')
  await admin.simpleQuery('CHECKPOINT')
  const second = await selectOnly('vacuumed')
  t.diagnostic(`vacuumed: ${JSON.stringify(second.results.serverStats.statements.writes)}`)
  assert.equal(second.results.serverStats.statements.writes.blksDirtied, 0)
  assert.doesNotMatch(second.stdout, /only reads, yet/)
})
