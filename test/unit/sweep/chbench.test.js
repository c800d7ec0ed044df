// A CH-benCHmark sweep: sized by warehouses, its analytic streams an axis of their own (0: TPC-C
// alone), and per run and per cell tpmC, New-Order p90 and queries per hour from the runs'
// recorded results documents, shown in the final table.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { parseAxes, cellsOf, runFileName, cellText, sizeAxis } from '../../../lib/sweep/axes.js'
import { sweepSpec, runPlan } from '../../../lib/sweep/spec.js'
import { runFields } from '../../../lib/sweep/runner.js'
import { summariseCells } from '../../../lib/sweep/cells.js'
import { cellTable, doneLine } from '../../../lib/sweep/format.js'

/** Real 5 s runs of `pgload run chbench --warehouses 1 --no-wait`, with --streams 0 and 1. */
const recorded = (k) => JSON.parse(readFileSync(new URL(`../../fixtures/results/recorded-chbench-k${k}.json`, import.meta.url), 'utf8'))

const chbench = (wo = {}, extra = {}) => ({ workload: 'chbench', scripts: [], durationS: '5s', ...extra, workloadOptions: { wait: false, ...wo } })

test('chbench is sized by warehouses and sweeps its analytic streams, 0 included', () => {
  assert.equal(sizeAxis('chbench'), 'warehouses')
  assert.deepEqual(parseAxes({ size: '2,1', streams: '4,0,2,1' }, 'chbench'), { warehouses: [1, 2], clients: null, rate: null, streams: [0, 1, 2, 4] })
  assert.deepEqual(parseAxes({ size: '1' }, 'chbench'), { warehouses: [1], clients: null, rate: null, streams: null })
  const cells = cellsOf({ warehouses: [1, 2], clients: null, rate: null, streams: [0, 1] })
  assert.deepEqual(cells, [
    { warehouses: 1, clients: null, rate: null, streams: 0 }, { warehouses: 1, clients: null, rate: null, streams: 1 },
    { warehouses: 2, clients: null, rate: null, streams: 0 }, { warehouses: 2, clients: null, rate: null, streams: 1 }
  ])
  assert.equal(runFileName(cells[1], 2), 'w1-k1-r2.json')
  assert.equal(cellText(cells[0]), 'warehouses 1, streams 0')
  // another workload's cells stay as they were: no streams key
  assert.deepEqual(cellsOf(parseAxes({ size: '1', clients: '2' }, 'tpcb')), [{ scale: 1, clients: 2, rate: null }])
})

test('--streams: a comma list of integers >= 0, for chbench only, each mistake one line', async () => {
  const cases = [
    ['0,,1', '--streams must be a comma-separated list of integers >= 0, got "0,,1"'],
    ['-1,2', '--streams must be a comma-separated list of integers >= 0, got "-1,2"'],
    ['1.5', '--streams must be a comma-separated list of integers >= 0, got "1.5"'],
    ['2,2', '--streams lists 2 twice, got "2,2"']
  ]
  for (const [streams, message] of cases) {
    assert.throws(() => parseAxes({ size: '1', streams }, 'chbench'), (err) => err.code === 'BAD_OPTION' && err.message === message, streams)
  }
  for (const workload of ['tpcb', 'tpcc']) {
    assert.throws(() => parseAxes({ size: '1', streams: '0,1' }, workload), (err) => err.code === 'BAD_OPTION' && err.message === `--streams goes with chbench only, not with ${workload}`)
    await assert.rejects(sweepSpec({ workload, scripts: [], durationS: '5s', workloadOptions: {} }, { streams: '0,1' }), { message: `--streams goes with chbench only, not with ${workload}` })
  }
  // the run's own range, checked in every cell before anything runs
  await assert.rejects(sweepSpec(chbench({ warehouses: '1', streams: '0,1001' })), /--streams must be an integer .*1000/)
  await assert.rejects(sweepSpec(chbench({ scale: '1' })), { message: 'chbench is sized by --warehouses, not --scale' })
})

