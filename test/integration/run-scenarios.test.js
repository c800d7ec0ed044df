// `pgload run --scenarios` on the embedded server: an open-rate tpcb-like scenario and a closed
// two-client script scenario that starts 5 s later, in one run. Each scenario's counts and
// histograms add up to the run's totals exactly, the second one's window is 5..10 s, and a
// threshold on one scenario is judged on that scenario's figures. With -j 2 (worker threads) and
// as two shards merged by `pgload merge`, each scenario still adds up exactly, to its parts' and to
// the run's totals; one server statistics sampler covers the run.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { runCli, assertOneLineError } from '../helpers/cli.js'
import { decodeHistogram } from '../../lib/metrics/histogram.js'
import { validateResults } from '../../lib/results/read.js'
import { testResultsDatabase } from '../helpers/results-db.js'

let server
let resultsDb
const dir = mkdtempSync(join(tmpdir(), 'pgload-scenarios-'))
const scenarioFile = join(dir, 'scenarios.yaml')

before(async () => {
  server = await getTestServer()
  const init = await runCli(['init', 'tpcb', '--scale', '1', '--force', '--url', server.url])
  assert.equal(init.code, 0, init.stderr)
  writeFileSync(join(dir, 'sleep.sql'), 'SELECT pg_sleep(0.01);\n')
  writeFileSync(scenarioFile, [
    'duration: 10s',
    'seed: 7',
    'scenarios:',
    '  checkout: { workload: tpcb, builtin: tpcb-like, rate: 50, clients: 4, tags: { team: shop } }',
    '  sleeper:',
    '    workload: [sleep.sql]',
    '    clients: 2',
    '    start: 5s',
    ''
  ].join('\n'))
})

after(async () => {
  await resultsDb?.drop()
  rmSync(dir, { recursive: true, force: true })
})

const histCount = (encoded) => encoded ? decodeHistogram(encoded).totalCount : 0

test('two scenarios: each adds up to the totals exactly; the later one runs 5..10 s; thresholds per scenario', async () => {
  const out = join(dir, 'run.json')
  const r = await runCli(['run', '--scenarios', scenarioFile, '--url', server.url, '--out', out, '--report',
    '--threshold', 'scenario(sleeper): p(95) < 30s', '--threshold', 'scenario(checkout): count < 1'], { timeoutMs: 90_000 })
  // the second threshold fails on checkout's own count: exit 99, results written
  assert.equal(r.code, 99, r.stderr)
  const doc = validateResults(JSON.parse(readFileSync(out, 'utf8')))
  assert.deepEqual(Object.keys(doc.scenarios), ['checkout', 'sleeper'])
  const { checkout, sleeper } = doc.scenarios
  assert.equal(checkout.startS, 0)
  assert.equal(sleeper.startS, 5)
  assert.ok(sleeper.endS > 9.9 && sleeper.endS <= 10.5, `sleeper ends at ${sleeper.endS}`)
  assert.deepEqual(checkout.tags, { team: 'shop' })
  assert.ok(checkout.summary.transactions > 0 && sleeper.summary.transactions > 0)
  assert.deepEqual(Object.keys(doc.transactions), ['checkout/tpcb-like', 'sleeper/sleep.sql'])
  for (const [name, s] of Object.entries(doc.scenarios)) {
    for (const [type, t] of Object.entries(s.transactions)) {
      const total = doc.transactions[`${name}/${type}`]
      assert.equal(total.count, t.count, `${name}/${type} count`)
      assert.equal(histCount(total.histogram), histCount(t.histogram), `${name}/${type} histogram`)
      assert.equal(histCount(t.histogram), t.count)
    }
  }
  const sum = (k) => checkout.summary[k] + sleeper.summary[k]
  for (const k of ['transactions', 'failed', 'skipped']) assert.equal(doc.summary[k], sum(k), `summary.${k}`)
  const intervalTotal = doc.intervals.reduce((a, iv) => a + Object.values(iv.count).reduce((x, y) => x + y, 0), 0)
  const ownIntervals = (s) => s.intervals.reduce((a, iv) => a + Object.values(iv.count).reduce((x, y) => x + y, 0), 0)
  assert.equal(intervalTotal, ownIntervals(checkout) + ownIntervals(sleeper), 'intervals add up')
  // the sleeper runs in the second half of the run only
  const firstSleeper = doc.intervals.findIndex((iv) => (iv.count['sleeper/sleep.sql'] ?? 0) > 0)
  assert.ok(firstSleeper >= 4, `the sleeper's first transactions are in interval ${firstSleeper}`)
  assert.equal(doc.thresholds.length, 2)
  assert.equal(doc.thresholds[0].pass, true)
  assert.equal(doc.thresholds[1].pass, false)
  assert.equal(doc.thresholds[1].actual, checkout.summary.transactions)
  assert.ok(existsSync(join(dir, 'run.html')), 'the report of the totals is written')
  // pgload check reads the file's scenarios the same way
  const check = await runCli(['check', out, '--threshold', 'scenario(sleeper): p(95) < 30s'], { timeoutMs: 30_000 })
  assert.equal(check.code, 0, check.stderr)
  const unknown = await runCli(['check', out, '--threshold', 'scenario(olap): p(95) < 30s'], { timeoutMs: 30_000 })
  assertOneLineError(unknown, /run has no scenario olap: its scenarios are checkout, sleeper/)
  assert.match(r.stdout, /scenario checkout: tpcb, open model, 50 tps, 4 clients, 0.0-10.0 s \[team=shop\]/)
  assert.match(r.stdout, /scenario sleeper: script, closed model, 2 clients, 5.0-10.\d s/)
  // each scenario samples where its own transactions spent their time on the server
  const sleeperWaits = Object.values(sleeper.waits.types)[0]
  assert.equal(sleeperWaits.events[0].event, 'Timeout:PgSleep', JSON.stringify(sleeperWaits.events))
  assert.equal(checkout.waits.available, true)
  assert.match(r.stdout, /^scenario sleeper: [^\n]+\n(?: {2}[^\n]+\n)* {2}waits: sampled [\d,]+ times at 50 Hz/m)
})

