// Shards of one run as a Kubernetes Indexed Job starts them: N processes of one command line,
// each with its JOB_COMPLETION_INDEX, meeting at the start barrier in the database; their
// results merged by `pgload merge` and checked by `pgload check`; a missing shard fails the run.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { runCli } from '../helpers/cli.js'
import { openConnection } from '../../lib/db/connection.js'
import { createHistogram, recordUs, latencySummaryMs } from '../../lib/metrics/histogram.js'

const SHARDS = 3
const CLIENTS = 6
let server
let conn
const dir = mkdtempSync(join(tmpdir(), 'pgload-shards-'))

before(async () => {
  server = await getTestServer()
  const init = await runCli(['init', 'tpcb', '--scale', '1', '--force', '--url', server.url])
  assert.equal(init.code, 0, init.stderr)
  conn = await openConnection(server.target, { protocol: 'simple' })
})

after(async () => {
  await conn?.close()
  rmSync(dir, { recursive: true, force: true })
})

/** The shards of one command line, started at once as an Indexed Job's pods are. */
function startShards (indexes, args, { timeoutMs = 90_000 } = {}) {
  return Promise.all(indexes.map((k) => runCli(args(k), { env: { JOB_COMPLETION_INDEX: String(k) }, timeoutMs })))
}

/** Latencies of committed transactions in a pgbench-format --log file, by client number. */
function loggedLatencies (file) {
  const out = []
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const f = line.split(' ')
    if (f.length >= 6 && /^\d+$/.test(f[2])) out.push({ client: Number(f[0]), us: Number(f[2]) })
  }
  return out
}

test('shards started with JOB_COMPLETION_INDEX meet, run their parts, and merge to the sum of their results', async () => {
  const historyBefore = Number((await conn.simpleQuery('select count(*) from pgbench_history')).rows[0][0])
  const runId = `test-${process.pid}`
  const shards = await startShards([0, 1, 2], (k) => ['run', 'tpcb', '--url', server.url, '-c', String(CLIENTS), '-T', '2s', '-n',
    '--shards', String(SHARDS), '--run-id', runId, '-o', join(dir, `shard-${k}.json`), '--log', '--log-prefix', join(dir, `log-${k}`)])
  for (const r of shards) {
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stderr, new RegExp(`all ${SHARDS} shards arrived after [\\d.]+ s; started at \\S+ server time, [\\d.]+ ms late`))
  }
  const docs = [0, 1, 2].map((k) => JSON.parse(readFileSync(join(dir, `shard-${k}.json`), 'utf8')))
  docs.forEach((d, k) => {
    assert.deepEqual([d.run.shard.runId, d.run.shard.index, d.run.shard.count], [runId, k, SHARDS])
    assert.equal(d.run.terminals, CLIENTS / SHARDS)
    assert.equal(typeof d.run.shard.clockOffsetMs, 'number')
    assert.equal(d.run.shard.scheduledStart, docs[0].run.shard.scheduledStart, 'one start for all shards')
    // only the coordinator samples the server
    assert.equal(d.run.shard.serverStats, k === 0)
    assert.equal(Boolean(d.serverStats?.deltas), k === 0)
  })
  assert.equal(new Set(docs.map((d) => d.run.seed)).size, 1, 'all shards use one seed')

  // each shard ran its own terminals, numbered as in the whole run
  const logs = [0, 1, 2].map((k) => {
    const files = readdirSync(dir).filter((f) => f.startsWith(`log-${k}.`))
    assert.equal(files.length, 1, `one --log file of shard ${k}`)
    return loggedLatencies(join(dir, files[0]))
  })
  logs.forEach((entries, k) => {
    assert.deepEqual([...new Set(entries.map((e) => e.client))].sort(), [2 * k, 2 * k + 1])
    assert.equal(entries.length, docs[k].summary.transactions)
  })

  const merge = await runCli(['merge', ...[2, 0, 1].map((k) => join(dir, `shard-${k}.json`)), '-o', join(dir, 'merged.json')])
  assert.equal(merge.code, 0, merge.stderr)
  const skew = /start skew ([\d.]+) ms/.exec(merge.stdout)
  assert.ok(skew, merge.stdout)
  const merged = JSON.parse(readFileSync(join(dir, 'merged.json'), 'utf8'))
  const sum = (f) => docs.reduce((a, d) => a + f(d), 0)
  assert.equal(merged.summary.transactions, sum((d) => d.summary.transactions))
  assert.equal(merged.summary.failed, sum((d) => d.summary.failed))
  assert.equal(merged.transactions['tpcb-like'].count, sum((d) => d.transactions['tpcb-like'].count))
  assert.equal(merged.run.terminals, CLIENTS)
  assert.equal(merged.run.shards.count, SHARDS)
  assert.equal(merged.run.shards.startSkewMs, Number(skew[1]))
  assert.equal(merged.serverStats.deltas.xactCommit, docs[0].serverStats.deltas.xactCommit)
  assert.equal(merged.intervals.reduce((a, iv) => a + iv.count['tpcb-like'], 0), merged.summary.transactions)

  // the merged percentiles are those of one histogram of every shard's logged latencies
  const all = createHistogram()
  for (const entries of logs) for (const e of entries) recordUs(all, e.us)
  const fromLogs = latencySummaryMs(all)
  for (const p of ['p50', 'p90', 'p99', 'p999', 'max']) assert.equal(merged.summary.latencyMs[p], fromLogs[p], p)

  // every committed transaction wrote its pgbench_history row
  const grown = Number((await conn.simpleQuery('select count(*) from pgbench_history')).rows[0][0]) - historyBefore
  assert.ok(grown >= merged.summary.transactions && grown <= merged.summary.transactions + merged.summary.outcomeUnknown + merged.summary.failed,
    `${grown} rows for ${merged.summary.transactions} transactions`)

  // check gates the merged run like any results file
  const pass = await runCli(['check', join(dir, 'merged.json'), '--threshold', 'p(99) < 3600s', '--threshold', `tps > ${Math.floor(merged.summary.tps / 2)}`])
  assert.equal(pass.code, 0, pass.stdout + pass.stderr)
  const fail = await runCli(['check', join(dir, 'merged.json'), '--threshold', `tps > ${Math.ceil(merged.summary.tps * 2)}`])
  assert.equal(fail.code, 99, fail.stdout + fail.stderr)
})

