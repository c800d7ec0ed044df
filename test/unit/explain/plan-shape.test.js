// EXPLAIN's JSON plans as pgload shows and compares them: labels as EXPLAIN's text names nodes,
// the text tree, and a change of shape (node types, relations, indexes), not of costs or times.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { nodeLabel, planText, planShape, planChange, planFigures } from '../../../lib/explain/plan-shape.js'

const indexPlan = {
  Plan: { 'Node Type': 'Index Scan', 'Index Name': 'accounts_pkey', 'Relation Name': 'accounts', Alias: 'accounts', 'Startup Cost': 0.29, 'Total Cost': 8.31, 'Plan Rows': 1, 'Plan Width': 4, 'Actual Startup Time': 0.01, 'Actual Total Time': 0.012, 'Actual Rows': 1, 'Actual Loops': 1, 'Index Cond': '(aid = 5)', 'Shared Hit Blocks': 3, 'Shared Read Blocks': 0 },
  'Planning Time': 0.05,
  'Execution Time': 0.03
}
const seqPlan = {
  Plan: { 'Node Type': 'Seq Scan', 'Relation Name': 'accounts', Alias: 'accounts', 'Startup Cost': 0, 'Total Cost': 2890, 'Plan Rows': 1, 'Plan Width': 4, Filter: '(aid = 5)' },
  'Execution Time': 12.5
}

test('node labels as EXPLAIN\'s text format writes them', () => {
  assert.equal(nodeLabel(indexPlan.Plan), 'Index Scan using accounts_pkey on accounts')
  assert.equal(nodeLabel({ 'Node Type': 'ModifyTable', Operation: 'Update', 'Relation Name': 't', Alias: 't' }), 'Update on t')
  assert.equal(nodeLabel({ 'Node Type': 'Hash Join', 'Join Type': 'Left' }), 'Hash Left Join')
  assert.equal(nodeLabel({ 'Node Type': 'Nested Loop', 'Join Type': 'Anti' }), 'Nested Loop Anti Join')
  assert.equal(nodeLabel({ 'Node Type': 'Aggregate', Strategy: 'Hashed' }), 'HashAggregate')
  assert.equal(nodeLabel({ 'Node Type': 'Seq Scan', 'Parallel Aware': true, 'Relation Name': 'big', Alias: 'b' }), 'Parallel Seq Scan on big b')
})

test('the text tree: nodes with costs and actual figures, conditions, buffers and times', () => {
  const join = { Plan: { 'Node Type': 'Nested Loop', 'Join Type': 'Inner', 'Startup Cost': 0, 'Total Cost': 10, 'Plan Rows': 1, 'Plan Width': 8, Plans: [indexPlan.Plan, seqPlan.Plan] } }
  assert.equal(planText(join), [
    'Nested Loop  (cost=0..10 rows=1 width=8)',
    '  ->  Index Scan using accounts_pkey on accounts  (cost=0.29..8.31 rows=1 width=4) (actual time=0.01..0.012 rows=1 loops=1)',
    '        Index Cond: (aid = 5)',
    '        Buffers: shared hit=3',
    '  ->  Seq Scan on accounts  (cost=0..2890 rows=1 width=4)',
    '        Filter: (aid = 5)'
  ].join('\n'))
  assert.match(planText(indexPlan), /\nPlanning Time: 0.05 ms\nExecution Time: 0.03 ms$/)
  assert.deepEqual(planFigures(seqPlan), { totalMs: 12.5, topNode: 'Seq Scan on accounts' })
})

test('a changed shape names the scan that differs, else the first node; costs and times alone change nothing', () => {
  assert.equal(planChange(indexPlan, seqPlan), 'Index Scan using accounts_pkey on accounts -> Seq Scan on accounts')
  const slower = structuredClone(indexPlan)
  slower.Plan['Total Cost'] = 99
  slower.Plan['Actual Total Time'] = 50
  slower['Execution Time'] = 50
  assert.equal(planChange(indexPlan, slower), null)
  const wrapped = { Plan: { 'Node Type': 'Limit', Plans: [indexPlan.Plan] } }
  assert.deepEqual(planShape(wrapped), ['0:Limit', '1:Index Scan using accounts_pkey on accounts'])
  // the same scans under another node: that node is the change
  assert.equal(planChange(indexPlan, wrapped), 'Index Scan using accounts_pkey on accounts -> Limit')
  const extra = { Plan: { ...indexPlan.Plan, Plans: [seqPlan.Plan] } }
  assert.equal(planChange(indexPlan, extra), '(nothing) -> Seq Scan on accounts')
  const update = (scan) => ({ Plan: { 'Node Type': 'ModifyTable', Operation: 'Update', 'Relation Name': 'accounts', Plans: [scan.Plan] } })
  assert.equal(planChange(update(indexPlan), update(seqPlan)), 'Index Scan using accounts_pkey on accounts -> Seq Scan on accounts')
})
