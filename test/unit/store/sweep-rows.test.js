// A sweep document as rows, and the checks that refuse a document the database cannot use.

import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { checkSweepDocument, sweepRow, sweepRunRows, sweepCellRows } from '../../../lib/store/sweep-rows.js'
import { isSweepDocument } from '../../../lib/sweep/document.js'
import { makeSweep } from '../../fixtures/store/make-sweep.js'

const dir = mkdtempSync(join(tmpdir(), 'pgload-sweep-rows-'))
after(() => rmSync(dir, { recursive: true, force: true }))
const { doc } = makeSweep(dir)

test('recognised by its format marker only', () => {
  assert.equal(isSweepDocument(doc), true)
  assert.equal(isSweepDocument({ schemaVersion: 1, run: {} }), false)
  assert.equal(isSweepDocument(null), false)
})

test('the sweep row keeps the contract\'s fields', () => {
  const row = sweepRow(doc, { sourceFile: '/s/sweep.json' })
  assert.equal(row.sweep_id, doc.id)
  assert.equal(row.scale_axis, 'scale')
  assert.equal(row.shared_buffers_bytes, 134217728)
  assert.equal(row.host_memory_bytes, 8589934592)
  assert.equal(row.repeat, 2)
  assert.deepEqual(row.axes, doc.axes)
  assert.match(row.content_key, /^[0-9a-f]{64}$/)
})

test('one run row per run, with its stored run id; one cell row per cell', () => {
  const runs = sweepRunRows(doc, [11, 12, null, 14])
  assert.equal(runs.length, 4)
  assert.deepEqual(runs.map((r) => [r.run_order, r.scale, r.clients, r.rate, r.repeat, r.run_id]),
    [[0, 10, 4, null, 1, 11], [1, 10, 16, null, 1, 12], [2, 10, 4, null, 2, null], [3, 10, 16, null, 2, 14]])
  const cells = sweepCellRows(doc)
  assert.deepEqual(cells.map((c) => [c.clients, c.tps_median, c.tps_min, c.tps_max, c.p99_ms_median]), [[4, 850, 800, 900, 12], [16, 1000, 950, 1050, 13]])
})

test('TPC-C sweeps: the warehouses axis is the scale column', () => {
  const tpcc = { ...doc, axes: { warehouses: [1, 2], clients: [10], rate: null }, runs: [{ ...doc.runs[0], cell: { warehouses: 2, clients: 10, rate: null } }], cells: [] }
  assert.equal(sweepRow(tpcc).scale_axis, 'warehouses')
  assert.equal(sweepRunRows(tpcc, [null])[0].scale, 2)
})

test('a document the database cannot use: one line naming the file and the field', () => {
  assert.throws(() => checkSweepDocument({ ...doc, version: 2 }, 'x/sweep.json'), { code: 'SWEEP_INVALID', message: 'x/sweep.json: version: this pgload reads version 1, got 2' })
  assert.throws(() => checkSweepDocument({ ...doc, id: '' }, 's.json'), { message: 's.json: id: expected a non-empty string' })
  assert.throws(() => checkSweepDocument({ ...doc, runs: [{ cell: 3 }] }, 's.json'), { message: 's.json: runs[0].cell: expected an object' })
  assert.equal(checkSweepDocument(doc, 's.json'), doc)
})
