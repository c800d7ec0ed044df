import { test } from 'node:test'
import assert from 'node:assert/strict'
import { startLine, doneLine, cellTable } from '../../../lib/sweep/format.js'

const run = { repeat: 2, status: 'done' }

test('the line before a run: which cell of how many, how long it runs, the time left', () => {
  const info = { run, text: 'scale 10, clients 4', position: 5, total: 18, leftS: 750, loadsLeft: [] }
  assert.equal(startLine(info, { durationS: 60, warmupS: 10 }, 'scale'), 'pgload sweep: cell 5/18 (scale 10, clients 4, repeat 2): running 1 min after a 10 s warm-up; time left about 12m30s\n')
  assert.equal(startLine({ ...info, leftS: null, loadsLeft: [100] }, { transactionsPerClient: 10 }, 'scale'),
    'pgload sweep: cell 5/18 (scale 10, clients 4, repeat 2): running 10 transactions per client; time left unknown until a run has ended plus loading scale 100\n')
  assert.equal(startLine({ ...info, text: '' }, { durationS: 120 }, 'scale'), 'pgload sweep: cell 5/18 (repeat 2): running 2 min; time left about 12m30s\n')
})

test('the line after a run: its tps and latency, and its status unless done', () => {
  const results = { summary: { tps: 1234.5, latencyMs: { p50: 1.2, p99: 5.6, max: 120.4 } } }
  const info = { run, text: 'clients 4', position: 1, total: 2, results }
  assert.equal(doneLine(info), 'pgload sweep: cell 1/2 (clients 4, repeat 2): 1,235 tps, p50 1.20 ms, p99 5.60 ms, max 120 ms\n')
  assert.equal(doneLine({ ...info, run: { repeat: 1, status: 'interrupted' } }), 'pgload sweep: cell 1/2 (clients 4, repeat 1): 1,235 tps, p50 1.20 ms, p99 5.60 ms, max 120 ms (interrupted)\n')
})

test('the table: a row per cell with median [min..max], runs done of planned, and the fastest cell', () => {
  const cell = (scale, clients, tps, p99) => ({
    cell: { scale, clients, rate: null },
    runs: 3,
    tps: { median: tps, min: tps - 10, max: tps + 10 },
    p50Ms: { median: 1.2, min: 1.1, max: 1.3 },
    p99Ms: { median: p99, min: p99 - 1, max: p99 + 1 },
    maxMs: { median: 20, min: 15, max: 31.25 }
  })
  const doc = {
    workload: 'tpcb',
    axes: { scale: [1, 10], clients: [1, 4], rate: null },
    runs: [...Array(3).fill({ cell: { scale: 1, clients: 1, rate: null } }), ...Array(4).fill({ cell: { scale: 10, clients: 4, rate: null } })],
    cells: [cell(1, 1, 50.25, 6), cell(10, 4, 1230, 12)]
  }
  assert.equal(cellTable(doc), [
    'tpcb: 2 cells; each figure is the median of the cell\'s runs [min..max]',
    'scale  clients  runs  tps                   p50 ms             p99 ms             max ms',
    '    1        1   3/3  50.3 [40.3..60.3]     1.20 [1.10..1.30]  6.00 [5.00..7.00]  20.0 [15.0..31.3]',
    '   10        4   3/4  1,230 [1,220..1,240]  1.20 [1.10..1.30]  12.0 [11.0..13.0]  20.0 [15.0..31.3]',
    'highest median throughput: scale 10, clients 4: 1,230 tps, p99 12.0 ms',
    ''
  ].join('\n'))
  assert.equal(cellTable({ ...doc, cells: [] }), 'no run of the sweep has finished: no cells to show\n')
})