test('a shard that does not arrive fails every shard with one line naming it, within the timeout', async () => {
  const runId = `missing-${process.pid}`
  const shards = await startShards([0, 1], (k) => ['run', 'tpcb', '--url', server.url, '-c', '3', '-T', '1s', '-n',
    '--shards', '3', '--run-id', runId, '--shard-timeout', '2s', '-o', join(dir, `missing-${k}.json`)], { timeoutMs: 30_000 })
  for (const r of shards) {
    assert.equal(r.signal, null, 'ended by itself')
    assert.equal(r.code, 1, r.stderr)
    const lines = r.stderr.trim().split('\n')
    assert.equal(lines.at(-1), `pgload: shard barrier of run id ${runId}: shard 2/3 did not arrive within 2 s (--shard-timeout)`)
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace')
  }
  assert.equal(existsSync(join(dir, 'missing-0.json')), false, 'nothing measured, nothing written')
})

test('merge refuses files that are not every shard of one run', async () => {
  const r = await runCli(['merge', join(dir, 'shard-0.json'), join(dir, 'shard-2.json'), '-o', join(dir, 'partial.json')])
  assert.equal(r.code, 1)
  assert.equal(r.stderr, `pgload: cannot merge: run id test-${process.pid} has 3 shards: the results of shard 1/3 are missing\n`)
  const twice = await runCli(['merge', join(dir, 'shard-0.json'), join(dir, 'shard-1.json'), join(dir, 'shard-1.json'), join(dir, 'shard-2.json'), '-o', join(dir, 'twice.json')])
  assert.equal(twice.code, 1)
  assert.match(twice.stderr, /^pgload: cannot merge: .*shard-1\.json and .*shard-1\.json are both shard 1\/3 of run id test-\d+\n$/)
  const over = await runCli(['merge', join(dir, 'shard-0.json'), join(dir, 'shard-1.json'), '-o', join(dir, 'shard-1.json')])
  assert.equal(over.code, 1)
  assert.match(over.stderr, /is one of the files to merge/)
})

test('bad shard values: one line, exit 1, before any server is reached', async () => {
  const r = await runCli(['run', 'tpcb', '-c', '4', '--shards', '4'], { env: { JOB_COMPLETION_INDEX: '4' } })
  assert.equal(r.code, 1)
  assert.equal(r.stderr, 'pgload: JOB_COMPLETION_INDEX 4 is not a shard of --shards 4: shards are numbered 0 to 3\n')
  const t = await runCli(['run', 'tpcb', '--shard', '1/2', '--shard-timeout', 'soon'])
  assert.equal(t.code, 1)
  assert.match(t.stderr, /^pgload: --shard-timeout [^\n]*\n$/)
})

test('a shard stopped before the start (SIGTERM) writes its empty results and ends the others\' wait', async () => {
  const runId = `stopped-${process.pid}`
  const args = (k) => ['run', 'tpcb', '--url', server.url, '-c', '3', '-T', '1s', '-n', '--shard', `${k}/3`, '--run-id', runId, '-o', join(dir, `stopped-${k}.json`)]
  const stopWhenWaiting = (child) => child.stderr.on('data', (d) => { if (/waiting up to/.test(String(d))) child.kill('SIGTERM') })
  // shard 2/3 never comes: no start can be sent before shard 1 is stopped
  const [coordinator, stopped] = await Promise.all([
    runCli(args(0), { timeoutMs: 30_000 }),
    runCli(args(1), { timeoutMs: 30_000, onSpawn: stopWhenWaiting })
  ])
  assert.equal(stopped.code, 143, stopped.stderr)
  assert.match(stopped.stderr, /pgload: stopping before the start; writing the \(empty\) results/)
  assert.doesNotMatch(stopped.stderr, /finishing transactions in flight/)
  const doc = JSON.parse(readFileSync(join(dir, 'stopped-1.json'), 'utf8'))
  assert.equal(doc.summary.transactions, 0)
  assert.equal(doc.run.interrupted, true)
  assert.equal(doc.run.shard.scheduledStart, null)
  assert.equal(typeof doc.run.shard.clockOffsetMs, 'number')
  assert.equal(coordinator.code, 1, coordinator.stderr)
  assert.equal(coordinator.stderr.trim().split('\n').at(-1), `pgload: shard 1/3 of run id ${runId} was interrupted before the start`)
})
