// The summary's lines for transactions neither committed nor failed: unfinished and outcome unknown.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { formatSummary } from '../../../lib/output/summary.js'

const FIXTURE = fileURLToPath(new URL('../../fixtures/results/tpcb-a.json', import.meta.url))
const fixture = () => JSON.parse(readFileSync(FIXTURE, 'utf8'))
const outcomeLines = (results) => formatSummary(results).split('\n').filter((l) => /unfinished|unknown outcome/.test(l))

test('unfinished and outcome-unknown transactions are counted on lines of their own, after the processed ones', () => {
  const results = fixture()
  results.run.options.graceS = 2
  Object.assign(results.summary, { unfinished: 3, outcomeUnknown: 1, unfinishedWaitMs: { mean: 5834.7521, max: 5834.892 } })
  assert.deepEqual(outcomeLines(results), [
    'number of unfinished transactions: 3 (cancelled 2 s after the end; they had waited mean 5834.752 ms, max 5834.892 ms)',
    'number of transactions with unknown outcome: 1 (connection lost after COMMIT was sent, before any reply)'
  ])
  const lines = formatSummary(results).split('\n')
  assert.equal(lines.indexOf(outcomeLines(results)[0]), lines.findIndex((l) => l.startsWith('number of transactions actually processed')) + 1)
})

test('none of them, or a results file from before they were counted: no such lines', () => {
  const results = fixture()
  assert.deepEqual(outcomeLines(results), [])
  Object.assign(results.summary, { unfinished: 0, outcomeUnknown: 0, unfinishedWaitMs: null })
  assert.deepEqual(outcomeLines(results), [])
})

test('unfinished by a second Ctrl-C: the summary says the run was aborted, not that the grace ran out', () => {
  const results = fixture()
  results.run.options.graceS = 10
  Object.assign(results.summary, { unfinished: 4, unfinishedWaitMs: { mean: 120, max: 130 } })
  results.run.cancelled = { grace: 0, abort: 4, timeout: 0 }
  assert.deepEqual(outcomeLines(results), [
    'number of unfinished transactions: 4 (the run was aborted by a second Ctrl-C or SIGTERM: the 4 in flight were cancelled at once; they had waited mean 120.000 ms, max 130.000 ms)'
  ])
  // the grace ran out for some, then a second Ctrl-C cancelled the rest
  results.run.cancelled = { grace: 3, abort: 1, timeout: 0 }
  assert.match(outcomeLines(results)[0], /\(the run was aborted by a second Ctrl-C or SIGTERM: 3 cancelled 10 s after the end, then 1 in flight cancelled at once; /)
  // the grace over, as before
  results.run.cancelled = { grace: 4, abort: 0, timeout: 0 }
  assert.match(outcomeLines(results)[0], /\(cancelled 10 s after the end; /)
})

test('a run that did not end by itself says so on stdout: interrupted, clients that aborted; a window with no transaction says why', () => {
  const results = fixture()
  Object.assign(results.run, { interrupted: true, abortedClients: 7, clients: 8 })
  const lines = formatSummary(results).split('\n')
  assert.ok(lines.includes('run interrupted (Ctrl-C or SIGTERM): the figures cover what was measured until then'), lines.join('\n'))
  assert.ok(lines.includes('number of aborted clients: 7 of 8 (each stopped at its error, on stderr)'))
  const plain = formatSummary(fixture())
  assert.doesNotMatch(plain, /interrupted|aborted clients|no transaction ended/)
  const empty = fixture()
  Object.assign(empty.summary, { transactions: 0, failed: 0, skipped: 0 })
  empty.tpcc = { tpmC: 0 }
  assert.match(formatSummary(empty), /^no transaction ended in the measured window \(\d+ s\): spec-paced TPC-C terminals wait seconds between transactions; run longer \(-T\) or with --no-wait$/m)
})
