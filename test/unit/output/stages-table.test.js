// The summary's stages table: a rate stage's row shows its arrivals and their outcomes, adding up.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { formatStages } from '../../../lib/output/stages-table.js'

const stage = (index, summary) => ({
  index,
  kind: 'rate',
  startS: index,
  lengthS: 1,
  target: { from: 100, to: 100 },
  ramp: false,
  offeredTps: 100,
  achievedTps: summary.transactions,
  dropped: summary.dropped,
  summary: { skipped: 0, unfinished: 0, outcomeUnknown: 0, ...summary, latencyMs: { p50: 1, p99: 2 }, lagMs: { p99: 0.5 } }
})

test('a rate stage row: arrivals, then count, failed, dropped and the other outcomes, which add up to them', () => {
  const text = formatStages({ stages: [stage(0, { arrivals: 104, transactions: 100, failed: 0, dropped: 4 }), stage(1, { arrivals: 110, transactions: 90, failed: 12, dropped: 3, unfinished: 2, outcomeUnknown: 3 })] })
  const lines = text.split('\n')
  assert.match(lines[0], /arrivals = count \+ failed \+ dropped \+ other/)
  assert.deepEqual(lines[1].trim().split(/\s+/), ['stage', 'from', 's', 'to', 's', 'target', 'tps', 'offered', 'arrivals', 'achieved', 'count', 'failed', 'dropped', 'other', 'p50', 'p99', 'wait', 'p99'])
  assert.deepEqual(lines[4].trim().split(/\s+/), ['2', '1.0', '2.0', '100', '100.0', '110', '90.0', '90', '12', '3', '5', '1.000', '2.000', '0.500'])
})
