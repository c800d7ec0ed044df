// Real runs on a fresh embedded server (its own pgload home): a run that loads its tables first
// vacuums and checkpoints before the clock and says so; checkpoint markers come from the server
// log: a CHECKPOINT issued during the run is in it, one that began before the run is drawn from 0.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { runBenchmark } from '../../lib/session/run-benchmark.js'
import { ensureEmbeddedServer, stopServer } from '../../lib/server/embedded/embedded-server.js'
import { embeddedPaths } from '../../lib/server/embedded/home.js'
import { openConnection } from '../../lib/db/connection.js'
import { StatsSampler } from '../../lib/server/stats/sampler.js'
import { formatServerStatsSummary } from '../../lib/output/server-summary.js'

const base = mkdtempSync(join(tmpdir(), 'pgload-ckpt-'))
chmodSync(base, 0o755) // as root the server runs as `postgres`, which must reach the home
const env = { ...process.env, PGLOAD_HOME: join(base, 'home'), PGHOST: '', PGPORT: '', PGUSER: '', PGDATABASE: '', PGPASSWORD: '' }
for (const k of ['PGHOST', 'PGPORT', 'PGUSER', 'PGDATABASE', 'PGPASSWORD', 'PGSERVICE', 'DATABASE_URL']) delete env[k]
let admin, logFile

before(async () => {
  const server = await ensureEmbeddedServer({ keep: true, env })
  admin = await openConnection(server.target)
  logFile = (await embeddedPaths(env.PGLOAD_HOME)).log
})

after(async () => {
  for (const q of ['ALTER SYSTEM RESET checkpoint_timeout', 'ALTER SYSTEM RESET checkpoint_completion_target', 'SELECT pg_reload_conf()']) await admin?.simpleQuery(q).catch(() => {})
  await admin?.close()
  await stopServer({ env }).catch(() => {})
  rmSync(base, { recursive: true, force: true })
})

const OPTIONS = { workload: 'tpcb', scripts: [{ kind: 'builtin', name: 'tpcb-like', weight: 1 }], workloadOptions: { scale: 1 }, clients: 2, durationS: 3, protocol: 'prepared', writeFile: false }

test('a run that loads its tables first vacuums, checkpoints before the clock, records and says it', async () => {
  const phases = []
  const { results } = await runBenchmark(OPTIONS, { env, onPhase: (p) => phases.push(p) })
  assert.deepEqual(phases.filter(p => ['loading', 'loaded', 'settled', 'running'].includes(p)), ['loading', 'loaded', 'settled', 'running'])
  const a = results.run.afterLoad
  assert.equal(a.vacuumed, true)
  assert.equal(a.checkpointed, true)
  assert.ok(a.loadS > 0 && a.settleS >= 0)
  // the pgbench tables were vacuumed and analyzed after the primary keys were built
  const v = await admin.simpleQuery("SELECT count(*) FROM pg_stat_user_tables WHERE relname LIKE 'pgbench_%' AND last_vacuum IS NOT NULL AND last_analyze IS NOT NULL")
  assert.equal(v.rows[0][0], '4')
  // the CHECKPOINT is in the log before the run, and so not among the run's markers
  assert.match(readFileSync(logFile, 'utf8'), /LOG: {2}checkpoint starting: immediate force wait/)
  assert.equal(results.serverStats.checkpointSource, 'log')
  assert.deepEqual(results.serverStats.events.filter(e => e.kind.startsWith('checkpoint')), [])
  const summary = formatServerStatsSummary(results.serverStats, results.run)
  assert.match(summary, /^note: this run followed a load of its tables \(vacuumed and checkpointed before the clock started\)/)
  assert.match(summary, /checkpoints: none in the run; server counters in the window: 0 timed, 0 requested/)

  const again = await runBenchmark(OPTIONS, { env })
  assert.equal(again.results.run.afterLoad, undefined, 'the tables were there: no load, no note')
  assert.doesNotMatch(formatServerStatsSummary(again.results.serverStats, again.results.run), /followed a load/)
})

