// The server part of --progress: its figures over the run agree with the results file's server
// deltas; --progress-server off leaves it out.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { runCli } from '../helpers/cli.js'

const dir = mkdtempSync(join(tmpdir(), 'pgload-progress-server-'))
let server

before(async () => {
  server = await getTestServer()
  const r = await runCli(['init', 'tpcb', '--scale', '1', '--force', '--url', server.url])
  assert.equal(r.code, 0, r.stderr)
})
after(() => rmSync(dir, { recursive: true, force: true }))

test('server lines: commits/s summed over the periods agree with the run\'s commit delta', { timeout: 90_000 }, async () => {
  const out = join(dir, 'run.json')
  const r = await runCli(['run', 'tpcb', '-c', '2', '-T', '10', '--rate', '200', '--progress', '2', '--url', server.url, '--out', out])
  assert.equal(r.code, 0, r.stderr)
  const lines = r.stderr.split('\n').filter((l) => l.startsWith('pgload: server: ')).map((l) => l.slice('pgload: '.length))
  assert.ok(lines.length >= 2, r.stderr)
  for (const l of lines) assert.match(l, /^server: [\d.]+ commits\/s, [\d.]+ rollbacks\/s, WAL [\d.]+ MB\/s, \d+ blocks read\/s, cache hit [\d.]+ %, backends \d+ active, \d+ waiting/)
  const results = JSON.parse(readFileSync(out, 'utf8'))
  const commits = lines.reduce((s, l) => s + Number(/^server: ([\d.]+) commits/.exec(l)[1]) * 2, 0)
  const delta = results.serverStats.deltas.xactCommit
  // The lines cover whole periods; after the last one, the run's own count of its commits
  // (tpcb-like: one per transaction). Backends publish their counters at most once a second,
  // so the readings lag the server's deltas by up to a second of commits.
  const covered = 2 * lines.length
  const tail = results.intervals.filter((iv) => iv.t > covered + 1e-6).reduce((s, iv) => s + iv.count['tpcb-like'], 0)
  const perS = results.summary.transactions / results.run.durationS
  assert.ok(Math.abs(commits + tail - delta) <= delta * 0.05 + perS, `lines ${commits.toFixed(0)} + tail ${tail} commits, delta ${delta}`)
  // and they are the sampler's own series, period by period
  const series = results.serverStats.series.filter((e) => !e.warmup && e.t <= 2 * lines.length + 1e-6)
  let prev = 0
  const fromSeries = series.reduce((s, e) => { const v = s + e.xactCommitPerS * (e.t - prev); prev = e.t; return v }, 0)
  assert.ok(Math.abs(commits - fromSeries) <= lines.length * 0.1 * 2 + 1, `lines ${commits}, series ${fromSeries}`)
  const wal = lines.reduce((s, l) => s + Number(/WAL ([\d.]+) MB/.exec(l)[1]) * 2e6, 0)
  assert.ok(wal > 0 && Math.abs(wal - results.serverStats.deltas.walBytes) <= results.serverStats.deltas.walBytes * 0.25 + 2e5, `WAL lines ${wal}, delta ${results.serverStats.deltas.walBytes}`)
})

test('--progress-server off: progress lines without the server\'s', { timeout: 60_000 }, async () => {
  const r = await runCli(['run', 'tpcb', '-S', '-c', '1', '-T', '2', '--progress', '1', '--progress-server', 'off', '--url', server.url, '--out', join(dir, 'off.json')])
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stderr, /^progress: /m)
  assert.doesNotMatch(r.stderr, /^(pgload: )?server: /m)
})
