// Damaged results files through report, check and compare: exit 1 with one line naming the file
// and the field, never a stack; files the reader accepts are carried through to the end.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runCli } from '../helpers/cli.js'
import { mutate, pathText } from '../unit/results/mutate.js'
import { seededRandom } from '../helpers/seeded-random.js'
import { createHistogram, recordUs, encodeHistogram } from '../../lib/metrics/histogram.js'

const SEED = Number(process.env.PGLOAD_FUZZ_SEED ?? 20261125)
const F = (n) => fileURLToPath(new URL(`../fixtures/compare/${n}.json`, import.meta.url))
const baseText = readFileSync(F('base-1'), 'utf8')
const base = JSON.parse(baseText)
const dir = mkdtempSync(join(tmpdir(), 'pgload-results-damage-'))
process.on('exit', () => rmSync(dir, { recursive: true, force: true }))

/** The three readers' commands on one file; `out` is where report writes. */
function commandLine (command, file, out) {
  if (command === 'report') return ['report', file, '-o', out]
  if (command === 'check') return ['check', file, '--threshold', 'p(99) < 1000ms', '--allow-empty']
  return ['compare', F('base-2'), file, '--force', '--iterations', '50']
}
const COMMANDS = ['report', 'check', 'compare']
// check may end 99 (a threshold failed) or 2 (the results say the run aborted): both are verdicts.
const COMPLETED = { report: [0], check: [0, 2, 99], compare: [0] }

function assertRefused (r, file, where) {
  assert.equal(r.code, 1, `${where}: ${r.stderr}`)
  const lines = r.stderr.split('\n').filter(Boolean)
  assert.equal(lines.length, 1, `${where}: one line, got:\n${r.stderr}`)
  assert.ok(lines[0].startsWith(`pgload: ${file}: `), `${where}: ${lines[0]}`)
}

const damagedFiles = [
  ['corrupt histogram string', (d) => { d.transactions['tpcb-like'].histogram = 'HISTFAAAAx' }, 'transactions.tpcb-like.histogram: not a readable histogram: not base64 (length 10 is not a multiple of 4)'],
  ['intervals: [null]', (d) => { d.intervals = [null] }, 'intervals[0]: expected an object, got null'],
  ['tps: "fast"', (d) => { d.summary.tps = 'fast' }, 'summary.tps: expected a number >= 0 or null, got "fast"'],
  ['latencyMs: null', (d) => { d.summary.latencyMs = null }, 'summary.latencyMs: expected an object, got null']
]

for (const [name, change, message] of damagedFiles) {
  test(`${name}: report, check and compare exit 1 with one line`, async () => {
    const doc = structuredClone(base)
    change(doc)
    const file = join(dir, `${name.replace(/\W+/g, '-')}.json`)
    writeFileSync(file, JSON.stringify(doc))
    for (const command of COMMANDS) {
      const r = await runCli(commandLine(command, file, join(dir, 'out')))
      assertRefused(r, file, `${command} ${name}`)
      assert.equal(r.stderr, `pgload: ${file}: ${message}\n`)
    }
  })
}

test('truncated gzip data: one line', async () => {
  const gz = gzipSync(baseText)
  const file = join(dir, 'cut.json.gz')
  writeFileSync(file, gz.subarray(0, gz.length >> 1))
  const r = await runCli(commandLine('check', file))
  assertRefused(r, file, 'check cut.json.gz')
  assert.equal(r.stderr, `pgload: ${file}: damaged gzip data (unexpected end of file)\n`)
})

test(`a dozen seeded mutations through the commands (seed ${SEED}): refused in one line, or run to the end`, async () => {
  const rnd = seededRandom(SEED)
  let refused = 0
  let accepted = 0
  for (let i = 0; refused < 8 || accepted < 4; i++) {
    assert.ok(i < 200, `seed ${SEED}: not enough refused and accepted mutations`)
    const m = mutate(base, baseText, rnd)
    const command = COMMANDS[i % 3]
    const file = join(dir, `m${i}.json`)
    const out = join(dir, `report-${i}`)
    writeFileSync(file, m.bytes)
    const where = `seed ${SEED}, mutation ${i} (${m.kind}${m.keys ? ` at ${pathText(m.keys)}` : ''}) through ${command}`
    const r = await runCli(commandLine(command, file, out))
    assert.doesNotMatch(r.stderr, /^\s+at /m, `${where}: a stack trace:\n${r.stderr}`)
    if (r.code === 1 && r.stderr.startsWith(`pgload: ${file}: `)) {
      if (refused >= 8) continue
      assertRefused(r, file, where)
      refused++
    } else {
      if (accepted >= 4) continue
      assert.ok(COMPLETED[command].includes(r.code), `${where}: exit ${r.code}\n${r.stderr}`)
      if (command === 'report') assert.ok(existsSync(join(out, 'report.html')), `${where}: no report written`)
      else assert.match(r.stdout, command === 'check' ? /p\(99\) < 1000ms/ : /tps/, where)
      accepted++
    }
  }
})

test('a valid one-sample histogram where the count says 1,552: report, check and compare refuse it in one line', async () => {
  // a real run's file; the true file fails this gate, the contradictory one passed it
  const real = JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/results/recorded-tpcb.json', import.meta.url)), 'utf8'))
  const type = Object.keys(real.transactions)[0]
  const { count } = real.transactions[type]
  const one = createHistogram()
  recordUs(one, 5)
  real.transactions[type].histogram = encodeHistogram(one)
  const file = join(dir, 'one-sample.json')
  writeFileSync(file, JSON.stringify(real))
  const message = `pgload: ${file}: transactions.${type}.histogram: holds 1 value, but transactions.${type}.count is ${count}\n`
  const lines = {
    report: ['report', file, '-o', join(dir, 'one-sample-report')],
    check: ['check', file, '--threshold', 'p(99) < 0.01ms'],
    compare: ['compare', fileURLToPath(new URL('../fixtures/results/recorded-tpcb.json', import.meta.url)), file, '--force', '--iterations', '50']
  }
  for (const [command, args] of Object.entries(lines)) {
    const r = await runCli(args)
    assertRefused(r, file, command)
    assert.equal(r.stderr, message, command)
  }
})
