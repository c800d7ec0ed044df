// `pgload ab ... -- run ... --cold` on pgload's embedded server (in a temporary PGLOAD_HOME): every
// run starts on a new postmaster and records it, ab's own connection survives the restarts (the
// settings are restored), the report overlays the runs; without a way to restart, nothing starts.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync, readFileSync, chmodSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, stopServer } from '../../lib/server/embedded/embedded-server.js'
import { openConnection } from '../../lib/db/connection.js'
import { resolveTarget } from '../../lib/server/target/resolve-target.js'
import { measureBenchmark } from '../../lib/benchmark.js'
import { AbRunner } from '../../lib/orchestration/ab/runner.js'
import { parseSettingList } from '../../lib/orchestration/ab/settings.js'
import { abCommand, runOptionsFromRest } from '../../lib/cli/ab.js'

const base = mkdtempSync(join(tmpdir(), 'pgload-ab-cold-'))
chmodSync(base, 0o755) // the server runs as the postgres OS user when the tests run as root
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^PG/.test(k)))
env.PGLOAD_HOME = join(base, 'home')
const script = join(base, 'one.sql')
writeFileSync(script, 'SELECT 1;\n')

before(async () => { await startServer({ env }) })
after(async () => {
  await stopServer({ env }).catch(() => {})
  rmSync(base, { recursive: true, force: true })
})

async function startTime (url) {
  const conn = await openConnection(resolveTarget({ url, env }), { protocol: 'simple' })
  try {
    return (await conn.simpleQuery('select pg_postmaster_start_time()::text')).rows[0][0]
  } finally {
    await conn.close()
  }
}

function sink () {
  const s = { text: '', write (chunk) { s.text += chunk } }
  return s
}

test('ab with run --cold: each run on a new postmaster, recorded, printed and overlaid in the report', { timeout: 120_000 }, async () => {
  const runOptions = await runOptionsFromRest(['run', script, '-c', '1', '-T', '2s', '-n', '--no-server-stats', '--cold', '--keep-page-cache'])
  const outDir = join(base, 'out')
  const starts = []
  const out = sink()
  const err = sink()
  const opts = {
    a: parseSettingList('work_mem=8MB', '--a'),
    b: parseSettingList('work_mem=16MB', '--b'),
    rounds: 1,
    order: 'abba',
    seed: 1,
    outDir,
    runOptions,
    compare: { seed: 1 },
    format: 'text',
    report: true
  }
  const { outcome } = await abCommand(opts, {
    out,
    err,
    env,
    signals: false,
    async runBenchmark (plan, hooks) {
      assert.equal(plan.cold, true)
      const before = await startTime(plan.url)
      const r = await measureBenchmark(plan, hooks)
      starts.push([before, await startTime(plan.url)])
      return r
    }
  })
  assert.equal(outcome.restored, true, 'ab reopened its connection after the cold runs and restored work_mem')
  assert.equal(outcome.runs.length, 2)
  for (const [before, afterRun] of starts) assert.notEqual(afterRun, before, 'a new postmaster for the run')
  assert.notEqual(starts[1][0], starts[0][0])
  for (const r of outcome.runs) {
    assert.equal(r.results.run.cold.restarted, true)
    assert.equal(r.results.run.cold.method, 'embedded')
    assert.equal(r.results.run.cold.pageCacheNote, 'kept (--keep-page-cache)')
    assert.equal(r.results.run.warmupS, 0)
  }
  assert.match(err.text, /^pgload ab: A: [\d.]+ tps, p99 [\d.]+ ms, steady (never|from [\d.]+ s)$/m)
  assert.match(err.text, /^pgload ab: B: cold start: the server restarted in \d+\.\d s; OS page cache kept \(--keep-page-cache\)$/m)
  assert.match(out.text, /steady-state s/)
  const html = readFileSync(join(outDir, 'report.html'), 'utf8')
  assert.match(html, /\b0\d-A work_mem=8MB/) // named as its file
  assert.match(html, /\b0\d-B work_mem=16MB/)
  assert.match(html, /cold start/)
})

test('ab with run --cold and servers pgload cannot restart: one line before any setting changes', async () => {
  const runOptions = await runOptionsFromRest(['run', script, '-T', '1s', '--cold'])
  const events = []
  const runner = new AbRunner({
    a: parseSettingList('work_mem=8MB', '--a'),
    b: [],
    aUrl: 'postgres://bench@127.0.0.1:1/a',
    bUrl: 'postgres://bench@127.0.0.1:2/b',
    outDir: join(base, 'never'),
    runOptions,
    env,
    onEvent: (name, info) => events.push(name),
    runBenchmark: async () => { throw new Error('must not run') }
  })
  await assert.rejects(runner.run(), { code: 'COLD_NO_RESTART', message: /^--cold needs a way to restart the server: .* postgres:\/\/bench@127\.0\.0\.1:1\/a is not it$/ })
  assert.deepEqual(events, [])
})
