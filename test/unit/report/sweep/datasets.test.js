import { test } from 'node:test'
import assert from 'node:assert/strict'
import { sweepShape, missingCells, seriesName, cellName } from '../../../../lib/report/sweep/axes.js'
import { throughputRows, latencyRows, kneeRows, kneeLabels, sizeRows, KNEE_LAYOUT } from '../../../../lib/report/sweep/datasets.js'
import { loadSweep, withFailedCell, asTpcc, asRateSweep } from '../../../fixtures/sweep/variants.js'

test('the fixture sweep has clients along x and one line per scale', () => {
  const shape = sweepShape(loadSweep())
  assert.equal(shape.xKey, 'clients')
  assert.equal(shape.sizeKey, 'scale')
  assert.deepEqual(shape.seriesKeys, ['scale'])
  assert.deepEqual(shape.values.clients, [1, 4, 16])
  assert.deepEqual(shape.values.scale, [1, 10])
})

test('throughput rows are the cells\' medians with whiskers from their minimum to maximum, in line then client order', () => {
  const sweep = loadSweep()
  const rows = throughputRows(sweep, sweepShape(sweep))
  assert.deepEqual(rows.map((r) => [r.series, r.x]), [['scale 1', 1], ['scale 1', 4], ['scale 1', 16], ['scale 10', 1], ['scale 10', 4], ['scale 10', 16]])
  for (const r of rows) {
    const cell = sweep.cells.find((c) => cellName(c.cell) === r.cell)
    assert.deepEqual([r.tps, r.tpsMin, r.tpsMax, r.runs], [cell.tps.median, cell.tps.min, cell.tps.max, 3])
    assert.ok(r.tpsMin <= r.tps && r.tps <= r.tpsMax)
  }
  // the cell's median is the middle of its three done runs
  const runs = sweep.runs.filter((x) => x.cell.scale === 10 && x.cell.clients === 16).map((x) => x.tps).sort((a, b) => a - b)
  assert.equal(rows[5].tps, runs[1])
  assert.equal(rows[5].tpsMin, runs[0])
  assert.equal(rows[5].tpsMax, runs[2])
})

test('latency rows hold p50 and p99 of every cell with the repeats\' spread', () => {
  const sweep = loadSweep()
  const rows = latencyRows(sweep, sweepShape(sweep))
  assert.equal(rows.length, 12)
  const p99 = rows.find((r) => r.stat === 'p99' && r.cell === 'scale 1, 16 clients')
  const cell = sweep.cells.find((c) => c.cell.scale === 1 && c.cell.clients === 16)
  assert.deepEqual([p99.ms, p99.msMin, p99.msMax], [cell.p99Ms.median, cell.p99Ms.min, cell.p99Ms.max])
  assert.deepEqual([...new Set(rows.map((r) => r.stat))], ['p50', 'p99'])
})

test('knee rows pair each cell\'s median tps with its latency and keep the client order', () => {
  const sweep = loadSweep()
  const rows = kneeRows(sweep, sweepShape(sweep))
  const line = rows.filter((r) => r.stat === 'p99' && r.series === 'scale 10')
  assert.deepEqual(line.map((r) => r.order), [1, 4, 16])
  assert.deepEqual(line.map((r) => r.point), ['1', '4', '16'])
  const cell = sweep.cells.find((c) => c.cell.scale === 10 && c.cell.clients === 4)
  assert.deepEqual([line[1].tps, line[1].ms], [cell.tps.median, cell.p99Ms.median])
})

test('knee labels: one per p99 point while they do not overlap, the crowded ones left to tooltips', () => {
  const sweep = loadSweep()
  const rows = kneeRows(sweep, sweepShape(sweep))
  assert.equal(kneeLabels(rows).length, 6)
  // Three points at almost the same place: only the first keeps a label.
  const crowded = [0, 1, 2].map((i) => ({ tps: 1000 + i, ms: 5 + i * 0.01, stat: 'p99', series: 'a', order: i, point: String(i), cell: '' }))
  const far = { tps: 100, ms: 50, stat: 'p99', series: 'a', order: 9, point: '9', cell: '' }
  const labels = kneeLabels([...crowded, far])
  assert.deepEqual(labels.map((l) => l.text), ['0', '9'])
  // Estimated boxes of the kept labels are apart.
  const box = (l) => ({ x: l.tps / 1250 * KNEE_LAYOUT.widthPx, y: (1 - l.ms / 62.5) * KNEE_LAYOUT.heightPx })
  const [a, b] = labels.map(box)
  assert.ok(Math.abs(a.x - b.x) > KNEE_LAYOUT.charPx || Math.abs(a.y - b.y) > KNEE_LAYOUT.rowPx)
})

test('size rows divide the database size by shared_buffers and by memory, one line per client count', () => {
  const sweep = loadSweep()
  const rows = sizeRows(sweep, sweepShape(sweep))
  assert.equal(rows.length, 12)
  const cell = sweep.cells.find((c) => c.cell.scale === 10 && c.cell.clients === 16)
  const sb = rows.find((r) => r.basis === 'shared_buffers' && r.cell === 'scale 10, 16 clients')
  const mem = rows.find((r) => r.basis === 'memory' && r.cell === 'scale 10, 16 clients')
  assert.equal(sb.ratio, Number((cell.dbSizeBytes / sweep.server.sharedBuffersBytes).toPrecision(4)))
  assert.equal(mem.ratio, Number((cell.dbSizeBytes / sweep.host.memoryBytes).toPrecision(4)))
  assert.ok(sb.ratio > 1, 'scale 10 does not fit in 128 MB of shared_buffers')
  assert.equal(sb.tps, cell.tps.median)
  assert.deepEqual([...new Set(rows.map((r) => r.line))], ['1 client', '4 clients', '16 clients'])
  // Without the host's memory the memory basis is gone; without both, nothing.
  delete sweep.host.memoryBytes
  assert.deepEqual([...new Set(sizeRows(sweep, sweepShape(sweep)).map((r) => r.basis))], ['shared_buffers'])
  sweep.server.sharedBuffersBytes = null
  assert.deepEqual(sizeRows(sweep, sweepShape(sweep)), [])
})

