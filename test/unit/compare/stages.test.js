// compare, stage by stage: runs with the same stages get rows per stage (tps and latency of each
// stage, as a run of its own); runs whose stages differ get one line saying why not.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { stagedResults } from '../../helpers/staged-results.js'
import { compareRuns } from '../../../lib/compare/verdict.js'
import { formatCompareText } from '../../../lib/compare/format.js'

const row = (v, id) => v.rows.find(r => r.id === id)

test('the same stages: each stage compared, its figures from the stage', () => {
  const a = stagedResults()
  const b = stagedResults()
  const v = compareRuns([a], [b])
  assert.equal(v.stages, 3)
  for (let n = 1; n <= 3; n++) {
    assert.equal(row(v, `stage(${n}):tps`).a.median, a.stages[n - 1].summary.tps)
    assert.equal(row(v, `stage(${n}):p99`).b.median, b.stages[n - 1].summary.latencyMs.p99)
    assert.equal(row(v, `stage(${n}):p99`).stage, n)
  }
  assert.match(formatCompareText(v), /^stage 2 p99 ms\s+\(all\)\s+[\d.]+/m)
})

test('several runs per side: a stage whose latency rose is called worse, the others not', () => {
  const as = [1, 2, 3, 4, 5].map(() => stagedResults())
  const bs = [1, 2, 3, 4, 5].map(() => stagedResults())
  as.forEach((d, i) => { for (const s of d.stages) s.summary.latencyMs.p99 *= 1 + i / 100 })
  bs.forEach((d, i) => {
    for (const s of d.stages) s.summary.latencyMs.p99 *= 1 + i / 100
    d.stages[1].summary.latencyMs.p99 *= 1.5
  })
  const v = compareRuns(as, bs)
  assert.equal(row(v, 'stage(2):p99').verdict, 'worse')
  assert.equal(row(v, 'stage(1):p99').verdict, '~')
  assert.equal(row(v, 'stage(3):p99').verdict, '~')
})

test('stages that differ, or a run without stages: one line says why, no stage rows', () => {
  const a = stagedResults()
  const v = compareRuns([a], [stagedResults({ bounds: [0, 4, 6] })])
  assert.equal(v.stages, 0)
  assert.equal(v.rows.some(r => r.stage), false)
  assert.ok(v.warnings.includes('stages not compared: stage 1 differs (rate 0->100 0-3 s vs rate 0->100 0-4 s)'), v.warnings.join('\n'))
  const fewer = compareRuns([a], [stagedResults({ bounds: [0, 3], targets: [100, 200] })])
  assert.ok(fewer.warnings.includes('stages not compared: the runs have 3 and 2 stages'), fewer.warnings.join('\n'))
  const plain = stagedResults()
  delete plain.stages
  const none = compareRuns([a], [plain])
  assert.ok(none.warnings.includes('stages not compared: 1 of 2 runs has no stages'), none.warnings.join('\n'))
})
