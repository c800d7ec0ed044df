// compare's plans: a statement replayed in A and B (same type, same SQL) whose plan changed shape
// is named with the change, in the text and markdown; costs and timings alone are no change.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { planChanges, planChangeLines } from '../../../lib/compare/plan-changes.js'
import { formatCompareText, formatCompareMarkdown } from '../../../lib/compare/format.js'

const SQL = 'SELECT abalance FROM pgbench_accounts WHERE aid = $1;'
const indexScan = (ms) => ({ Plan: { 'Node Type': 'Index Scan', 'Index Name': 'pgbench_accounts_pkey', 'Relation Name': 'pgbench_accounts', Alias: 'pgbench_accounts', 'Total Cost': 8.3 }, 'Execution Time': ms })
const seqScan = { Plan: { 'Node Type': 'Gather', Plans: [{ 'Node Type': 'Seq Scan', 'Parallel Aware': true, 'Relation Name': 'pgbench_accounts', Alias: 'pgbench_accounts' }] }, 'Execution Time': 40 }

/** A results document whose `reads` type's slowest transaction replayed `plan` for SQL (command 1, line 2). */
function doc (plan, sql = SQL) {
  return { slowest: { available: true, perType: 1, explain: 'ANALYZE', types: { reads: [{ latencyMs: 5, statements: [{ command: 0, line: 1, sql: 'BEGIN;', parameters: [], reason: 'BEGIN is not a statement EXPLAIN takes' }, { command: 1, line: 2, sql, parameters: ['7'], plan, totalMs: plan['Execution Time'], topNode: 'x' }] }] } } }
}

test('a plan whose shape changed is named: the scan that differs, A -> B', () => {
  const changes = planChanges([doc(indexScan(0.02))], [doc(seqScan)])
  assert.deepEqual(changes, [{ type: 'reads', statement: 2, line: 2, sql: SQL, change: 'Index Scan using pgbench_accounts_pkey on pgbench_accounts -> Parallel Seq Scan on pgbench_accounts' }])
  assert.deepEqual(planChangeLines({ plans: changes }), ['plan changed for reads statement 2 (line 2): Index Scan using pgbench_accounts_pkey on pgbench_accounts -> Parallel Seq Scan on pgbench_accounts'])
})

test('no change: the same shape at other costs and times, another statement, or a side without plans', () => {
  assert.deepEqual(planChanges([doc(indexScan(0.02))], [doc(indexScan(9))]), [])
  assert.deepEqual(planChanges([doc(indexScan(0.02))], [doc(seqScan, 'SELECT 1;')]), [])
  assert.deepEqual(planChanges([doc(indexScan(0.02))], [{}]), [])
  assert.deepEqual(planChanges([doc(indexScan(0.02))], [{ slowest: { available: false, perType: 1, reason: 'x' } }]), [])
})

test('the text and markdown verdicts carry the line', () => {
  const v = { a: { files: ['a.json'], runs: 1 }, b: { files: ['b.json'], runs: 1 }, method: 'm', noise: 0.02, alpha: 0.05, confidence: 0.95, warnings: [], rows: [], regressions: 0, improvements: 0, differences: { blocking: [], informative: [], settings: [] }, explanation: [], plans: planChanges([doc(indexScan(0.02))], [doc(seqScan)]) }
  assert.match(formatCompareText(v), /^plan changed for reads statement 2 \(line 2\): Index Scan using pgbench_accounts_pkey on pgbench_accounts -> Parallel Seq Scan on pgbench_accounts$/m)
  assert.match(formatCompareMarkdown(v), /^- plan changed for reads statement 2 \(line 2\): Index Scan using pgbench_accounts_pkey on pgbench_accounts -> Parallel Seq Scan on pgbench_accounts$/m)
})
