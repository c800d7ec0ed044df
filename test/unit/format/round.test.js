// Three-decimal rounding of written figures.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { round3 } from '../../../lib/format/round.js'

test('round3 keeps three decimals and drops float noise', () => {
  assert.equal(round3(0.1 + 0.2), 0.3)
  assert.equal(round3(1.23456), 1.235)
  assert.equal(round3(-2.0004), -2)
  assert.equal(round3(42), 42)
})
