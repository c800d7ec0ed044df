import { test } from 'node:test'
import assert from 'node:assert/strict'
import { runLabel } from '../../../lib/plan/checks.js'

test('--label: one line of 1 to 80 characters, trimmed', () => {
  assert.equal(runLabel(undefined), undefined)
  assert.equal(runLabel('  shared_buffers 1GB '), 'shared_buffers 1GB')
  assert.equal(runLabel(['first', 'second']), 'second', 'the last one given wins')
  for (const bad of ['', '   ', 'two\nlines', 'x'.repeat(81), true]) {
    assert.throws(() => runLabel(bad), (err) => err.code === 'BAD_OPTION' && /^--label must be one line of 1 to 80 characters/.test(err.message), JSON.stringify(bad))
  }
})
