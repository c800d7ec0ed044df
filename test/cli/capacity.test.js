// `pgload capacity`: a server of known capacity found (at most its 400 tps, at least 80 % of a closed loop of it), in one run, written as a
// results document the other commands read; bad input stops in one line before any connection.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli, assertOneLineError } from '../helpers/cli.js'
import { getTestServer } from '../helpers/server.js'

// nothing listens there: a bad option must be refused before the connection is tried
const UNREACHABLE = 'postgres://nobody@127.0.0.1:1/none'

function assertRefusedBeforeConnecting (r, pattern) {
  assertOneLineError(r, pattern)
  assert.doesNotMatch(r.stderr, /could not connect|ECONNREFUSED/)
}

const bad = [
  [['--clients', '4'], /capacity needs --until/],
  [['--until', 'p(99) < 20ms', '--rate', '100'], /capacity does not take --rate: capacity sets the arrival rate itself/],
  [['--until', 'p(99) < 20ms', '-T', '10s'], /capacity does not take --duration/],
  [['--until', 'p(99) < +10%'], /--until 'p\(99\) < \+10%': a relative limit needs a baseline/],
  [['--until', 'tpmC > 5'], /tpmC is a whole-run figure/],
  [['--until', 'p(99) <'], /--until 'p\(99\) <': expected a number/],
  [['--until', 'p(99) < 20ms', '--step', '0s'], /--step must be at least 2 intervals/],
  [['--until', 'p(99) < 20ms', '--growth', '1'], /--growth must be a number > 1 and <= 1000/],
  [['--until', 'p(99) < 20ms', '--behind', '150'], /--behind must be a percentage between 0 and 100/],
  [['--until', 'p(99) < 20ms', '--start-rate', '500', '--max-rate', '100'], /--max-rate \(100\) is below --start-rate \(500\)/],
  [['--until', 'p(99) < 20ms', '-j', '2'], /capacity does not take --jobs/],
  [['--until', 'p(99) < 20ms', '--stages', '10s:100'], /capacity does not take --stages: capacity makes its own stages/]
]

for (const [args, pattern] of bad) {
  test(`capacity ${args.join(' ')}: one line, exit 1, no connection`, async () => {
    const r = await runCli(['capacity', 'tpcb', '--url', UNREACHABLE, ...args], { timeoutMs: 30_000 })
    assertRefusedBeforeConnecting(r, pattern)
  })
}

test('capacity of 4 connections each sleeping 10 ms (at most 400 tps, as a closed loop of them measures now) is found: at most 400 (+5 %), at least 80 % of the closed loop', { timeout: 120_000 }, async () => {
  const { url } = await getTestServer()
  const dir = mkdtempSync(join(tmpdir(), 'pgload-capacity-'))
  try {
    writeFileSync(join(dir, 'sleep.sql'), 'SELECT pg_sleep(0.01);\n')
    // The script's capacity by construction is 400 tps (4 connections, 10 ms each) less what the
    // round trips cost on this machine now: a closed-loop run of the same 4 measures it, so a
    // machine busy with other work does not pass for a wrong answer.
    const closedOut = join(dir, 'closed.json')
    const closed = await runCli(['run', join(dir, 'sleep.sql'), '--url', url, '--clients', '4', '--duration', '3s', '--no-vacuum', '-o', closedOut], { timeoutMs: 60_000 })
    assert.equal(closed.code, 0, closed.stderr)
    const reference = JSON.parse(readFileSync(closedOut, 'utf8')).summary.tps
    assert.ok(reference <= 408, `a closed loop of 4 x 10 ms cannot exceed 400 tps: ${reference}`)
    const out = join(dir, 'capacity.json')
    // p(99) < 150ms: a step past the capacity fails on its shortfall and on its queue (a deficit of
    // 4 % for 3 s already queues 150 ms), while a step well under it is not failed by a machine
    // that stalls for 100 ms under other tests' load (p(99) 103 ms at 283 of 371 tps was seen).
    const r = await runCli(['capacity', join(dir, 'sleep.sql'), '--url', url, '--until', 'p(99) < 150ms', '--clients', '4',
      '--step', '4s', '--settle', '1s', '--start-rate', '100', '--precision', '5', '--no-vacuum', '-o', out], { timeoutMs: 110_000 })
    assert.equal(r.code, 0, r.stderr)
    const doc = JSON.parse(readFileSync(out, 'utf8'))
    const { answer, steps } = doc.capacity
    assert.equal(answer.limit, 'server', answer.line)
    // above, at most the 400 tps of the construction with the 5 % shortfall a step may have (the
    // closed loop, measured at another moment of a loaded machine, can read lower: 363 against a
    // held 400 was seen); below, at most a third under the closed loop: a stall of the machine
    // shared with other test files can fail a held step, and the bisection then settles one
    // step lower; an answer of the geometric steps below (100, 200) stays out
    assert.ok(answer.rate <= 420 && answer.rate >= 0.67 * reference,
      `capacity ${answer.rate} tps, expected at most 420 and at least 67 % of the closed loop's ${reference}: ${answer.line}`)
    assert.match(r.stdout, /^capacity: \d{3} tps sustained with p\(99\) [\d.]+ ms \(next step \d{3} tps: /m)
    // every step printed and recorded, the geometric ones first
    assert.deepEqual(steps.slice(0, 3).map(s => s.offeredRate), [100, 200, 400])
    assert.equal(steps.filter(s => !s.held).length > 0, true)
    for (const s of steps) assert.match(r.stdout, new RegExp(`^\\s+${s.index}\\s+${s.offeredRate}\\s`, 'm'))
    // each step a stage of the run: its rate the stage's target, the stages adding up to the run
    assert.equal(doc.stages.length, steps.length)
    steps.forEach((s, i) => {
      assert.equal(s.stage, i)
      assert.equal(doc.stages[i].target.to, s.offeredRate)
      assert.equal(doc.stages[i].kind, 'rate')
    })
    assert.equal(doc.stages.reduce((n, st) => n + st.summary.transactions, 0), doc.summary.transactions)
    assert.equal(doc.stages.reduce((n, st) => n + st.dropped, 0), doc.summary.dropped)
    // a results document like any other: check reads it, stage by stage too
    const c = await runCli(['check', out, '--threshold', 'p(99) < 3600s', '--threshold', `stage(${steps.length}): p(99) < 3600s`], { timeoutMs: 30_000 })
    assert.equal(c.code, 0, c.stderr)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
