// --stages on the embedded server, against a script of known capacity: `SELECT pg_sleep(0.01)` on
// 4 terminals serves at most 400 transactions per second. Stages below it achieve their offered
// rate; a stage above it fills the queue and drops arrivals, counted. The stages add up to the
// run's totals exactly, with one thread, with -j 2, and for two shards merged.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { runCli } from '../helpers/cli.js'
import { decodeHistogram } from '../../lib/metrics/histogram.js'

let server
const dir = mkdtempSync(join(tmpdir(), 'pgload-stages-'))
const script = join(dir, 'sleep.sql')
// 150 held, a ramp 150 -> 250 (offered 200), then far above the 400 the 4 terminals can serve.
// A stage of 3 s holds a few hundred arrivals, whose Poisson count alone varies by some 5 %
// around the offered rate: what the engine must achieve is the arrivals that came (the
// generator's rate is checked over many draws in test/unit/engine/staged-arrivals.test.js).
const PROFILE = ['--clients', '4', '--rate', '150', '--stages', '3s:150,3s:250,3s:900', '--max-queue', '20', '--seed', '7', '-n']

before(async () => {
  server = await getTestServer()
  writeFileSync(script, 'SELECT pg_sleep(0.01);\n')
})

after(() => rmSync(dir, { recursive: true, force: true }))

const read = (file) => JSON.parse(readFileSync(file, 'utf8'))
const histCount = (encoded) => decodeHistogram(encoded).totalCount

/** Every counter and histogram of the stages adds up to the run's. */
function assertStagesAddUp (doc) {
  const stages = doc.stages
  const sum = (f) => stages.reduce((a, s) => a + f(s), 0)
  for (const k of ['transactions', 'failed', 'skipped', 'unfinished', 'outcomeUnknown', 'retries', 'dropped', 'arrivals']) {
    assert.equal(sum((s) => s.summary[k] ?? 0), doc.summary[k] ?? 0, `summary.${k}`)
  }
  for (const [name, t] of Object.entries(doc.transactions)) {
    assert.equal(sum((s) => s.transactions[name].count), t.count, `${name} count`)
    assert.equal(sum((s) => histCount(s.transactions[name].histogram)), histCount(t.histogram), `${name} histogram`)
  }
  assert.equal(sum((s) => histCount(s.summary.lagHistogram)), histCount(doc.summary.lagHistogram), 'lag histogram')
  assert.equal(doc.intervals.reduce((a, iv) => a + (iv.dropped ?? 0), 0), doc.summary.dropped ?? 0, 'intervals dropped')
}

function assertCapacity (doc) {
  assert.equal(doc.stages.length, 3)
  assert.deepEqual(doc.stages.map((s) => [s.startS, s.endS, s.target.from, s.target.to]), [[0, 3, 150, 150], [3, 6, 150, 250], [6, 9, 250, 900]])
  for (const s of doc.stages.slice(0, 2)) {
    const came = s.summary.arrivals / s.lengthS
    const off = Math.abs(s.achievedTps - came) / came
    assert.ok(off <= 0.03, `stage ${s.index + 1}: achieved ${s.achievedTps} tps against ${came} arrivals per second (${(off * 100).toFixed(1)} %)`)
    assert.ok(Math.abs(came - s.offeredTps) / s.offeredTps < 0.15, `stage ${s.index + 1}: ${came} arrivals per second for ${s.offeredTps} offered`)
    assert.equal(s.dropped, 0, `stage ${s.index + 1} below capacity drops nothing`)
  }
  const over = doc.stages[2]
  assert.ok(over.achievedTps <= 400, `stage 3 achieved ${over.achievedTps}: above the script's capacity`)
  assert.ok(over.dropped > 100, `stage 3 above capacity drops arrivals, dropped ${over.dropped}`)
}

test('--stages on one thread: targets achieved below capacity, drops above it, stages add up', async () => {
  const out = join(dir, 'one.json')
  const r = await runCli(['run', script, '--url', server.url, ...PROFILE, '-o', out])
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stdout, /^stages \(arrivals per second/m)
  assert.match(r.stdout, /number of dropped arrivals: \d+/)
  const doc = read(out)
  assertCapacity(doc)
  assertStagesAddUp(doc)
})

test('--stages with -j 2: each thread its share, the stages merged exactly', async () => {
  const out = join(dir, 'two.json')
  const r = await runCli(['run', script, '--url', server.url, ...PROFILE, '-j', '2', '-o', out])
  assert.equal(r.code, 0, r.stderr)
  const doc = read(out)
  assert.equal(doc.run.threads, 2)
  assert.equal(doc.stages.length, 3)
  assert.ok(doc.stages[2].dropped > 0)
  assertStagesAddUp(doc)
})

test('--clients-stages on two shards: pgload merge merges the stages exactly', async () => {
  const runId = `stages-${process.pid}`
  const args = (k) => ['run', script, '--url', server.url, '--clients-stages', '2s:2,2s:4~', '-n', '--shard', `${k}/2`, '--run-id', runId, '-o', join(dir, `shard-${k}.json`)]
  const shards = await Promise.all([0, 1].map((k) => runCli(args(k))))
  for (const r of shards) assert.equal(r.code, 0, r.stderr)
  const merge = await runCli(['merge', join(dir, 'shard-0.json'), join(dir, 'shard-1.json'), '-o', join(dir, 'merged.json')])
  assert.equal(merge.code, 0, merge.stderr)
  const merged = read(join(dir, 'merged.json'))
  assert.deepEqual(merged.stages.map((s) => [s.kind, s.target.from, s.target.to, s.ramp]), [['clients', 0, 2, false], ['clients', 2, 4, true]])
  const docs = [0, 1].map((k) => read(join(dir, `shard-${k}.json`)))
  for (const k of [0, 1]) {
    assert.equal(merged.stages[k].summary.transactions, docs[0].stages[k].summary.transactions + docs[1].stages[k].summary.transactions)
  }
  // terminals 0 and 1 (shard 0) run from the start; shard 1's (2 and 3) only once the ramp reaches them
  assert.ok(docs[0].stages[0].summary.transactions > 0)
  assert.equal(docs[1].stages[0].summary.transactions, 0)
  assert.ok(docs[1].stages[1].summary.transactions > 0)
  assertStagesAddUp(merged)
})

test('--ramp: the terminals start evenly over it, so the first second carries about half of a full one', async () => {
  // 4 terminals over 2 s start at 0, 0.5, 1 and 1.5 s: 1.5 terminal-seconds in the first second
  // against 4 once all run (the third); without --ramp all 4 start at once
  const out = join(dir, 'ramp.json')
  const r = await runCli(['run', script, '--url', server.url, '-c', '4', '--ramp', '2s', '-T', '4', '-n', '-o', out])
  assert.equal(r.code, 0, r.stderr)
  const counts = read(out).intervals.map((iv) => Object.values(iv.count).reduce((a, b) => a + b, 0))
  assert.ok(counts[2] > 0 && counts[0] < 0.6 * counts[2], `per second: ${counts.join(', ')}`)
  assert.ok(counts[1] > counts[0], `per second: ${counts.join(', ')}`)
})
