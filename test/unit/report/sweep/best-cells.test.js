import { test } from 'node:test'
import assert from 'node:assert/strict'
import { sweepShape, cellName } from '../../../../lib/report/sweep/axes.js'
import { bestCells, bestWithin, ladderLimits, parseP99LimitMs, worstP99Ms, msText } from '../../../../lib/report/sweep/best-cells.js'
import { loadSweep, withFailedCell, asRateSweep } from '../../../fixtures/sweep/variants.js'

/** A cell with the given median tps and p99 spread. */
const cell = (clients, tps, p99Median, p99Max) => ({
  cell: { scale: 1, clients, rate: null },
  runs: 3,
  tps: { median: tps, min: tps * 0.9, max: tps * 1.1 },
  p50Ms: { median: p99Median / 4, min: p99Median / 5, max: p99Median / 3 },
  p99Ms: { median: p99Median, min: p99Median * 0.8, max: p99Max },
  dbSizeBytes: 1e7
})

test('per scale: the fastest cell, and the fastest whose worst p99 is within the limit', () => {
  const sweep = loadSweep()
  const { rows, limitNote } = bestCells(sweep, sweepShape(sweep), { p99LimitMs: 10 })
  const named = rows.map((r) => [r.group, r.choice, r.cell && cellName(r.cell.cell)])
  // From the fixture's real figures (tps medians 2,499.7 / 2,036.4 and 3,151.2 / 2,755.1; worst p99 of
  // scale 10 with 16 clients 18.2 ms, with 4 clients 4.98 ms).
  assert.deepEqual(named, [
    ['scale 1', 'fastest', 'scale 1, 4 clients'],
    ['scale 1', 'best with p99 ≤ 10 ms', 'scale 1, 4 clients'],
    ['scale 10', 'fastest', 'scale 10, 16 clients'],
    ['scale 10', 'best with p99 ≤ 10 ms', 'scale 10, 4 clients']
  ])
  assert.match(limitNote, /p99 limit 10 ms \(--p99-limit\), met by the worst repeat/)
})

test('the limit is met by the worst repeat, not the median: a cell with one slow repeat loses', () => {
  const cells = [cell(8, 5000, 8, 12), cell(4, 4000, 6, 9)]
  assert.equal(bestWithin(cells, 10).cell.clients, 4)
  assert.equal(bestWithin(cells, 12).cell.clients, 8)
  assert.equal(bestWithin(cells, 5), null)
  assert.equal(worstP99Ms(cells[0]), 12)
  // With no max recorded, the median stands in.
  assert.equal(worstP99Ms({ p99Ms: { median: 7, min: null, max: null } }), 7)
})

test('a limit no cell meets says so with the lowest worst p99', () => {
  const sweep = loadSweep()
  const { rows } = bestCells(sweep, sweepShape(sweep), { p99LimitMs: 1 })
  const scale1 = rows.find((r) => r.group === 'scale 1' && r.limitMs === 1)
  assert.equal(scale1.cell, null)
  const lowest = Math.min(...sweep.cells.filter((c) => c.cell.scale === 1).map((c) => c.p99Ms.max))
  assert.equal(scale1.note, `no cell keeps p99 within 1 ms (lowest worst p99: ${msText(lowest)})`)
})

test('without a limit: the round limits that change the answer, up to the fastest cell\'s', () => {
  const cells = [cell(1, 1000, 1.5, 1.8), cell(2, 1900, 2.5, 3), cell(4, 2600, 4, 4.6), cell(8, 3000, 9, 14), cell(16, 3050, 30, 41)]
  // 2 ms: 1 client; 5 ms: 4 clients (3 ms fits 2 clients, but 5 ms already takes 4); 20 ms: 8; 50 ms: 16.
  assert.deepEqual(ladderLimits(cells), [2, 5, 20, 50])
  const sweep = { ...loadSweep(), axes: { scale: [1], clients: [1, 2, 4, 8, 16], rate: null }, cells, runs: [] }
  const { rows, limitNote } = bestCells(sweep, sweepShape(sweep))
  assert.deepEqual(rows.map((r) => [r.group, r.choice, r.cell.cell.clients]), [
    [null, 'fastest', 16], [null, 'best with p99 ≤ 2 ms', 1], [null, 'best with p99 ≤ 5 ms', 4],
    [null, 'best with p99 ≤ 20 ms', 8], [null, 'best with p99 ≤ 50 ms', 16]
  ])
  assert.match(limitNote, /No --p99-limit given/)
})

test('a cell with no finished run is never chosen', () => {
  const sweep = withFailedCell({ scale: 10, clients: 16 })
  const { rows } = bestCells(sweep, sweepShape(sweep), { p99LimitMs: 100 })
  assert.deepEqual(rows.filter((r) => r.group === 'scale 10').map((r) => cellName(r.cell.cell)), ['scale 10, 4 clients', 'scale 10, 4 clients'])
})

test('one size swept: the rows are not grouped', () => {
  const sweep = asRateSweep()
  const { rows } = bestCells(sweep, sweepShape(sweep), { p99LimitMs: 10 })
  assert.deepEqual(rows.map((r) => r.group), [null, null])
  assert.equal(rows[0].cell.cell.rate, 1000) // the fixture's scale 1, 4 clients, renamed as a rate
})

test('--p99-limit takes a latency with a unit; a bare number is milliseconds', () => {
  assert.equal(parseP99LimitMs('10ms'), 10)
  assert.equal(parseP99LimitMs('0.5s'), 500)
  assert.equal(parseP99LimitMs('800us'), 0.8)
  assert.equal(parseP99LimitMs('25'), 25)
  assert.throws(() => parseP99LimitMs('fast'), { code: 'BAD_OPTION', message: '--p99-limit must be a duration like 30s, 10m or 1h, got "fast"' })
  assert.throws(() => parseP99LimitMs('0'), { code: 'BAD_OPTION', message: '--p99-limit must be a latency above zero like 10ms or 0.5s, got "0"' })
  assert.equal(msText(2000), '2 s')
  assert.equal(msText(0.5), '0.5 ms')
})
