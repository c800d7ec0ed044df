// A short TPC-C run: every figure of the summary and of the report header either has enough
// data behind it or says it has not, by the one rule of lib/output/enough-data.js.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { formatSummary } from '../../../lib/output/summary.js'
import { runHeaderHtml } from '../../../lib/report/header.js'
import { fewEvents, countSpreadPct, fewForPerTransaction, MIN_EVENTS } from '../../../lib/output/enough-data.js'

const SHORT = fileURLToPath(new URL('../../fixtures/results/recorded-tpcc-short.json', import.meta.url))
const shortRun = () => JSON.parse(readFileSync(SHORT, 'utf8'))

test('the rule: fewer than 100 events or a per-transaction figure under 1,000 transactions at 100 tps say so', () => {
  assert.equal(fewEvents(MIN_EVENTS, 'New-Orders'), null)
  assert.equal(fewEvents(4, 'New-Orders'), 'only 4 New-Orders: too few to settle the figure')
  assert.equal(countSpreadPct(4), 98)
  assert.equal(countSpreadPct(100), 20)
  assert.equal(fewForPerTransaction(1000, 10), null)
  assert.equal(fewForPerTransaction(7, 20), '7 transactions at 0.3 tps: too few for a per-transaction figure')
  assert.match(fewForPerTransaction(999, 1), /too few/)
})

test('short TPC-C run: efficiency above its ceiling says how few New-Orders it rests on', () => {
  const doc = shortRun()
  // 5 New-Orders in 20 s is 15 tpmC, 116.6 % of 12.86: above the 98 % these waits allow
  doc.transactions['new-order'].count = 5
  doc.tpcc.tpmC = 15
  doc.tpcc.efficiency = 116.6
  const lines = formatSummary(doc).split('\n')
  const i = lines.findIndex((l) => l.startsWith('efficiency = 116.6%'))
  // the ceiling is an average the short window cannot be held to: said so, not "at most" beside 116.6
  assert.doesNotMatch(lines[i], /at most/)
  assert.match(lines[i], /; above the 98\.0% these waits and this mix allow on average, by chance: the New-Orders of a finite window vary around that average$/)
  assert.equal(lines[i + 1], '  only 5 New-Orders committed in the window: too few to settle tpmC, NOPM and efficiency (a count this small varies by ±88 % by chance alone); run longer')
})

test('short TPC-C run: no per-transaction figure after the CPU line says there are too few', () => {
  const text = formatSummary(shortRun())
  assert.match(text, /^client CPU = .*7 transactions at 0\.3 tps: too few for a per-transaction figure\)$/m)
  assert.match(text, /^driver thread: on a CPU 0% of the run, waiting for one 1%$/m)
  assert.doesNotMatch(text, /us per transaction/)
})

test('short TPC-C run: deferred Delivery says it counts the ramp-up, which the type table (the window) does not', () => {
  const lines = formatSummary(shortRun()).split('\n')
  const row = lines.find((l) => /^delivery\s+0\.0\s/.test(l))
  assert.ok(row, 'the type table shows no Delivery in the window')
  assert.ok(lines.includes('deferred Delivery, since the start of the run (the 40 s ramp-up included): 1 of 1 completed, queue to completion p90 31.375 ms, 100% within 80 s: pass (only 1 completed: too few to settle the verdict)'), lines.join('\n'))
})

test('short TPC-C run: response-time verdicts and rollbacks on a handful of transactions say so', () => {
  const lines = formatSummary(shortRun()).split('\n')
  const i = lines.indexOf('response times (clause 5.2.5.3, 90th percentile per type): pass')
  assert.deepEqual(lines.slice(i + 1, i + 3), [
    '  only 4 new-order transactions: too few to settle its 90th percentile',
    '  only 3 payment transactions: too few to settle its 90th percentile'
  ])
  assert.ok(lines.includes('rollbacks: 0% of New-Orders (spec: about 1%), 0% of all transactions; only 4 New-Orders: too few to settle the share'))
})

test('HTML report header: a type with no transactions has no response-time verdict, a thin one says so', () => {
  const html = runHeaderHtml(shortRun(), null)
  const rows = [...html.matchAll(/<tr><th scope="row">([a-z-]+)<\/th><td>[^<]*<\/td><td>[^<]*<\/td><td>([^<]*)<\/td><\/tr>/g)].map((m) => [m[1], m[2]])
  const verdict = Object.fromEntries(rows)
  assert.equal(verdict['order-status'], '–')
  assert.equal(verdict.delivery, '–')
  assert.equal(verdict['stock-level'], '–')
  assert.equal(verdict['new-order'], 'within limit (only 4 transactions: too few to settle it)')
  assert.match(html, /only 4 New-Orders committed in the window: too few to settle tpmC, NOPM and efficiency/)
  assert.doesNotMatch(html, /us CPU per transaction/)
})

test('TPC-C efficiency against its ceiling: "at most" only where the figure is within it', async () => {
  const { efficiencyCeilingText } = await import('../../../lib/output/tpcc-summary.js')
  assert.equal(efficiencyCeilingText({ efficiency: 93.3, efficiencyCeiling: 98.02 }), 'these waits and this mix allow at most 98.0%')
  assert.match(efficiencyCeilingText({ efficiency: 101.1, efficiencyCeiling: 98.02 }), /^above the 98\.0% these waits and this mix allow on average, by chance/)
  assert.equal(efficiencyCeilingText({ efficiency: 50, efficiencyCeiling: null }), '')
})

test('one transaction is "1 transaction"', () => {
  assert.equal(fewForPerTransaction(1, 10), '1 transaction at 0.1 tps: too few for a per-transaction figure')
})
