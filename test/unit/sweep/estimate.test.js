import { test } from 'node:test'
import assert from 'node:assert/strict'
import { timeLeftS, formatDuration } from '../../../lib/sweep/estimate.js'
import { cellKey } from '../../../lib/sweep/axes.js'

const cell = (clients) => ({ scale: 1, clients, rate: null })

test('before any run: the planned warm-up and duration of each run left, plus a little', () => {
  const left = [{ cell: cell(1) }, { cell: cell(2) }]
  assert.equal(timeLeftS([], left, 70, cellKey), 144)
  assert.equal(timeLeftS([], left, null, cellKey), null, 'runs by count: nothing tells yet')
})

test('then from how long the runs took: a cell\'s own runs first, else all of them', () => {
  const runs = [
    { cell: cell(1), status: 'done', wallS: 62 },
    { cell: cell(1), status: 'done', wallS: 64 },
    { cell: cell(2), status: 'done', wallS: 80 },
    { cell: cell(2), status: 'interrupted', wallS: 5 },
    { cell: cell(4), status: 'pending' }
  ]
  const left = [{ cell: cell(1) }, { cell: cell(2) }, { cell: cell(4) }]
  // 63 (cell 1's mean) + 80 (cell 2's) + 68.67 (all done runs' mean, for cell 4)
  assert.equal(Math.round(timeLeftS(runs, left, 60, cellKey) * 100) / 100, 211.67)
  assert.equal(Math.round(timeLeftS(runs, left, null, cellKey) * 100) / 100, 211.67, 'runs by count, once timed')
})

test('durations as a person reads them', () => {
  assert.equal(formatDuration(0), '0s')
  assert.equal(formatDuration(45.4), '45s')
  assert.equal(formatDuration(750), '12m30s')
  assert.equal(formatDuration(3599), '59m59s')
  assert.equal(formatDuration(7500), '2h05m')
})
