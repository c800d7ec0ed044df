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
