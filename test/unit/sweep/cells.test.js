import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spread, summariseCells } from '../../../lib/sweep/cells.js'

test('spread: median with minimum and maximum; missing figures left out', () => {
  assert.deepEqual(spread([1250, 1200, 1230]), { median: 1230, min: 1200, max: 1250 })
  assert.deepEqual(spread([5.1, 6.0]), { median: 5.55, min: 5.1, max: 6.0 }, 'an even count: the mean of the middle two')
  assert.deepEqual(spread([0.1, 0.2]), { median: 0.15, min: 0.1, max: 0.2 }, 'no float noise')
  assert.deepEqual(spread([3, null, 1, undefined, 2]), { median: 2, min: 1, max: 3 })
  assert.deepEqual(spread([null]), { median: null, min: null, max: null })
  assert.deepEqual(spread([]), { median: null, min: null, max: null })
})

const run = (scale, clients, status, tps, p99Ms, extra = {}) => ({
  cell: { scale, clients, rate: null }, status, tps, p50Ms: tps / 1000, p99Ms, maxMs: p99Ms * 2, dbSizeBytes: 1000 * scale, ...extra
})

test('cells: only done runs count, in grid order, one per cell with at least one done run', () => {
  const runs = [
    run(10, 1, 'done', 900, 4),
    run(1, 4, 'done', 1200, 6),
    run(1, 4, 'done', 1250, 5.1),
    run(1, 4, 'interrupted', 50, 99),
    run(1, 4, 'done', 1230, 5.6),
    run(1, 1, 'failed', 10, 500),
    run(1, 2, 'pending', null, null),
    run(10, 1, 'done', 1000, 3, { dbSizeBytes: 12000 })
  ]
  const cells = summariseCells(runs)
  assert.deepEqual(cells.map((c) => [c.cell.scale, c.cell.clients, c.runs]), [[1, 4, 3], [10, 1, 2]])
  assert.deepEqual(cells[0].tps, { median: 1230, min: 1200, max: 1250 })
  assert.deepEqual(cells[0].p99Ms, { median: 5.6, min: 5.1, max: 6 })
  assert.deepEqual(cells[0].maxMs, { median: 11.2, min: 10.2, max: 12 })
  assert.deepEqual(cells[0].p50Ms, { median: 1.23, min: 1.2, max: 1.25 })
  assert.equal(cells[0].dbSizeBytes, 1000)
  assert.deepEqual(cells[1].tps, { median: 950, min: 900, max: 1000 })
  assert.equal(cells[1].dbSizeBytes, 11000, 'the median size, whole bytes')
})