test('each cell\'s plan runs its warehouses and streams; clients are the connections, as for tpcc', async () => {
  const spec = await sweepSpec(chbench({ warehouses: '1', streams: '0,2' }))
  assert.equal(spec.name, 'chbench')
  assert.deepEqual(spec.axes, { warehouses: [1], clients: null, rate: null, streams: [0, 2] })
  assert.equal(spec.options.workloadOptions.streams, undefined, 'swept: not a common option')
  const plan = await runPlan(spec, { warehouses: 1, clients: null, rate: null, streams: 2 }, { out: 'a.json' })
  assert.equal(plan.workloadOptions.streams, 2)
  assert.equal(plan.workloadOptions.warehouses, 1)
  const fixed = await sweepSpec(chbench({ warehouses: '1', streams: '3' }, { clients: '5' }))
  assert.equal((await runPlan(fixed, fixed.cells[0], { out: 'a.json' })).connections, 5)
  const notSwept = await sweepSpec(chbench({ warehouses: '1,2' }))
  assert.equal(notSwept.axes.streams, null)
  assert.deepEqual(notSwept.cells[0], { warehouses: 1, clients: null, rate: null, streams: null })
})

test('a chbench run\'s entry and its cell: tpmC, New-Order p90 and queries per hour of the recorded results', () => {
  const runs = [0, 1].map((k) => ({ cell: { warehouses: 1, clients: null, rate: null, streams: k }, repeat: 1, order: k, ...runFields({ results: recorded(k), exitCode: 0 }) }))
  for (const [k, run] of runs.entries()) {
    const r = recorded(k)
    assert.equal(run.status, 'done')
    assert.equal(run.tpmC, r.tpcc.tpmC)
    assert.equal(run.newOrderP90Ms, r.tpcc.responseTime['new-order'].p90Ms)
    assert.equal(run.queriesPerHour, r.chbench.queriesPerHour)
  }
  assert.equal(runs[0].queriesPerHour, 0, 'no analytic stream, no query')
  assert.ok(runs[1].queriesPerHour > 0)
  // a second repeat of streams 1: the cell's median lies between the two, min and max are theirs
  const again = { ...runs[1], order: 2, repeat: 2, tpmC: runs[1].tpmC / 2, newOrderP90Ms: runs[1].newOrderP90Ms * 2, queriesPerHour: runs[1].queriesPerHour * 3 }
  const cells = summariseCells([...runs, again])
  assert.deepEqual(cells[1].tpmC, { median: (runs[1].tpmC * 1.5) / 2, min: runs[1].tpmC / 2, max: runs[1].tpmC })
  assert.deepEqual(cells[1].queriesPerHour, { median: runs[1].queriesPerHour * 2, min: runs[1].queriesPerHour, max: runs[1].queriesPerHour * 3 })
  assert.equal(cells[0].newOrderP90Ms.median, runs[0].newOrderP90Ms)
  // another workload's runs and cells gain nothing
  const tpcb = runFields({ results: { summary: { tps: 10, latencyMs: {} }, run: {} }, exitCode: 0 })
  assert.equal('tpmC' in tpcb, false)
  assert.equal('tpmC' in summariseCells([{ ...tpcb, cell: { scale: 1, clients: 1, rate: null } }])[0], false)
})

test('the final table and the line after each run show tpmC, New-Order p90 and queries per hour', () => {
  const runs = [0, 1].map((k) => ({ cell: { warehouses: 1, clients: null, rate: null, streams: k }, repeat: 1, order: k, ...runFields({ results: recorded(k), exitCode: 0 }) }))
  const doc = { workload: 'chbench', axes: { warehouses: [1], clients: null, rate: null, streams: [0, 1] }, runs, cells: summariseCells(runs) }
  const lines = cellTable(doc).split('\n')
  assert.match(lines[1], /^warehouses {2}streams {2}runs {2}tps .*max ms +tpmC +New-Order p90 ms +queries\/h$/)
  assert.match(lines[2], /^ +1 +0 +1\/1 .* 28,566 \[28,566\.\.28,566\] +22\.2 \[22\.2\.\.22\.2\] +0 \[0\.\.0\]$/)
  assert.match(lines[3], /^ +1 +1 +1\/1 .* 11,361 \[11,361\.\.11,361\] +57\.4 \[57\.4\.\.57\.4\] +7,453 \[7,453\.\.7,453\]$/)
  const line = doneLine({ run: { repeat: 1, status: 'done' }, text: 'warehouses 1, streams 1', position: 2, total: 2, results: recorded(1) })
  assert.match(line, /, tpmC 11,361, queries per hour 7,453\n$/)
})
