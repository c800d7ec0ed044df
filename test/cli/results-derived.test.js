// Derived figures that contradict what they derive from (a tps of 1e308 with 1,552 transactions
// in 8 s, a p99 its histograms do not hold, a tpmC its New-Orders do not give): report, compare,
// check and store refuse each in one line naming the file, the field and both values, exit 1;
// the real files they are doctored from are accepted by all four.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runCli } from '../helpers/cli.js'
import { testResultsDatabase } from '../helpers/results-db.js'
import { stagedResults } from '../helpers/staged-results.js'

const fixture = (name) => JSON.parse(readFileSync(fileURLToPath(new URL(`../fixtures/results/${name}`, import.meta.url)), 'utf8'))
const dir = mkdtempSync(join(tmpdir(), 'pgload-results-derived-'))
let db

/** A capacity section over the staged document's stages, its figures as the search writes them. */
function withCapacity () {
  const doc = stagedResults()
  const steps = doc.stages.map((s, i) => {
    const n = s.summary.transactions
    const scheduled = n + 3
    const { p50, p90, p99, max } = s.summary.latencyMs
    const step = { index: i + 1, stage: i, phase: 'geometric', offeredRate: s.target.to, startS: s.startS, fromS: s.startS, toS: s.startS + s.lengthS }
    const figures = { achievedRate: Math.round(n / s.lengthS * 100) / 100, transactions: n, failed: 0, dropped: 0, scheduled }
    return { ...step, ...figures, behind: Math.round((1 - n / scheduled) * 10000) / 10000, latencyMs: { p50, p90, p99, max } }
  })
  doc.capacity = { steps, answer: { limit: 'server', rate: 200, achievedRate: steps[1].achievedRate, heldStep: 2, nextRate: 300, nextStep: 3 } }
  return doc
}

const REAL = {
  tpcb: () => fixture('recorded-tpcb.json'),
  tpcc: () => fixture('recorded-tpcc-short.json'),
  staged: () => stagedResults(),
  capacity: withCapacity
}

