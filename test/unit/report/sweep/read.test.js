import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { validateSweep, readSweepIfAny } from '../../../../lib/report/sweep/read.js'
import { isSweepDocument } from '../../../../lib/sweep/document.js'
import { loadSweep, SWEEP_FILE } from '../../../fixtures/sweep/variants.js'

const tmp = mkdtempSync(join(tmpdir(), 'pgload-sweep-read-'))
test.after(() => rmSync(tmp, { recursive: true, force: true }))

test('the fixture sweep is a sweep document the report reads', async () => {
  const { sweep, file } = await readSweepIfAny(SWEEP_FILE)
  assert.equal(file, SWEEP_FILE)
  assert.equal(sweep.runs.length, 18)
  assert.equal(sweep.cells.length, 6)
  assert.ok(isSweepDocument(sweep))
})

test('a sweep\'s directory stands for its sweep.json', async () => {
  const { sweep, file } = await readSweepIfAny(dirname(SWEEP_FILE))
  assert.equal(file, SWEEP_FILE)
  assert.equal(sweep.cells.length, 6)
  assert.equal(await readSweepIfAny(tmp), null)
})

test('a results file or a file that is no JSON is not a sweep (its own reader says why)', async () => {
  const results = fileURLToPath(new URL('../../../fixtures/results/tpcb-a.json', import.meta.url))
  assert.equal(await readSweepIfAny(results), null)
  const text = join(tmp, 'notes.txt')
  writeFileSync(text, 'not json')
  assert.equal(await readSweepIfAny(text), null)
  assert.equal(await readSweepIfAny(join(tmp, 'absent.json')), null)
})

const damaged = [
  [(s) => { s.version = 2 }, 'version: this pgload reads sweep documents of version 1, got 2'],
  [(s) => { delete s.cells }, 'cells: missing'],
  [(s) => { s.cells[2].tps.median = 'fast' }, 'cells[2].tps.median: expected a number >= 0 or null, got "fast"'],
  [(s) => { s.runs[0].status = 'ok' }, 'runs[0].status: expected one of done, failed, interrupted, pending, got "ok"'],
  [(s) => { s.axes.clients = [1, 'two'] }, 'axes.clients[1]: expected a number >= 0, got "two"'],
  [(s) => { s.server.sharedBuffersBytes = -1 }, 'server.sharedBuffersBytes: expected a number >= 0 or null, got -1']
]

for (const [damage, message] of damaged) {
  test(`a damaged sweep document fails with one line: ${message}`, async () => {
    const sweep = loadSweep()
    damage(sweep)
    assert.throws(() => validateSweep(sweep, 'sweep.json'), { code: 'SWEEP_INVALID', message: `sweep.json: ${message}` })
    const file = join(tmp, 'damaged.json')
    writeFileSync(file, JSON.stringify(sweep))
    await assert.rejects(readSweepIfAny(file), { code: 'SWEEP_INVALID', message: `${file}: ${message}` })
  })
}