test('a cell whose runs all failed is missing from the charts and named with what happened', () => {
  const sweep = withFailedCell({ scale: 10, clients: 16 })
  const shape = sweepShape(sweep)
  assert.deepEqual(shape.values.clients, [1, 4, 16])
  assert.equal(throughputRows(sweep, shape).length, 5)
  assert.ok(!throughputRows(sweep, shape).some((r) => r.cell === 'scale 10, 16 clients'))
  assert.deepEqual(missingCells(sweep, shape), [{ cell: { scale: 10, clients: 16 }, name: 'scale 10, 16 clients', why: '3 failed' }])
  // A cell of the grid with no run recorded at all (an interrupted sweep) is named too.
  sweep.runs = sweep.runs.filter((r) => !(r.cell.scale === 10 && r.cell.clients === 16))
  assert.deepEqual(missingCells(sweep, shape).map((m) => m.why), ['no run recorded'])
  assert.deepEqual(missingCells(loadSweep(), sweepShape(loadSweep())), [])
})

test('a TPC-C sweep draws one line per warehouse count', () => {
  const sweep = asTpcc()
  const shape = sweepShape(sweep)
  assert.equal(shape.sizeKey, 'warehouses')
  assert.deepEqual(shape.seriesKeys, ['warehouses'])
  assert.deepEqual([...new Set(throughputRows(sweep, shape).map((r) => r.series))], ['1 warehouse', '10 warehouses'])
})

test('a sweep of rates at fixed clients puts the rate along x', () => {
  const sweep = asRateSweep()
  const shape = sweepShape(sweep)
  assert.equal(shape.xKey, 'rate')
  assert.deepEqual(shape.seriesKeys, [])
  const rows = throughputRows(sweep, shape)
  assert.deepEqual(rows.map((r) => r.x), [250, 1000, 4000])
  assert.deepEqual([...new Set(rows.map((r) => r.series))], ['scale 1'])
  assert.equal(seriesName({ clients: 64, rate: 250 }, { ...shape, sizeKey: null }, 'my.sql'), 'my.sql')
  assert.deepEqual(kneeRows(sweep, shape).filter((r) => r.stat === 'p99').map((r) => r.point), ['250/s', '1,000/s', '4,000/s'])
})

test('size rows of a rate sweep make one line per rate', () => {
  const sweep = asRateSweep()
  const rows = sizeRows(sweep, sweepShape(sweep))
  assert.deepEqual([...new Set(rows.map((r) => r.line))], ['rate 250/s', 'rate 1,000/s', 'rate 4,000/s'])
})

test('a sweep of scales alone (default clients, none named) puts the scale along x, as one line', () => {
  const sweep = loadSweep()
  const keep = (x) => x.cell.clients === 4
  sweep.axes.clients = null
  sweep.runs = sweep.runs.filter(keep)
  sweep.cells = sweep.cells.filter(keep)
  for (const x of [...sweep.runs, ...sweep.cells]) x.cell.clients = null
  const shape = sweepShape(sweep)
  assert.equal(shape.xKey, 'scale')
  assert.deepEqual(shape.seriesKeys, [])
  const rows = throughputRows(sweep, shape)
  assert.deepEqual(rows.map((r) => [r.x, r.series]), [[1, 'tpcb'], [10, 'tpcb']])
  assert.deepEqual(kneeRows(sweep, shape).filter((r) => r.stat === 'p99').map((r) => r.point), ['scale 1', 'scale 10'])
  assert.deepEqual([...new Set(sizeRows(sweep, shape).map((r) => r.line))], ['tpcb'])
  assert.deepEqual(missingCells(sweep, shape), [])
})

test('size rows divide the workload\'s own tables when every cell records them, and keep the database beside', async () => {
  const { sizeMeasure } = await import('../../../../lib/report/sweep/datasets.js')
  const sweep = loadSweep()
  const shape = sweepShape(sweep)
  assert.deepEqual(sizeMeasure(sweep, shape), { key: 'dbSizeBytes', label: 'database' }, 'an older document: the database')
  // scale 1 beside other tables: the database is far larger than the pgbench tables
  for (const c of sweep.cells) c.tablesSizeBytes = c.cell.scale * 16e6
  assert.deepEqual(sizeMeasure(sweep, shape), { key: 'tablesSizeBytes', label: "workload's tables" })
  const row = sizeRows(sweep, shape).find((r) => r.basis === 'shared_buffers' && r.cell === 'scale 1, 1 client')
  const cell = sweep.cells.find((c) => c.cell.scale === 1 && c.cell.clients === 1)
  assert.equal(row.ratio, Number((16e6 / sweep.server.sharedBuffersBytes).toPrecision(4)))
  assert.equal(row.sizeBytes, 16e6)
  assert.equal(row.dbSizeBytes, cell.dbSizeBytes)
})
