// The summary of a CH-benCHmark run names both halves of its mix in its header.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { formatSummary } from '../../../lib/output/summary.js'

const recorded = () => JSON.parse(readFileSync(new URL('../../fixtures/results/recorded-chbench-k1.json', import.meta.url), 'utf8'))

test('the header names TPC-C and the analytic queries with their streams', () => {
  const out = formatSummary(recorded())
  assert.match(out, /^transaction type: CH-benCHmark: TPC-C \(5 types\) \+ 22 analytic queries on 1 stream$/m)
})

test('a run with no stream says so in the header', () => {
  const doc = recorded()
  doc.chbench.streams = 0
  assert.match(formatSummary(doc), /^transaction type: CH-benCHmark: TPC-C \(5 types\), no analytic stream$/m)
})

test('processed and tps count TPC-C\'s transactions apart from the analytic queries', () => {
  const doc = recorded()
  const out = formatSummary(doc)
  const queries = Object.keys(doc.transactions).filter((t) => /^q\d+$/.test(t))
  const count = (names) => names.reduce((n, t) => n + doc.transactions[t].count, 0)
  const tpcc = Object.keys(doc.transactions).filter((t) => !queries.includes(t))
  assert.ok(count(queries) > 0)
  assert.match(out, new RegExp(`^number of transactions actually processed: ${count(tpcc)} TPC-C transactions \\+ ${count(queries)} analytic queries$`, 'm'))
  const tps = tpcc.reduce((n, t) => n + doc.transactions[t].tps, 0)
  assert.match(out, new RegExp(`^tps = ${tps.toFixed(6)} \\(TPC-C transactions, without initial connection time\\)$`, 'm'))
  assert.match(out, /^analytic queries per second = \d+\.\d{6}$/m)
})

test('the answers line says which queries were checked and warns of one that changed', () => {
  const doc = recorded()
  for (const [name, q] of Object.entries(doc.chbench.perQuery)) q.answer = { checksum: '00', agreed: 2, differing: [], checked: name === 'q16' }
  assert.match(formatSummary(doc), /^answers checked: q16 \(the others read what the TPC-C terminals change; --no-tpcc checks all\)$/m)
  doc.chbench.perQuery.q16.answer.differing = [{ checksum: '01', count: 1 }]
  assert.match(formatSummary(doc), /^warning: q16's answer changed: 1 of 3 executions differ from its first$/m)
})
