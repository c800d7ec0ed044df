// `pgload sweep chbench --warehouses 1 --streams 0,1` end to end on the test server: one load,
// a run per stream count, each run's tpmC, New-Order p90 and queries per hour in the sweep
// document and its final table, and the sweep's report drawing them against the streams.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { scratchDatabase } from '../helpers/scratch-database.js'
import { runCli } from '../helpers/cli.js'

const scratch = scratchDatabase(`pgload_sweep_chbench_${process.pid}`)
let tmp

before(async () => {
  await scratch.create()
  tmp = mkdtempSync(join(tmpdir(), 'pgload-sweep-chbench-'))
})

after(async () => {
  await scratch.drop()
  if (tmp) rmSync(tmp, { recursive: true, force: true })
})

test('a chbench sweep over --streams 0,1 records and draws tpmC, New-Order p90 and queries per hour per stream count', { timeout: 150_000 }, async () => {
  const dir = join(tmp, 'sweep')
  const r = await runCli(['sweep', 'chbench', '--url', scratch.url, '--warehouses', '1', '--streams', '0,1', '-T', '3s', '--no-wait', '--repeat', '1',
    '--no-server-stats', '--dir', dir], { timeoutMs: 140_000 })
  assert.equal(r.code, 0, r.stderr)
  const doc = JSON.parse(readFileSync(join(dir, 'sweep.json'), 'utf8'))
  assert.deepEqual(doc.axes, { warehouses: [1], clients: null, rate: null, streams: [0, 1] })
  assert.deepEqual(doc.loads.map((l) => l.warehouses), [1], 'one load of 1 warehouse')
  assert.deepEqual(doc.runs.map((x) => x.file).sort(), ['runs/w1-k0-r1.json', 'runs/w1-k1-r1.json'])
  for (const k of [0, 1]) {
    const run = doc.runs.find((x) => x.cell.streams === k)
    const results = JSON.parse(readFileSync(join(dir, run.file), 'utf8'))
    assert.equal(results.chbench.streams, k)
    assert.equal(run.tpmC, results.tpcc.tpmC)
    assert.equal(run.newOrderP90Ms, results.tpcc.responseTime['new-order'].p90Ms)
    assert.equal(run.queriesPerHour, results.chbench.queriesPerHour)
    const cell = doc.cells.find((c) => c.cell.streams === k)
    assert.equal(cell.tpmC.median, run.tpmC)
    assert.equal(cell.queriesPerHour.median, run.queriesPerHour)
  }
  assert.ok(doc.runs.find((x) => x.cell.streams === 0).tpmC > 0)
  assert.equal(doc.runs.find((x) => x.cell.streams === 0).queriesPerHour, 0)
  const header = r.stdout.split('\n').find((l) => l.startsWith('warehouses'))
  assert.match(header, /streams .*tpmC +New-Order p90 ms +queries\/h/)

  const html = join(tmp, 'report.html')
  const rep = await runCli(['report', join(dir, 'sweep.json'), '-o', html])
  assert.equal(rep.code, 0, rep.stderr)
  const page = readFileSync(html, 'utf8')
  for (const title of ['tpmC against analytic streams', 'New-Order p90 against analytic streams', 'Analytic queries per hour against analytic streams']) {
    assert.ok(page.includes(title), `the report has "${title}"`)
  }
})
