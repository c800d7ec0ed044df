import { test } from 'node:test'
import assert from 'node:assert/strict'
import { plural } from '../../../lib/format/plural.js'

test('a count with its noun in the number that fits', () => {
  assert.equal(plural(1, 'row'), '1 row')
  assert.equal(plural(0, 'row'), '0 rows')
  assert.equal(plural(2, 'retry', 'retries'), '2 retries')
  assert.equal(plural(1, 'retry', 'retries'), '1 retry')
})
