// The report's "Slowest transactions, replayed" section: its wording by count, each statement's
// plan or why it was not replayed.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { slowestHtml } from '../../../lib/report/slowest-html.js'

const plan = { Plan: { 'Node Type': 'Index Scan', 'Relation Name': 'pgbench_accounts', 'Index Name': 'pgbench_accounts_pkey', 'Actual Total Time': 0.016 } }
const doc = (perType, samples) => ({
  slowest: {
    available: true,
    perType,
    explain: 'ANALYZE, BUFFERS, WAL, FORMAT JSON',
    types: {
      'tpcb-like': [{
        latencyMs: 52.4,
        waits: { samples, sampledMs: 20.3, events: [{ event: 'Lock:transactionid', samples }] },
        statements: [
          { line: 5, sql: 'BEGIN;', parameters: [], reason: 'BEGIN is not a statement EXPLAIN takes' },
          { line: 7, sql: 'SELECT abalance FROM pgbench_accounts WHERE aid = $1;', parameters: [57952], plan, topNode: 'Index Scan using pgbench_accounts_pkey on pgbench_accounts', totalMs: 0.016 }
        ]
      }]
    }
  }
})

test('one per type is "the slowest transaction", one sample is one sample', () => {
  const html = slowestHtml(doc(1, 1), null)
  assert.match(html, /The slowest transaction of each type, replayed after the run under EXPLAIN \(ANALYZE, BUFFERS, WAL, FORMAT JSON\)/)
  assert.match(html, /waits sampled in it: Lock:transactionid 1 \(1 sample, about 20\.3 ms\)/)
  assert.match(html, /line 7: <code>SELECT abalance FROM pgbench_accounts WHERE aid = \$1;<\/code> <span class="note">with 57952<\/span>/)
  assert.match(html, /not replayed: BEGIN is not a statement EXPLAIN takes/)
})

test('several per type are counted', () => {
  const html = slowestHtml(doc(3, 4), null)
  assert.match(html, /The 3 slowest transactions of each type/)
  assert.match(html, /\(4 samples, about/)
})
