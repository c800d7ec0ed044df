// `--baseline stored:LABEL[:N]` parsing, and the median a stored baseline is made of.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parseStoredBaseline, isStoredBaseline, median, describeStoredBaseline, STORED_BASELINE_RUNS } from '../../../lib/store/baseline.js'

test('stored:LABEL and stored:LABEL:N', () => {
  assert.equal(isStoredBaseline('stored:main'), true)
  assert.equal(isStoredBaseline('main.json'), false)
  assert.deepEqual(parseStoredBaseline('stored:main'), { label: 'main', count: STORED_BASELINE_RUNS })
  assert.deepEqual(parseStoredBaseline('stored:main:3'), { label: 'main', count: 3 })
  // a label may hold colons: only a last :N of digits is the count
  assert.deepEqual(parseStoredBaseline('stored:v1:rc:7'), { label: 'v1:rc', count: 7 })
  assert.deepEqual(parseStoredBaseline('stored:v1:rc'), { label: 'v1:rc', count: STORED_BASELINE_RUNS })
})

test('a missing label or a count of 0 is one line naming the value', () => {
  assert.throws(() => parseStoredBaseline('stored:'), { code: 'BAD_OPTION', message: /--baseline stored:: give the label/ })
  assert.throws(() => parseStoredBaseline('stored:main:0'), { code: 'BAD_OPTION', message: /at least 1/ })
})

test('median: odd and even counts, nulls left out', () => {
  assert.equal(median([3, 1, 2]), 2)
  assert.equal(median([4, 1, 3, 2]), 2.5)
  assert.equal(median([null, 5, null]), 5)
  assert.equal(median([null]), null)
  assert.equal(median([]), null)
})

test('the line that names the runs of the baseline', () => {
  const line = describeStoredBaseline({ label: 'main', count: 5, runs: [{ runId: 3, startTime: '2026-01-01T00:00:00Z' }, { runId: 9, startTime: null }] })
  assert.equal(line, 'baseline: median of 2 stored runs labelled "main" (a baseline of up to 5: no other finished run has the label): #3 (2026-01-01T00:00:00Z), #9 (no start time)')
})
