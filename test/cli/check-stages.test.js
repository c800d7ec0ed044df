// `check` on one stage of a staged run (`stage(N): ...`): the stage's own figures, and one line
// with exit 1 for a stage the run does not have or a run without stages.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../helpers/cli.js'
import { stagedResults } from '../helpers/staged-results.js'
import { evaluateThresholds, parseThreshold } from '../../lib/compare/thresholds/evaluate.js'
import { intervalsWithin } from '../../lib/compare/thresholds/window-view.js'
import { mergeHistograms, percentileMs } from '../../lib/metrics/histogram.js'

const FIXTURE = new URL('../fixtures/results/recorded-tpcb.json', import.meta.url).pathname

test('stage(N): parsed before the metric; a bad stage number is a syntax error', () => {
  assert.equal(parseThreshold('stage(3): p(99) < 50ms').stage, 3)
  assert.equal(parseThreshold('stage(2): latency{txn:tpcb-like}: p(95) < 50ms').txn, 'tpcb-like')
  assert.equal(parseThreshold('p(99) < 50ms').stage, null)
  assert.throws(() => parseThreshold('stage(0): p(99) < 5ms'), /expected a stage number from 1/)
  assert.throws(() => parseThreshold('stage(2) p(99) < 5ms'), /':' after stage\(N\)/)
})

test('a stage threshold reads the stage, not the run: its p(99) from its own intervals', () => {
  const doc = stagedResults()
  const own = (n) => {
    const s = doc.stages[n - 1]
    const iv = intervalsWithin(doc, s.startS, s.startS + s.lengthS)
    return percentileMs(mergeHistograms(iv.map(x => x.histograms['tpcb-like'])), 99)
  }
  const [whole, s1, s3] = evaluateThresholds(doc, ['p(99) < 1000ms', 'stage(1): p(99) < 1000ms', 'stage(3): p(99) < 1000ms'])
  assert.equal(s1.actual, own(1))
  assert.equal(s3.actual, own(3))
  assert.notEqual(s1.actual, whole.actual)
  const [count] = evaluateThresholds(doc, ['stage(2): latency: count > 0'])
  assert.equal(count.actual, doc.stages[1].summary.transactions)
  // a window inside a stage: only that stage's intervals
  const [win] = evaluateThresholds(doc, ['stage(2): p(99)[1s] < 1000ms'])
  assert.ok(win.window.endS <= doc.stages[1].lengthS + 1e-9, JSON.stringify(win.window))
})

test('check names a stage: pass, fail (99), and one line with exit 1 for a missing stage or a run without stages', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pgload-check-stages-'))
  try {
    const file = join(dir, 'staged.json')
    writeFileSync(file, JSON.stringify(stagedResults()))
    const ok = await runCli(['check', file, '--threshold', 'stage(3): p(99) < 10s'])
    assert.equal(ok.code, 0, ok.stderr)
    assert.match(ok.stdout, /ok\s+stage\(3\): p\(99\) < 10s/)
    const fail = await runCli(['check', file, '--threshold', 'stage(1): p(99) < 1us'])
    assert.equal(fail.code, 99, fail.stderr)
    const missing = await runCli(['check', file, '--threshold', 'stage(4): p(99) < 50ms'])
    assert.equal(missing.code, 1)
    assert.equal(missing.stderr.trim(), `pgload: --threshold 'stage(4): p(99) < 50ms': ${file}: run has no stage 4: it has 3 stages`)
    const none = await runCli(['check', FIXTURE, '--threshold', 'stage(1): p(99) < 50ms'])
    assert.equal(none.code, 1)
    assert.equal(none.stderr.trim(), `pgload: --threshold 'stage(1): p(99) < 50ms': ${FIXTURE}: run has no stages (it ran without --stages or --clients-stages)`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