test('Ctrl-C stops every scenario, one not started yet included; what was measured is written (exit 130)', async () => {
  const file = join(dir, 'long.yaml')
  writeFileSync(file, 'duration: 30s\nscenarios:\n  checkout: { workload: tpcb, builtin: select-only, rate: 50, clients: 2 }\n  later: { workload: [sleep.sql], start: 25s }\n')
  const out = join(dir, 'interrupted.json')
  const r = await runCli(['run', '--scenarios', file, '--url', server.url, '--out', out], {
    timeoutMs: 60_000,
    onSpawn: (child) => {
      let seen = false
      // interrupt once the first transactions are surely running: a while after the start line
      child.stderr.on('data', (d) => {
        if (seen || !String(d).includes('running 2 scenarios')) return
        seen = true
        setTimeout(() => child.kill('SIGINT'), 3000)
      })
    }
  })
  assert.equal(r.code, 130, r.stderr)
  const doc = validateResults(JSON.parse(readFileSync(out, 'utf8')))
  assert.equal(doc.run.interrupted, true)
  assert.ok(doc.scenarios.checkout.summary.transactions > 0)
  assert.equal(doc.scenarios.later.summary.transactions, 0)
  assert.equal(doc.summary.transactions, doc.scenarios.checkout.summary.transactions)
})

const intervalCount = (intervals, type) => intervals.reduce((a, iv) => a + Object.entries(iv.count)
  .filter(([t]) => type === undefined || t === type).reduce((x, [, n]) => x + n, 0), 0)
const readDoc = (file) => validateResults(JSON.parse(readFileSync(file, 'utf8')))

/** Every scenario against the run's totals: counts, histograms and intervals, type by type. */
function assertScenariosAddUp (doc) {
  let total = 0
  for (const [name, s] of Object.entries(doc.scenarios)) {
    assert.ok(s.summary.transactions > 0, `${name} ran`)
    total += s.summary.transactions
    for (const [type, t] of Object.entries(s.transactions)) {
      const whole = doc.transactions[`${name}/${type}`]
      assert.equal(whole.count, t.count, `${name}/${type} count`)
      assert.equal(histCount(t.histogram), t.count, `${name}/${type} histogram`)
      assert.equal(histCount(whole.histogram), histCount(t.histogram), `${name}/${type} histogram in the totals`)
      assert.equal(intervalCount(s.intervals, type), t.count, `${name}/${type} intervals`)
      assert.equal(intervalCount(doc.intervals, `${name}/${type}`), t.count, `${name}/${type} intervals in the totals`)
    }
  }
  assert.equal(doc.summary.transactions, total, 'the totals are the scenarios\' sum')
}

