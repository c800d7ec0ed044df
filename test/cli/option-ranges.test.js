// Every number is range-checked before anything is connected or dropped: an absurd value is one
// line and exit 1, and no server is reached (the one given refuses connections: reaching for it
// would print a connection error instead). `init --scale 99999999999 --force` dropped the tables
// and started loading 100 billion branches.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { scratchDatabase } from '../helpers/scratch-database.js'
import { runCli, assertOneLineError, collectOutput, BIN } from '../helpers/cli.js'
import { openConnection } from '../../lib/db/connection.js'
import { initCommand } from '../../lib/cli/init.js'
import { maxJobs } from '../../lib/plan/host-limits.js'

const UNREACHABLE = 'postgres://nobody@127.0.0.1:1/none'

const RUN = [
  [['-s', '99999999999'], /--scale must be an integer in 1\.\.2147483647, got "99999999999"$/],
  [['-T', '99999999999h'], /--duration must be a duration of at most 31536000 s \(365 days\), got "99999999999h"$/],
  [['-c', '100000000'], /--clients must be an integer in 1\.\.1000000, got "100000000"$/],
  [['-c', '100000', '-j', '100000'], /--jobs must be an integer in 1\.\.256, got "100000"$/],
  [['-t', '99999999999'], /--transactions must be an integer in 1\.\.2147483647, got "99999999999"$/],
  [['--rate', '1e99'], /--rate must be a number > 0 and <= 10000000, got "1e99"$/],
  [['--rate', 'Infinity'], /--rate must be a number > 0 and <= 10000000, got "Infinity"$/],
  [['--connections', '99999999'], /--connections must be an integer in 1\.\.1000000, got "99999999"$/],
  [['--rate', '10', '-L', '1e12'], /--latency-limit must be a number > 0 and <= 3600000, got "1e12"$/],
  [['--warmup', '9000h'], /--warmup must be a duration of at most 31536000 s \(365 days\), got "9000h"$/],
  [['--grace', '9000h'], /--grace must be a duration of at most 2147483 s \(24\.8 days\), got "9000h"$/],
  [['--transaction-timeout', '9000h'], /--transaction-timeout must be a duration of at most 2147483 s \(24\.8 days\), got "9000h"$/],
  [['-P', '99999999999'], /--progress must be an integer in 1\.\.31536000, got "99999999999"$/],
  [['--interval', '0.0001'], /--interval must be a duration of at least 0\.01 s, got "0\.0001"$/],
  [['--interval', '5ms'], /--interval must be a duration of at least 0\.01 s, got "5ms"$/],
  [['--interval', '2h'], /--interval must be a duration of at most 3600 s, got "2h"$/],
  [['--max-tries', '99999999999', '-T', '1s'], /--max-tries must be an integer in 0\.\.2147483647, got "99999999999"$/],
  [['--stages', '10s:99999999999'], /--stages: stage 1 \(10s:99999999999\): the target must be a rate \(transactions per second\) in 0\.\.10000000$/],
  [['--think-time', 'fixed:9999999999'], /--think-time: every time must be at most 2147483647 ms \(24\.8 days, the longest timer\), got "fixed:9999999999"$/],
  [['tpcc', '--warehouses', 'abc'], /--warehouses must be an integer in 1\.\.100000, got "abc"$/],
  [['tpcc', '--warehouses', '99999999'], /--warehouses must be an integer in 1\.\.100000, got "99999999"$/],
  [['tpcc', '--wait-scale', 'abc'], /--wait-scale must be a number > 0 and <= 1000, got "abc"$/],
  [['--wait-sampling', '500'], /--wait-sampling must be a number in 1\.\.200, got "500"$/],
  [['--wait-sampling', 'often'], /--wait-sampling must be a number in 1\.\.200, got "often"$/],
  [['--wait-sampling', '0'], /--wait-sampling must be a number of samples per second or off, got "0"$/]
]

for (const [args, pattern] of RUN) {
  test(`pgload run ${args.join(' ')}: one line, no connection`, async () => {
    assertOneLineError(await runCli(['run', ...args, '--url', UNREACHABLE]), pattern)
  })
}

