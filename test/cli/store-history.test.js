// `pgload store`, `pgload history`, `run --store` and `check --baseline stored:...` as a user runs
// them, against a results database of this test's own (--results-url).

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../helpers/cli.js'
import { getTestServer } from '../helpers/server.js'
import { testResultsDatabase } from '../helpers/results-db.js'
import { createHistogram, recordUs, encodeHistogram } from '../../lib/metrics/histogram.js'

const dir = mkdtempSync(join(tmpdir(), 'pgload-store-cli-'))
const compareFixture = (name) => new URL(`../fixtures/compare/${name}`, import.meta.url).pathname
let db
const mainFiles = []

before(async () => {
  db = await testResultsDatabase()
  for (let i = 1; i <= 5; i++) {
    const doc = JSON.parse(readFileSync(compareFixture(`base-${i}.json`), 'utf8'))
    doc.run.label = 'main'
    doc.run.startTime = `2026-03-0${i}T00:00:00.000Z`
    const file = join(dir, `main-${i}.json`)
    writeFileSync(file, JSON.stringify(doc))
    mainFiles.push(file)
  }
})

after(async () => {
  await db?.drop()
  rmSync(dir, { recursive: true, force: true })
})

/** Exit 1 and a single `pgload:` line (then an optional hint). */
function assertOneLineError (r, pattern) {
  assert.equal(r.code, 1, `exit code ${r.code}; stderr: ${r.stderr}`)
  const lines = r.stderr.trim().split('\n').filter((l) => !l.startsWith('hint: '))
  assert.equal(lines.length, 1, `expected one line, got:\n${r.stderr}`)
  assert.match(lines[0], pattern)
}

