// storeSweep with a hand-made sweep document (the sweep contract): the sweep, its runs and cells
// are stored with the run files; stored again it is unchanged; after a resume it is updated; a
// done run without its file stores nothing.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testResultsDatabase } from '../helpers/results-db.js'
import { storeSweep, storeFiles } from '../../lib/store/index.js'
import { makeSweep } from '../fixtures/store/make-sweep.js'

const dir = mkdtempSync(join(tmpdir(), 'pgload-store-sweep-'))
let db

before(async () => { db = await testResultsDatabase() })
after(async () => {
  await db?.drop()
  rmSync(dir, { recursive: true, force: true })
})

const rowsOf = async (sql, values) => (await db.query(sql, values)).rows

test('a sweep being run (one run pending), then finished after --resume', async () => {
  const sweepDir = join(dir, 'resumed')
  const first = makeSweep(sweepDir, { pendingLast: true })
  const r1 = await storeSweep(first.file, { resultsUrl: db.url })
  assert.deepEqual({ ...r1, skipped: r1.skipped.length }, { sweepId: first.doc.id, status: 'stored', runsStored: 3, runsKnown: 0, skipped: 1 })
  const runs = await rowsOf('select run_order, clients, repeat, status, run_id is not null from pgload.sweep_runs where sweep_id = $1 order by run_order', [first.doc.id])
  assert.deepEqual(runs, [['0', '4', '1', 'done', 't'], ['1', '16', '1', 'done', 't'], ['2', '4', '2', 'done', 't'], ['3', '16', '2', 'pending', 'f']])

  const again = await storeSweep(first.file, { resultsUrl: db.url })
  assert.equal(again.status, 'unchanged')

  const finished = makeSweep(sweepDir) // the same id, every run done
  const r2 = await storeSweep(finished.file, { resultsUrl: db.url })
  assert.deepEqual({ ...r2, skipped: r2.skipped.length }, { sweepId: first.doc.id, status: 'updated', runsStored: 1, runsKnown: 3, skipped: 0 })
  assert.equal((await rowsOf('select count(*) from pgload.sweeps'))[0][0], '1')
  assert.equal((await rowsOf('select count(*) from pgload.sweep_runs where run_id is not null'))[0][0], '4')
  const cells = await rowsOf('select clients, runs, tps_median, tps_min, tps_max, p99_ms_median from pgload.sweep_cells where sweep_id = $1 order by cell_index', [first.doc.id])
  assert.deepEqual(cells, [['4', '2', '850', '800', '900', '12'], ['16', '2', '1000', '950', '1050', '13']])
  // the runs rows are the run files' own: clients as in each file
  const linked = await rowsOf(`select s.clients, r.clients, r.tps from pgload.sweep_runs s join pgload.runs r using (run_id)
    where s.sweep_id = $1 order by s.run_order`, [first.doc.id])
  assert.deepEqual(linked.map((l) => l[0] === l[1]), [true, true, true, false]) // shift-1 stands in for a 16-client run
  const [sweep] = await rowsOf('select scale_axis, shared_buffers_bytes, host_memory_bytes, label from pgload.sweeps')
  assert.deepEqual(sweep, ['scale', '134217728', '8589934592', 'sweep-test'])
})

test('pgload store recognises a sweep document among results files', async () => {
  const { file } = makeSweep(join(dir, 'mixed'), { id: 'second-sweep' })
  const out = await storeFiles([file, new URL('../fixtures/results/tpcc.json', import.meta.url).pathname], { resultsUrl: db.url })
  assert.equal(out[0].kind, 'sweep')
  assert.equal(out[0].status, 'stored')
  assert.equal(out[0].sweep.runsKnown, 4) // the same run files as the first sweep's
  assert.equal(out[1].kind, 'run')
  // the sweep's directory stands for its document
  const again = await storeFiles([join(dir, 'mixed')], { resultsUrl: db.url })
  assert.deepEqual([again[0].kind, again[0].status, again[0].file], ['sweep', 'already stored', file])
})

test('a done run whose file is missing: nothing of the sweep is stored', async () => {
  const { file } = makeSweep(join(dir, 'broken'), { id: 'broken-sweep' })
  rmSync(join(dir, 'broken', 'runs', 's10-c16-r1.json'))
  await assert.rejects(storeSweep(file, { resultsUrl: db.url }), (err) => {
    assert.equal(err.code, 'SWEEP_INVALID')
    assert.match(err.message, /sweep\.json: run runs\/s10-c16-r1\.json: .*no such file/)
    return true
  })
  assert.equal((await rowsOf("select count(*) from pgload.sweeps where sweep_id = 'broken-sweep'"))[0][0], '0')
})

test('deleting a stored run deletes its rows and unlinks it from its sweeps', async () => {
  const [[runId]] = await rowsOf("select run_id from pgload.sweep_runs where sweep_id = 'second-sweep' and run_order = 0")
  await db.query('delete from pgload.runs where run_id = $1', [runId])
  assert.equal((await rowsOf('select count(*) from pgload.run_types where run_id = $1', [runId]))[0][0], '0')
  assert.equal((await rowsOf('select count(*) from pgload.run_intervals where run_id = $1', [runId]))[0][0], '0')
  assert.deepEqual(await rowsOf('select status, run_id from pgload.sweep_runs where sweep_id = $1 and run_order = 0', ['second-sweep']), [['done', null]])
})