// [real file, field, doctor, what the line says after "FIELD is VALUE, but " (a RegExp: matched)]
const DOCTORED = [
  ['tpcb', 'summary.tps', (d) => { d.summary.tps = 1e308 }, '1552 transactions over 8.053 s (run.durationS) give 192.723'],
  ['tpcb', 'run.durationS', (d) => { d.run.durationS = 1e308 }, 'the intervals end at t = 8.053 s'],
  ['tpcb', 'intervals[2].tps', (d) => { d.intervals[2].tps = 1e308 }, /^\d+ transactions over 1 s \(intervals\[2\]\.lengthS\) give [\d.]+$/],
  ['tpcb', 'transactions.tpcb-like.tps', (d) => { d.transactions['tpcb-like'].tps = 1e308 }, '1552 transactions over 8.053 s (run.durationS) give 192.723'],
  ['tpcb', 'summary.latencyMs.p99', (d) => { d.summary.latencyMs.p99 = d.summary.latencyMs.p95 }, /^the transactions histograms added gives [\d.]+ ms$/],
  ['tpcb', 'transactions.tpcb-like.latencyMs.p50', (d) => { d.transactions['tpcb-like'].latencyMs.p50 *= 2 }, /^transactions\.tpcb-like\.histogram gives [\d.]+ ms$/],
  ['tpcb', 'summary.lagMs.p99', (d) => { d.summary.lagMs.p99 = d.summary.lagMs.max * 3 + 1 }, /^summary\.lagMs\.max is [\d.]+$/],
  ['tpcb', 'intervals[3].latencyMs.p90', (d) => { d.intervals[3].latencyMs.p90 = 1e308 }, /^intervals\[3\]\.latencyMs\.max is [\d.]+$/],
  ['tpcb', 'summary.failed', (d) => { d.summary.failed = 7 }, 'transactions.*.failed add up to 0'],
  ['tpcc', 'tpcc.tpmC', (d) => { d.tpcc.tpmC = 1e308 }, '4 committed New-Orders (transactions.new-order.count - transactions.new-order.rollbacks) over 20.003 s (run.durationS) give 11.998'],
  ['tpcc', 'tpcc.efficiency', (d) => { d.tpcc.efficiency = 1e308 }, 'tpmC 12 over 1 warehouse (12.86 each) gives 93.313 %'],
  ['staged', 'stages[1].summary.tps', (d) => { d.stages[1].summary.tps = 1e308 }, /^\d+ transactions over 3 s \(stages\[1\]\.lengthS\) give [\d.]+$/],
  ['staged', 'stages[2].summary.latencyMs.p99', (d) => { d.stages[2].summary.latencyMs.p99 = d.stages[2].summary.latencyMs.p95 }, /^the stages\[2\]\.transactions histograms added gives [\d.]+ ms$/],
  // stage 1 twice: each stage consistent in itself, the stages no longer the run
  ['staged', 'summary.transactions', (d) => { for (const k of ['summary', 'transactions', 'achievedTps']) d.stages[0][k] = d.stages[1][k] }, /^the stages' transactions add up to \d+$/],
  ['capacity', 'capacity.steps[1].achievedRate', (d) => { d.capacity.steps[1].achievedRate = 1e308 }, /^\d+ transactions over 3 s \(capacity\.steps\[1\]\.fromS to toS\) give [\d.]+$/],
  ['capacity', 'capacity.answer.rate', (d) => { d.capacity.answer.rate = 1e308 }, 'step 2 offered 200']
]

/** The four readers' command lines on one file. */
function commandLines (file, real, out) {
  return {
    report: ['report', file, '-o', out],
    compare: ['compare', real, file, '--force', '--iterations', '20'],
    check: ['check', file, '--threshold', 'tps > 0', '--allow-empty'],
    store: ['store', file, '--results-url', db.url]
  }
}

const realFiles = {}
before(async () => {
  db = await testResultsDatabase()
  for (const [name, make] of Object.entries(REAL)) {
    realFiles[name] = join(dir, `${name}.json`)
    writeFileSync(realFiles[name], JSON.stringify(make()))
  }
})

after(async () => {
  await db?.drop()
  rmSync(dir, { recursive: true, force: true })
})

test('the real files (a run, a TPC-C run, a staged run, a capacity search) are accepted by report, compare, check and store', async () => {
  for (const [name, file] of Object.entries(realFiles)) {
    for (const [command, args] of Object.entries(commandLines(file, file, join(dir, `report-${name}`)))) {
      const r = await runCli(args)
      assert.equal(r.code, 0, `${command} ${name}: exit ${r.code}\n${r.stderr}`)
    }
  }
})

for (const [real, field, doctor, says] of DOCTORED) {
  test(`${field} doctored (${real}): report, compare, check and store exit 1 with one line naming it and both values`, async () => {
    const doc = REAL[real]()
    doctor(doc)
    const file = join(dir, `${real}-${field.replace(/\W+/g, '-')}.json`)
    writeFileSync(file, JSON.stringify(doc))
    const lines = commandLines(file, realFiles[real], join(dir, 'report-doctored'))
    const runs = await Promise.all(Object.entries(lines).map(async ([command, args]) => [command, await runCli(args)]))
    for (const [command, r] of runs) {
      assert.equal(r.code, 1, `${command}: exit ${r.code}\n${r.stderr}`)
      assert.equal(r.stdout, '', command)
      const text = r.stderr.split('\n').filter((l) => l && !l.startsWith('pgload: 1 of 1 files could not be stored'))
      assert.equal(text.length, 1, `${command}: one line, got:\n${r.stderr}`)
      const prefix = `pgload: ${file}: ${field} is `
      assert.ok(text[0].startsWith(prefix), `${command}: ${text[0]}`)
      const why = text[0].slice(prefix.length).replace(/^[^,]*, but /, '')
      if (says instanceof RegExp) assert.match(why, says, command)
      else assert.equal(why, says, command)
    }
  })
}