test('store: one line per file, a bad file is an error line and exit 1, the others stored, again: already stored', async () => {
  const broken = join(dir, 'broken.json')
  writeFileSync(broken, '{"schemaVersion": 1}')
  const r = await runCli(['store', mainFiles[0], broken, ...mainFiles.slice(1), '--results-url', db.url])
  assert.equal(r.code, 1, r.stderr)
  const lines = r.stdout.trim().split('\n')
  assert.equal(lines.length, 5)
  lines.forEach((l, i) => assert.equal(l, `${mainFiles[i]}: stored (run ${i + 1})`))
  assert.match(r.stderr, /^pgload: .*broken\.json: run: missing\n/m)
  assert.match(r.stderr, /pgload: 1 of 6 files could not be stored; the others were/)
  const shardDoc = JSON.parse(readFileSync(mainFiles[0], 'utf8'))
  shardDoc.run.shard = { runId: 'nightly-1', index: 1, count: 4 }
  const shard = join(dir, 'shard-1.json')
  writeFileSync(shard, JSON.stringify(shardDoc))
  const refused = await runCli(['store', shard, '--results-url', db.url])
  assert.equal(refused.code, 1)
  assert.equal(refused.stdout, '')
  assert.match(refused.stderr, /^pgload: .*shard-1\.json: the results of shard 1\/4 of run nightly-1 are part of a run: merge every shard's file \(pgload merge FILES -o merged\.json\) and store the merged one\n/)
  const alone = await runCli(['store', broken, '--results-url', db.url])
  assertOneLineError(alone, /^pgload: .*broken\.json: /)

  // a valid one-sample histogram where the count says otherwise: refused like any damaged file
  const real = JSON.parse(readFileSync(new URL('../fixtures/results/recorded-tpcb.json', import.meta.url), 'utf8'))
  const h = createHistogram()
  recordUs(h, 5)
  real.transactions['tpcb-like'].histogram = encodeHistogram(h)
  const contradictory = join(dir, 'one-sample.json')
  writeFileSync(contradictory, JSON.stringify(real))
  const one = await runCli(['store', contradictory, '--results-url', db.url])
  assert.equal(one.stdout, '')
  assert.equal(one.stderr, `pgload: ${contradictory}: transactions.tpcb-like.histogram: holds 1 value, but transactions.tpcb-like.count is ${real.transactions['tpcb-like'].count}\n`)
  assert.equal(one.code, 1)

  const again = await runCli(['store', ...mainFiles, '--results-url', db.url])
  assert.equal(again.code, 0, again.stderr)
  assert.deepEqual(again.stdout.trim().split('\n'), mainFiles.map((f, i) => `${f}: already stored (run ${i + 1})`))
})

test('history: the runs as a table, the trend as a chart', async () => {
  const r = await runCli(['history', '--label', 'main', '--metric', 'p999', '--limit', '3', '-o', join(dir, 'trend.svg'), '--results-url', db.url])
  assert.equal(r.code, 0, r.stderr)
  const lines = r.stdout.trim().split('\n')
  assert.match(lines[0], /^run\s+start \(UTC\)\s+label.*p999 ms$/)
  // the newest three, oldest first
  assert.deepEqual(lines.slice(1).map((l) => l.split(/\s+/)[0]), ['3', '4', '5'])
  assert.match(lines[1], /^3\s+2026-03-03 00:00:00\s+main\s+tpcb\s+4\s+10\s/)
  const svg = readFileSync(join(dir, 'trend.svg'), 'utf8')
  assert.match(svg, /^<svg/)
  assert.match(svg, /History: p99\.9 latency/)

  const none = await runCli(['history', '--label', 'nobody', '--results-url', db.url])
  assert.equal(none.code, 0)
  assert.equal(none.stdout, '')
  assert.equal(none.stderr, 'pgload: no stored runs with label "nobody"\nhint: store runs as they finish with pgload run ... --store, or store results files with pgload store FILE...\n')
  assertOneLineError(await runCli(['history', '--metric', 'p42', '--results-url', db.url]), /--metric must be one of/)
  const down = await runCli(['history', '--results-url', 'postgres://nobody@127.0.0.1:1/none'])
  assertOneLineError(down, /^pgload: cannot connect to PostgreSQL at 127\.0\.0\.1:1: connection refused$/)
  assert.match(down.stderr, /^hint: .*\(--results-url, PGHOST, PGPORT\)$/m, 'the hint names the option that gave the address')
  assertOneLineError(await runCli(['history', '--results-url', 'mysql://h/x']), /^pgload: --results-url must be a postgres:\/\/ URI or key=value pairs, got "mysql:\/\/h\/x"$/)
})

test('history --help: each example on one line, its command whole', async () => {
  const r = await runCli(['history', '--help'])
  assert.equal(r.code, 0, r.stderr)
  const examples = r.stdout.split('Examples:\n')[1].trimEnd().split('\n')
  assert.ok(examples.length > 0)
  for (const line of examples) assert.match(line, /^ {2}pgload history \S.*\.html\s{2,}\S/, `an example wrapped: ${JSON.stringify(r.stdout.split('Examples:')[1])}`)
})

test('check against a stored baseline: the runs it is made of, a passing and a failing gate', async () => {
  const gate = ['--threshold', 'p(99) < +5%', '--threshold', 'tps > -5%', '--results-url', db.url]
  const pass = await runCli(['check', compareFixture('same-1.json'), '--baseline', 'stored:main', ...gate])
  assert.equal(pass.code, 0, pass.stderr)
  assert.match(pass.stdout, /^baseline: median of 5 stored runs labelled "main": #1 \(2026-03-01T00:00:00Z\), #2 .*#5 \(2026-03-05T00:00:00Z\)\n/)
  assert.match(pass.stdout, /all 2 thresholds passed/)

  const fail = await runCli(['check', compareFixture('shift-1.json'), '--baseline', 'stored:main:3', ...gate])
  assert.equal(fail.code, 99, fail.stderr)
  assert.match(fail.stdout, /^baseline: median of 3 stored runs labelled "main": #3 .*, #4 .*, #5 /)
  assert.match(fail.stdout, /FAIL\s+p\(99\) < \+5%/)

  assertOneLineError(await runCli(['check', compareFixture('same-1.json'), '--baseline', 'stored:release', ...gate]), /--baseline stored:release: no stored run has the label "release"/)
  assertOneLineError(await runCli(['check', compareFixture('same-1.json'), '--baseline', 'stored:main', '--threshold', 'p(99)[5s] < +5%', '--results-url', db.url]), /a stored baseline holds whole-run figures/)
})

test('run --store stores the run after writing its file; a store that fails is a warning, the file kept', async () => {
  const server = await getTestServer()
  const script = join(dir, 'one.sql')
  writeFileSync(script, 'SELECT 1;\n')
  const out = join(dir, 'stored-run.json')
  const r = await runCli(['run', script, '-T', '1s', '--url', server.url, '--label', 'cli-run', '-o', out, '--store', '--results-url', db.url])
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stderr, /^pgload: results written to .*stored-run\.json\npgload: results stored in the results database \(run \d+\)\n/m)
  const doc = JSON.parse(readFileSync(out, 'utf8'))
  assert.equal(doc.run.options.resultsUrl, undefined) // the address (and its password) is not recorded
  const { rows } = await db.query("select transactions, label from pgload.runs where label = 'cli-run'")
  assert.deepEqual(rows, [[String(doc.summary.transactions), 'cli-run']])

  const kept = join(dir, 'kept.json')
  const w = await runCli(['run', script, '-T', '1s', '--url', server.url, '-o', kept, '--store', '--results-url', 'postgres://nobody@127.0.0.1:1/none'])
  assert.equal(w.code, 0, w.stderr)
  assert.match(w.stderr, /^pgload: warning: not stored in the results database: cannot connect to PostgreSQL at 127\.0\.0\.1:1: connection refused \(the results file is kept\)$/m)
  assert.ok(existsSync(kept))
})

test('store of what ab writes: its compare.json is skipped with a word, its directory stands for its runs', async () => {
  const abDir = join(dir, 'ab-out')
  mkdirSync(abDir)
  const files = ['base-1.json', 'same-1.json', 'same-2.json', 'base-2.json'].map((f, i) => {
    const doc = JSON.parse(readFileSync(compareFixture(f), 'utf8'))
    doc.run.label = 'ab-side'
    const file = join(abDir, `0${i + 1}-${i === 0 || i === 3 ? 'A' : 'B'}.json`)
    writeFileSync(file, JSON.stringify(doc))
    return file
  })
  const verdict = await runCli(['compare', files[0], files[3], '--', files[1], files[2], '--json'])
  writeFileSync(join(abDir, 'compare.json'), verdict.stdout)
  const globbed = await runCli(['store', ...files, join(abDir, 'compare.json'), '--results-url', db.url])
  assert.equal(globbed.code, 0, globbed.stderr)
  assert.match(globbed.stdout, /compare\.json: skipped \(a compare verdict, not a run: its runs are stored from their own files\)$/m)
  assert.equal(globbed.stdout.match(/: stored \(run \d+\)$/gm)?.length, 4, globbed.stdout)
  const whole = await runCli(['store', abDir, '--results-url', db.url])
  assert.equal(whole.code, 0, whole.stderr)
  assert.equal(whole.stdout.match(/0\d-[AB]\.json: already stored \(run \d+\)$/gm)?.length, 4, whole.stdout)
})

test('history lists a capacity search with its answer\'s figures: the rate it sustained and that step\'s latency', async () => {
  const { capacityStepDownResults } = await import('../helpers/staged-results.js')
  const doc = capacityStepDownResults()
  doc.run.label = 'cap'
  doc.run.command = "pgload capacity tpcb --until 'p(99) < 20ms'"
  const file = join(dir, 'capacity.json')
  writeFileSync(file, JSON.stringify(doc))
  const stored = await runCli(['store', file, '--results-url', db.url])
  assert.equal(stored.code, 0, stored.stderr)
  const r = await runCli(['history', '--label', 'cap', '--results-url', db.url])
  assert.equal(r.code, 0, r.stderr)
  const row = r.stdout.trim().split('\n')[1].split(/\s{2,}/)
  // run, start, label, workload, clients, scale, tps, p50 ms, p99 ms, max ms: step 7's (38/s held), not the whole run's
  assert.deepEqual(row.slice(3, 4).concat(row.slice(6)), ['tpcb (capacity 38 tps)', '38', '4', '18', '36'], r.stdout)
})
