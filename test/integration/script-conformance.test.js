// pgbench's own test cases that need a server, run through `pgload run` with pgbench's flags
// against the test server. Cases that cannot apply are skipped with the reason; cases that wait
// on another part of pgload are marked todo with what is missing.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { BIN, runCli } from '../helpers/cli.js'
import { openConnection } from '../../lib/db/connection.js'
import { corpusPresent, loadCases, pgloadArgv, toRegExp, withoutPgloadChatter } from '../conformance/cases.js'

/** Cases that do not apply to pgload, and why. */
const NOT_APPLICABLE = {
  '042': 'pgload parses a statement together with its first execution, so a syntax error is reported once, without pgbench\'s second "prepared statement does not exist"',
  '097': 'uses --debug, pgbench\'s trace of every query sent, which pgload does not have',
  121: '--continue-on-error is a PostgreSQL 19 feature (not in pgbench 17/18)'
}

/** Cases waiting on other parts of pgload (CLI summary, connection, engine). */
const WAITING = {
  '004': 'summary: per-script "SQL script N: <file>" and " - weight: W" sections',
  '014': 'CLI: "setting random seed to N" on stderr when --random-seed is given',
  '016': 'CLI: "setting random seed to N" on stderr when --random-seed is given',
  '031': 'connection: server NOTICE/WARNING messages are not printed',
  '033': 'connection: server NOTICE/WARNING messages are not printed',
  '035': 'connection: a pipeline is not one implicit transaction (REINDEX CONCURRENTLY after a SELECT must fail)',
  '037': 'connection: a pipeline is not one implicit transaction (VACUUM after a SELECT must fail)',
  '040': 'connection: pipeline semantics of the PG18 server (LOCK after SELECT in one implicit transaction)',
  '096': 'engine: a transaction that ends inside a transaction block is counted before the client aborts (err.transactionCompleted)',
  '098': 'engine: --verbose-errors line "client C got an error in command K (SQL) of script S; <message>" (err.commandIndex/err.scriptIndex)',
  '099': 'CLI: "Run was aborted due to an error in thread N" with --exit-on-abort'
}

const cases = loadCases().filter((c) => !(c.requires.length === 1 && c.requires[0].startsWith('none')))
const skipAll = !corpusPresent ? 'no ../shared/conformance/pgbench corpus here' : !existsSync(BIN) ? 'bin/pgload.js is missing' : false

let server
let admin
const dir = mkdtempSync(join(tmpdir(), 'pgload-conf-'))

before(async () => {
  if (skipAll) return
  server = await getTestServer()
  const init = await runCli(['init', 'tpcb', '--scale', '1', '--force', '--url', server.url])
  assert.equal(init.code, 0, init.stderr)
  admin = await openConnection(server.target, { protocol: 'simple' })
})

after(async () => {
  await admin?.close()
  rmSync(dir, { recursive: true, force: true })
})

for (const c of cases) {
  const skip = skipAll || (NOT_APPLICABLE[c.id] ?? false)
  const todo = WAITING[c.id] ?? false
  test(`case ${c.id} ${c.file}: ${c.upstream?.test_name ?? ''}`, { skip, todo }, async () => {
    for (const sql of c.setup_sql ?? []) {
      if (!sql.startsWith('(')) await admin.simpleQuery(sql)
    }
    const args = ['run', ...pgloadArgv(c.argv), '--url', server.url, '--out', join(dir, `${c.id}.json`), '--no-server-stats']
    for (let run = 0; run < (c.runs ?? 1); run++) {
      const r = await runCli(args, { env: c.env ?? {}, timeoutMs: 60_000 })
      const stderr = withoutPgloadChatter(r.stderr)
      const where = `\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`
      assert.equal(r.code, c.expected_exit_status, `exit code${where}`)
      for (const x of c.expected_stderr_regex ?? []) assert.match(stderr, toRegExp(x), where)
      for (const x of c.expected_stdout_regex ?? []) assert.match(r.stdout, toRegExp(x), where)
    }
    if (c.post_check_sql && c.post_check_expected_for_seed_5432) {
      const rows = (await admin.simpleQuery(c.post_check_sql)).rows.map((row) => row.join('|')).sort()
      assert.deepEqual(rows, [...c.post_check_expected_for_seed_5432].sort())
    }
  })
}
