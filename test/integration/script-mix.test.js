// End to end: `pgload run -f a.sql@3 -f b.sql@1` with \gset, \if and a pipeline against the
// test server; per-script counts in the results match what the scripts wrote.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { getTestServer } from '../helpers/server.js'
import { runCli } from '../helpers/cli.js'
import { openConnection } from '../../lib/db/connection.js'

const A = fileURLToPath(new URL('../fixtures/scripts/mix-a.sql', import.meta.url))
const B = fileURLToPath(new URL('../fixtures/scripts/mix-b.sql', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'pgload-mix-'))
let server
let admin

before(async () => {
  server = await getTestServer()
  admin = await openConnection(server.target, { protocol: 'simple' })
  await admin.simpleQuery(`drop table if exists mix_accounts, mix_counts, mix_log;
    create table mix_accounts (aid int primary key, bid int, abalance int);
    insert into mix_accounts select a, 1 + (a % 2), 0 from generate_series(1, 1000) a;
    create table mix_counts (script text primary key, n int, total bigint);
    insert into mix_counts values ('a', 0, 0), ('b', 0, 0);
    create table mix_log (script text, aid int, delta int)`)
})

after(async () => {
  await admin?.close()
  rmSync(dir, { recursive: true, force: true })
})

test('a weighted mix of two scripts: per-script counts, \\gset, \\if and pipeline results', async () => {
  const out = join(dir, 'mix.json')
  const r = await runCli(['run', '-f', `${A}@3`, '-f', `${B}@1`, '-c', '4', '-t', '50', '-M', 'prepared', '-n', '-r',
    '--random-seed', '11', '--url', server.url, '--out', out, '--no-server-stats'])
  assert.equal(r.code, 0, r.stderr)
  const results = JSON.parse(readFileSync(out, 'utf8'))
  const a = results.transactions[A]
  const b = results.transactions[B]
  assert.equal(a.count + b.count, 200)
  assert.equal(a.failed + b.failed, 0)
  assert.ok(a.count > 120 && a.count < 180, `a ran ${a.count} times of 200 at weight 3:1`)

  const rows = (await admin.simpleQuery(`select script, n, total,
      (select count(*) from mix_log l where l.script = c.script),
      (select coalesce(sum(delta), 0) from mix_log l where l.script = c.script),
      (select count(*) from mix_log l join mix_accounts m using (aid) where l.script = 'a' and c.script = 'a' and m.bid = 2 and l.delta <> 0)
    from mix_counts c order by script`)).rows
  const [ra, rb] = rows
  // n counted by the pipeline's UPDATE, one log row per run, the same sum of deltas on both sides
  assert.deepEqual(ra.slice(1, 5).map(Number), [a.count, Number(ra[2]), a.count, Number(ra[2])])
  assert.equal(Number(ra[5]), 0, 'accounts of branch 2 took the \\else branch (delta 0)')
  assert.ok(Number(ra[2]) > 0)
  assert.deepEqual(rb.slice(1, 4).map(Number), [b.count, 0, b.count])
  // \gset of RETURNING: every value 1..n was logged once
  const bn = (await admin.simpleQuery("select count(distinct aid), min(aid), max(aid) from mix_log where script = 'b'")).rows[0].map(Number)
  assert.deepEqual(bn, [b.count, 1, b.count])

  // -r: per-command statistics of both scripts
  const cmds = results.script[A].commands
  assert.equal(cmds[0].text, '\\set aid random(1, 100000 * :scale)'.replace('100000 * :scale', '1000'))
  assert.equal(cmds[0].count, a.count)
  assert.equal(cmds[1].count, a.count)
  assert.ok(cmds.every((c) => c.failures === 0 && c.retries === 0))
  assert.equal(results.script[B].commands.length, 4)
})