test('-j 2: every scenario runs on two threads and adds up exactly; one sampler covers the run', async () => {
  const out = join(dir, 'threads.json')
  const r = await runCli(['run', '--scenarios', scenarioFile, '--url', server.url, '-j', '2', '--out', out, '--report',
    '--label', 'nightly', '--store', '--results-url', (resultsDb = await testResultsDatabase()).url], { timeoutMs: 90_000 })
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stderr, /results stored in the results database/)
  const doc = readDoc(out)
  assert.deepEqual(Object.keys(doc.scenarios), ['checkout', 'sleeper'])
  assert.equal(doc.scenarios.checkout.options.jobs, 2)
  assert.equal(doc.scenarios.sleeper.options.jobs, 2)
  assert.equal(doc.run.options.jobs, 2)
  assertScenariosAddUp(doc)
  // server statistics of the whole run at the top level, from one sampler
  assert.ok(doc.serverStats.deltas, 'server statistics deltas')
  assert.ok(doc.serverStats.series.length >= 3, `samples over the run: ${doc.serverStats.series.length}`)
  assert.ok(doc.serverStats.settings, 'the settings snapshot is kept')
  // the summary's server lines
  assert.match(r.stdout, /^server: WAL .* per transaction/m)
  // and the report's server chart
  const html = readFileSync(join(dir, 'threads.html'), 'utf8')
  assert.ok(html.includes('aria-label="Server activity"'), 'the report has the server chart')
  assert.ok(!html.includes('no server statistics series'), 'the report\'s server chart has its series')
  // stored with its scenarios: the history of one scenario shows its own figures
  const history = await runCli(['history', '--results-url', resultsDb.url, '--label', 'nightly', '--scenario', 'sleeper'])
  assert.equal(history.code, 0, history.stderr)
  assert.match(history.stdout, new RegExp(`nightly\\s+sleeper: script\\s+2\\s+-\\s+${Number(doc.scenarios.sleeper.summary.tps.toFixed(3))}\\b`))
})

test('two shards: each runs its part of every scenario; merged, the scenarios add up to the shards\' sums', async () => {
  const runId = `scenarios-${process.pid}`
  const files = [0, 1].map((k) => join(dir, `shard-${k}.json`))
  const shards = await Promise.all([0, 1].map((k) => runCli(['run', '--scenarios', scenarioFile, '--url', server.url,
    '--shard', `${k}/2`, '--run-id', runId, '--out', files[k]], { timeoutMs: 120_000 })))
  for (const r of shards) {
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stderr, /all 2 shards arrived/)
  }
  const docs = files.map(readDoc)
  docs.forEach((d, k) => {
    assert.deepEqual([d.run.shard.runId, d.run.shard.index, d.run.shard.count], [runId, k, 2])
    assert.equal(d.scenarios.checkout.clients, 2)
    assert.equal(d.scenarios.sleeper.clients, 1)
    assert.equal(Boolean(d.serverStats?.deltas), k === 0, 'shard 0 samples the server')
    assertScenariosAddUp(d)
  })
  assert.equal(docs[0].run.seed, docs[1].run.seed)

  const merged = join(dir, 'merged.json')
  const m = await runCli(['merge', files[1], files[0], '-o', merged])
  assert.equal(m.code, 0, m.stderr)
  const doc = readDoc(merged)
  assert.deepEqual(Object.keys(doc.scenarios), ['checkout', 'sleeper'])
  assert.equal(doc.run.shards.count, 2)
  for (const name of ['checkout', 'sleeper']) {
    const s = doc.scenarios[name]
    const parts = docs.map((d) => d.scenarios[name])
    assert.equal(s.clients, parts[0].clients + parts[1].clients)
    assert.equal(s.startS, parts[0].startS)
    assert.equal(s.summary.transactions, parts[0].summary.transactions + parts[1].summary.transactions, `${name} transactions`)
    for (const [type, t] of Object.entries(s.transactions)) {
      assert.equal(t.count, parts[0].transactions[type].count + parts[1].transactions[type].count, `${name}/${type} count`)
      assert.equal(histCount(t.histogram), histCount(parts[0].transactions[type].histogram) + histCount(parts[1].transactions[type].histogram))
    }
    assert.equal(intervalCount(s.intervals), intervalCount(parts[0].intervals) + intervalCount(parts[1].intervals), `${name} intervals`)
  }
  assertScenariosAddUp(doc)
  assert.ok(doc.serverStats.deltas, 'the coordinator\'s server statistics')
})

test('a shard whose other shards never come: one line after --shard-timeout, exit 1, nothing run', async () => {
  const out = join(dir, 'alone.json')
  const r = await runCli(['run', '--scenarios', scenarioFile, '--url', server.url, '--shard', '0/2', '--run-id', `alone-${process.pid}`,
    '--shard-timeout', '2s', '--out', out], { timeoutMs: 60_000 })
  assert.equal(r.code, 1, r.stderr)
  const lines = r.stderr.trim().split('\n')
  assert.match(lines.at(-1), /^pgload: shard barrier of run id alone-\d+: shard 1\/2 did not arrive within 2 s \(--shard-timeout\)$/)
  assert.equal(lines.filter((l) => !l.startsWith('pgload: ')).length, 0, 'no stack trace')
  assert.equal(existsSync(out), false)
})