test('a CHECKPOINT issued during the run is marked where the server log has it', async (t) => {
  let issuedAtS = null
  let done = null
  const { results } = await runBenchmark(OPTIONS, {
    env,
    onRun (run) {
      run.on('tick', (e) => {
        if (issuedAtS !== null || e.elapsedS < 1) return
        issuedAtS = e.elapsedS
        done = admin.simpleQuery('CHECKPOINT')
      })
    }
  })
  await done
  const ss = results.serverStats
  assert.equal(ss.checkpointSource, 'log', ss.missing.join('; '))
  const ckpt = ss.events.filter(e => e.kind.startsWith('checkpoint'))
  assert.equal(ckpt.length, 2, JSON.stringify(ss.events))
  const [start, end] = ckpt
  assert.deepEqual([start.kind, start.cause, end.kind], ['checkpoint-start', 'requested', 'checkpoint-end'])
  assert.equal(start.inProgressAtStart, undefined)
  // the log's time mapped to run time: after the tick that sent it (the mapping errs by a reading's latency)
  assert.ok(start.t >= issuedAtS - 0.05 && start.t <= end.t && end.t <= results.run.durationS + 0.05, `${JSON.stringify(ckpt)}, sent at ${issuedAtS}`)
  assert.equal(ss.deltas.checkpointsRequested, 1)
  t.diagnostic(`sent at ${issuedAtS} s; ${formatServerStatsSummary(ss).split('\n').find(l => l.includes('checkpoints'))}`)
  assert.match(formatServerStatsSummary(ss), /checkpoints: 1 in the run \(requested, \d+\.\d\d s to \d+\.\d\d s; times from the server log\); server counters in the window: 0 timed, 1 requested/)
})

test('a checkpoint that began before the run is drawn from 0 and labelled so, from the log and from samples', async (t) => {
  // A spread timed checkpoint: dirty many pages, shortest timeout, wait for it to begin.
  await admin.simpleQuery("ALTER SYSTEM SET checkpoint_timeout = '30s'")
  await admin.simpleQuery('ALTER SYSTEM SET checkpoint_completion_target = 0.9')
  await admin.simpleQuery('SELECT pg_reload_conf()')
  await admin.simpleQuery('UPDATE pgbench_accounts SET filler = filler')
  const from = readFileSync(logFile, 'utf8').length
  const deadline = Date.now() + 60_000
  while (!/checkpoint starting: time/.test(readFileSync(logFile, 'utf8').slice(from))) {
    assert.ok(Date.now() < deadline, 'no timed checkpoint began within 60 s')
    await sleep(200)
  }
  // without the log: a sampler on its own sees the checkpointer busy at its baseline and after
  const { target } = await ensureEmbeddedServer({ keep: true, env })
  const sampler = new StatsSampler({ openConnection: () => openConnection(target, { protocol: 'simple' }) })
  await sampler.start()
  await sleep(500)
  await sampler.sample(0.5)
  await sleep(500)
  await sampler.sample(1)
  const bySamples = await sampler.finish({ transactions: 0, durationS: 1 })
  assert.equal(bySamples.checkpointSource, 'samples')
  assert.deepEqual(bySamples.events.filter(e => e.kind.startsWith('checkpoint'))[0], { t: 0, kind: 'checkpoint-start', inProgressAtStart: true }, JSON.stringify(bySamples.events))

  const { results } = await runBenchmark({ ...OPTIONS, durationS: 2 }, { env })
  const ss = results.serverStats
  assert.equal(ss.checkpointSource, 'log', ss.missing.join('; '))
  const first = ss.events.find(e => e.kind === 'checkpoint-start')
  assert.equal(first.t, 0)
  assert.equal(first.cause, 'timed')
  assert.equal(first.inProgressAtStart, true)
  assert.ok(first.beganS < 0, `began ${first.beganS}`)
  const summary = formatServerStatsSummary(ss)
  t.diagnostic(summary.split('\n').find(l => l.includes('checkpoints')))
  assert.match(summary, /checkpoints: 1 in the run \(timed, in progress when the run started \(began \d+\.\d\d s before\), (still running at the end|ended at \d+\.\d\d s); times from the server log\)/)
  assert.doesNotMatch(summary, /started at/)
})
