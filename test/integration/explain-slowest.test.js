// --explain-slowest against the embedded server: the slowest transactions of each type are
// replayed under EXPLAIN after the run and their plans kept, the tables are as they were after the
// replay (it is rolled back), and a statement that needs an earlier one's result says why it is
// not replayed.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { openConnection } from '../../lib/db/connection.js'
import { runCli } from '../helpers/cli.js'

let server, dir, conn

before(async () => {
  server = await getTestServer()
  dir = mkdtempSync(join(tmpdir(), 'pgload-explain-'))
  const init = await runCli(['init', 'tpcb', '--scale', '1', '--force', '--url', server.url])
  assert.equal(init.code, 0, init.stderr)
  conn = await openConnection(server.target, { protocol: 'simple' })
})

after(async () => {
  await conn?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

async function run (name, scripts, args, { waits = false } = {}) {
  const files = Object.entries(scripts).map(([file, text]) => {
    writeFileSync(join(dir, file), text)
    return ['-f', join(dir, file)]
  }).flat()
  const out = join(dir, `${name}.json`)
  const r = await runCli(['run', ...files, '-n', ...args, '--url', server.url, '--out', out, '--no-server-stats', ...(waits ? [] : ['--wait-sampling', 'off'])])
  assert.equal(r.code, 0, r.stderr)
  return { stdout: r.stdout, results: JSON.parse(readFileSync(out, 'utf8')) }
}

/** Row counts of the pgbench tables and a checksum of pgbench_accounts. */
async function tableState () {
  const r = await conn.simpleQuery(`select (select count(*) from pgbench_accounts), (select count(*) from pgbench_history),
    (select md5(string_agg(aid || ':' || abalance, ',' order by aid)) from pgbench_accounts)`)
  return r.rows[0]
}

// The run commits nothing (its transaction is rolled back), its replay would write: a replay that
// committed would change the tables.
const WRITES = `\\set aid random(1, 100000)
\\set delta random(1, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (1, 1, :aid, :delta, CURRENT_TIMESTAMP);
ROLLBACK;
`
const READS = '\\set aid random(1, 100000)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n'

test('--explain-slowest 2: each type\'s two slowest replayed with plans, the tables unchanged', async () => {
  const before = await tableState()
  const { stdout, results } = await run('plans', { 'writes.sql': WRITES, 'reads.sql': READS }, ['-c', '2', '-t', '20', '--explain-slowest', '2'])
  assert.deepEqual(await tableState(), before)
  const s = results.slowest
  assert.equal(s.available, true, s.reason)
  assert.equal(s.perType, 2)
  assert.deepEqual(Object.keys(s.types).sort(), Object.keys(results.transactions).sort())
  for (const list of Object.values(s.types)) {
    assert.equal(list.length, 2)
    assert.ok(list[0].latencyMs >= list[1].latencyMs, 'slowest first')
  }
  const writes = Object.entries(s.types).find(([name]) => name.includes('writes'))[1][0]
  assert.deepEqual(writes.statements.map((st) => st.reason === undefined), [false, true, true, false])
  assert.match(writes.statements[0].reason, /BEGIN is not a statement EXPLAIN takes/)
  const update = writes.statements[1]
  assert.equal(update.plan.Plan['Node Type'], 'ModifyTable')
  assert.equal(update.parameters.length, 2)
  assert.ok(update.totalMs >= 0)
  assert.equal(update.topNode, 'Update on pgbench_accounts')
  const reads = Object.entries(s.types).find(([name]) => name.includes('reads'))[1][0]
  assert.match(reads.statements[0].topNode, /Index (Only )?Scan using pgbench_accounts_pkey on pgbench_accounts/)
  assert.match(stdout, /slowest: 2 per type replayed under EXPLAIN/)
  assert.match(stdout, /Update on pgbench_accounts/)
  // the report shows the plan as EXPLAIN's text tree
  const html = join(dir, 'plans.html')
  const r = await runCli(['report', join(dir, 'plans.json'), '-o', html])
  assert.equal(r.code, 0, r.stderr)
  const page = readFileSync(html, 'utf8')
  assert.match(page, /Slowest transactions, replayed/)
  assert.match(page, /Update on pgbench_accounts {2}\(cost=[\d.]+\.\.[\d.]+ rows=\d+ width=\d+\) \(actual time=/)
  assert.match(page, /BEGIN is not a statement EXPLAIN takes/)
})

test('a statement that uses an earlier statement\'s \\gset result says why it is not replayed (-j 2)', async () => {
  const script = '\\set aid random(1, 100000)\nSELECT bid AS b FROM pgbench_accounts WHERE aid = :aid \\gset\nSELECT bbalance FROM pgbench_branches WHERE bid = :b;\n'
  const { results } = await run('gset', { 'gset.sql': script }, ['-c', '2', '-j', '2', '-t', '5', '--explain-slowest', '1'])
  const list = Object.values(results.slowest.types)[0]
  assert.equal(list.length, 1, 'the slowest of both threads, merged')
  const [first, second] = list[0].statements
  assert.ok(first.plan, first.reason)
  assert.equal(second.plan, undefined)
  assert.match(second.reason, /depends on an earlier statement's result \(\\gset or \\aset\)/)
})

test('compare names a plan that changed between A and B: B read without index scans', async () => {
  await run('plan-a', { 'reads.sql': READS }, ['-c', '1', '-T', '2s', '--explain-slowest', '1'])
  // B: the same script on connections whose planner may not use index or bitmap scans
  const url = new URL(server.url)
  url.searchParams.set('options', '-c enable_indexscan=off -c enable_bitmapscan=off -c enable_indexonlyscan=off')
  const out = join(dir, 'plan-b.json')
  const b = await runCli(['run', '-f', join(dir, 'reads.sql'), '-n', '-c', '1', '-T', '2s', '--explain-slowest', '1', '--url', url.href, '--out', out, '--no-server-stats', '--wait-sampling', 'off'])
  assert.equal(b.code, 0, b.stderr)
  const args = ['compare', join(dir, 'plan-a.json'), out, '--force']
  const text = await runCli(args)
  assert.match(text.stdout, /^plan changed for \S*reads\.sql statement 2 \(line 2\): Index (Only )?Scan using pgbench_accounts_pkey on pgbench_accounts -> (Parallel )?Seq Scan on pgbench_accounts$/m, text.stdout + text.stderr)
  const json = JSON.parse((await runCli([...args, '--json'])).stdout)
  assert.equal(json.plans.length, 1)
  assert.match(json.plans[0].type, /reads\.sql$/)
  assert.match(json.plans[0].sql, /^SELECT abalance FROM pgbench_accounts WHERE aid = \$1;$/)
})

test('a replayed transaction carries the waits the sampler saw in it', async () => {
  const { results } = await run('sleeps', { 'sleeps.sql': 'SELECT pg_sleep(0.1);\n' }, ['-c', '1', '-t', '4', '--explain-slowest', '1'], { waits: true })
  const [slowest] = Object.values(results.slowest.types)[0]
  assert.ok(slowest.waits, JSON.stringify(slowest))
  assert.equal(slowest.waits.events[0].event, 'Timeout:PgSleep')
  assert.ok(slowest.waits.samples >= 2, `${slowest.waits.samples} samples`)
  assert.equal(slowest.statements[0].topNode, 'Result')
})

test('TPC-C: each type\'s slowest transaction is replayed by its own function with its inputs, and nothing of it is committed', { timeout: 240_000 }, async () => {
  const init = await runCli(['init', 'tpcc', '--warehouses', '1', '--url', server.url], { timeoutMs: 180_000 })
  assert.equal(init.code, 0, init.stderr)
  const orders = async () => Number((await conn.simpleQuery('select count(*) from orders')).rows[0][0])
  const before = await orders()
  const out = join(dir, 'tpcc.json')
  const r = await runCli(['run', 'tpcc', '--warehouses', '1', '--no-wait', '-T', '3s', '--warmup', '0', '--explain-slowest', '1',
    '--url', server.url, '--out', out, '--no-server-stats', '--wait-sampling', 'off'], { timeoutMs: 120_000 })
  assert.equal(r.code, 0, r.stderr)
  const results = JSON.parse(readFileSync(out, 'utf8'))
  const { slowest } = results
  assert.equal(slowest.available, true, JSON.stringify(slowest))
  assert.deepEqual(Object.keys(slowest.types).sort(), ['delivery', 'new-order', 'order-status', 'payment', 'stock-level'])
  for (const [type, [kept]] of Object.entries(slowest.types)) {
    assert.ok(kept.statements.some((s) => s.plan), `${type}: a statement with a plan: ${JSON.stringify(kept.statements.map((s) => s.reason ?? s.topNode))}`)
  }
  // New-Order's district counter is read and raised by the replay as by the run: the same statement, explained
  assert.ok(slowest.types['new-order'][0].statements.some((s) => /UPDATE district SET d_next_o_id/.test(s.sql) && s.plan), 'New-Order\'s district update explained')
  // the replay's New-Order inserted no order that stayed: the orders are the run's committed New-Orders
  const newOrder = results.transactions['new-order']
  assert.equal(await orders() - before, newOrder.count - newOrder.rollbacks, 'orders added: the run\'s committed New-Orders alone')
  assert.match(r.stdout, /^slowest: 1 per type replayed under EXPLAIN/m)
  assert.match(r.stdout, /^ {2}new-order: [\d.]+ ms; statement \d+ [\d.]+ ms: /m)
})
