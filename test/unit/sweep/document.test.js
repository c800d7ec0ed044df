import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { newSweepDocument, recordRun, writeSweepDocument, readSweepDocument, documentProblem } from '../../../lib/sweep/document.js'
import { runOrder } from '../../../lib/sweep/order.js'
import { cellsOf } from '../../../lib/sweep/axes.js'

const dirs = []
const tempDir = () => { const d = mkdtempSync(join(tmpdir(), 'pgload-sweep-doc-')); dirs.push(d); return d }
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }) })

function sweepDoc () {
  const axes = { scale: [1, 2], clients: [1, 2, 4], rate: null }
  return newSweepDocument({
    id: 'id-1',
    at: new Date('2026-01-01T00:00:00Z'),
    toolVersion: '0.1.0',
    command: 'pgload sweep tpcb --scale 1,2 --clients 1,2,4',
    args: ['tpcb', '--scale', '1,2', '--clients', '1,2,4'],
    workload: 'tpcb',
    label: null,
    axes,
    repeat: 3,
    orderSeed: 5,
    options: { durationS: 60 },
    host: { memoryBytes: 1, cpus: 2, hostname: 'h' },
    planned: runOrder(cellsOf(axes), 3, 5)
  })
}

test('a new document plans every run, pending, each with its own file under runs/', () => {
  const doc = sweepDoc()
  assert.equal(doc.format, 'pgload-sweep')
  assert.equal(doc.version, 1)
  assert.equal(doc.runs.length, 18)
  assert.ok(doc.runs.every((r) => r.status === 'pending' && r.tps === null && r.error === null))
  assert.equal(new Set(doc.runs.map((r) => r.file)).size, 18)
  assert.ok(doc.runs.every((r) => r.file === `runs/s${r.cell.scale}-c${r.cell.clients}-r${r.repeat}.json`))
  assert.deepEqual(doc.cells, [])
  assert.equal(doc.createdAt, '2026-01-01T00:00:00.000Z')
  assert.equal(documentProblem(doc), null)
})

test('recording runs updates the entry, the cells and the time', () => {
  const doc = sweepDoc()
  const [a, b] = doc.runs.filter((r) => r.cell.scale === 1 && r.cell.clients === 2)
  recordRun(doc, a.order, { status: 'done', tps: 100, p50Ms: 1, p99Ms: 4, maxMs: 9 }, new Date('2026-01-01T00:01:00Z'))
  recordRun(doc, b.order, { status: 'interrupted', tps: 5, p50Ms: 1, p99Ms: 40, maxMs: 90 }, new Date('2026-01-01T00:02:00Z'))
  assert.equal(doc.updatedAt, '2026-01-01T00:02:00.000Z')
  assert.equal(doc.cells.length, 1)
  assert.deepEqual(doc.cells[0].cell, { scale: 1, clients: 2, rate: null })
  assert.equal(doc.cells[0].runs, 1)
  assert.deepEqual(doc.cells[0].tps, { median: 100, min: 100, max: 100 })
  assert.throws(() => recordRun(doc, 99, { status: 'done' }), /no run 99/)
})

test('written atomically and read back; no temporary file left', async () => {
  const dir = tempDir()
  const doc = sweepDoc()
  await writeSweepDocument(dir, doc)
  recordRun(doc, 0, { status: 'done', tps: 1 })
  await writeSweepDocument(dir, doc)
  assert.deepEqual(readdirSync(dir), ['sweep.json'])
  const back = await readSweepDocument(dir)
  assert.deepEqual(back, doc)
  assert.equal(JSON.parse(readFileSync(join(dir, 'sweep.json'), 'utf8')).runs[0].status, 'done')
})

test('a damaged or foreign document is refused with one line naming the field', async () => {
  const dir = tempDir()
  await assert.rejects(readSweepDocument(join(dir, 'nothing')), (err) => err.code === 'SWEEP_INVALID' && /nothing\/sweep\.json: cannot read: no sweep document there$/.test(err.message))
  const cases = [
    [(d) => { d.format = 'pgload-results' }, /format: expected "pgload-sweep", got "pgload-results"/],
    [(d) => { d.version = 2 }, /version: this pgload reads version 1, got 2/],
    [(d) => { d.runs[3].status = 'running' }, /runs\[3\]\.status: expected one of done, failed, interrupted, pending, got "running"/],
    [(d) => { d.runs[0].file = '../../etc/passwd' }, /runs\[0\]\.file: expected a path inside the sweep's directory/],
    [(d) => { d.runs[1].order = -1 }, /runs\[1\]\.order: expected an integer >= 0/],
    [(d) => { d.args = 'tpcb' }, /args: expected a list of strings/]
  ]
  for (const [damage, message] of cases) {
    const doc = sweepDoc()
    damage(doc)
    writeFileSync(join(dir, 'sweep.json'), JSON.stringify(doc))
    await assert.rejects(readSweepDocument(dir), (err) => err.code === 'SWEEP_INVALID' && message.test(err.message) && !err.message.includes('\n'), String(message))
  }
  writeFileSync(join(dir, 'sweep.json'), '{"format": ')
  await assert.rejects(readSweepDocument(dir), /sweep\.json: not a JSON document/)
})