const OTHERS = [
  [['init', 'tpcc', '--warehouses', 'abc'], /--warehouses must be an integer in 1\.\.100000, got "abc"$/],
  [['init', 'tpcc', '-j', '1000'], /--jobs must be an integer in 1\.\.64, got "1000"$/],
  [['sweep', '-c', '1,2', '--repeat', '100000'], /--repeat must be an integer in 1\.\.1000, got "100000"$/],
  [['sweep', '-s', '1,99999999999'], /--scale must be an integer in 1\.\.2147483647, got 99999999999$/],
  [['capacity', '--until', 'p(99) < 20ms', '--max-rate', '1e30'], /--max-rate must be a number > 0 and <= 10000000, got "1e30"$/],
  [['capacity', '--until', 'p(99) < 20ms', '--step', '9000h'], /--step must be a duration of at most 31536000 s/],
  [['ab', '--a', 'work_mem=1MB', '--rounds', '1e9', '--', '-T', '1s'], /--rounds must be an integer in 1\.\.1000, got "1e9"$/],
  [['ab', '--a', 'work_mem=1MB', '--seed', 'abc', '--', '-T', '1s'], /--seed must be an integer in 0\.\.9007199254740991, got "abc"$/],
  [['compare', 'a.json', 'b.json', '--alpha', 'abc'], /--alpha must be a number > 0 and <= 0\.5, got "abc"$/],
  [['compare', 'a.json', 'b.json', '--iterations', '1e12'], /--iterations must be an integer in 1\.\.1000000, got "1e12"$/],
  [['compare', 'a.json', 'b.json', '--noise', '5000'], /--noise must be a percentage in 0\.\.100, got "5000"$/],
  [['history', '--limit', '0', '--results-url', UNREACHABLE], /--limit must be an integer in 1\.\.1000000, got "0"$/]
]

for (const [args, pattern] of OTHERS) {
  test(`pgload ${args.join(' ')}: one line`, async () => {
    const url = ['compare', 'history'].includes(args[0]) ? [] : ['--url', UNREACHABLE]
    assertOneLineError(await runCli([...args, ...url]), pattern)
  })
}

test('-j: at most 4 per core: at the bound the run goes on (to the server), above it one line', async () => {
  const most = maxJobs(availableParallelism())
  const at = await runCli(['run', '-c', String(most), '-j', String(most), '-T', '1s', '--url', UNREACHABLE])
  assert.equal(at.code, 1)
  assert.doesNotMatch(at.stderr, /--jobs/)
  assert.match(at.stderr, /127\.0\.0\.1:1/, 'it went on to reach the server')
  const above = await runCli(['run', '-c', String(most + 1), '-j', String(most + 1), '-T', '1s', '--url', UNREACHABLE])
  assertOneLineError(above, new RegExp(`--jobs must be an integer in 1\\.\\.${most} on this machine \\(4 per core, ${availableParallelism()} cores, at most 256\\), got ${most + 1}$`))
})

test('clients and connections within the open-file limit, as pgbench checks them', { skip: process.platform !== 'linux' }, async () => {
  const run = (args) => {
    const child = spawn('sh', ['-c', 'ulimit -n 256 && exec "$0" "$@"', process.execPath, BIN, 'run', ...args, '--url', UNREACHABLE], { stdio: ['ignore', 'pipe', 'pipe'] })
    return collectOutput(child, 60_000)
  }
  assertOneLineError(await run(['-c', '1000']), /--clients 1000 needs at least 1068 open files, but the limit is 256$/)
  assertOneLineError(await run(['-c', '1000', '--connections', '500']), /--connections 500 needs at least 568 open files, but the limit is 256$/)
  // think-time terminals share a few connections: a thousand fit
  const paced = await run(['-c', '1000', '--think-time', 'fixed:100', '-T', '1s'])
  assert.doesNotMatch(paced.stderr, /open files/)
})

// init against a real database: the range error comes before --force drops anything
const scratch = scratchDatabase(`pgload_ranges_${process.pid}`)
let conn

before(async () => {
  await scratch.create()
  await initCommand({ workload: 'tpcb', url: scratch.url, env: {}, options: { scale: 1 }, stderr: { write () {} } })
  conn = await openConnection(scratch.target)
})

after(async () => {
  await conn?.close()
  await scratch.drop()
})

test('init tpcb --scale 99999999999 --force: one line, and the tables are as they were', async () => {
  const r = await runCli(['init', 'tpcb', '--scale', '99999999999', '--force', '--url', scratch.url])
  assertOneLineError(r, /--scale must be an integer in 1\.\.2147483647, got "99999999999"$/)
  assert.deepEqual((await conn.simpleQuery('select count(*)::int from pgbench_branches')).rows, [['1']])
  assert.deepEqual((await conn.simpleQuery('select count(*)::int from pgbench_accounts')).rows, [['100000']])
})
