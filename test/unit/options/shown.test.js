// shownValue and cutLongWords: option errors name what was typed, on one line, cut when long.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { shownValue, cutLongWords } from '../../../lib/options/shown.js'

test('short values as typed: strings quoted, numbers bare, arrays as JSON', () => {
  assert.equal(shownValue('fast'), '"fast"')
  assert.equal(shownValue('-5s'), '"-5s"')
  assert.equal(shownValue(-1), '-1')
  assert.equal(shownValue(NaN), 'NaN')
  assert.equal(shownValue(undefined), 'undefined')
  assert.equal(shownValue(['a', 'b']), '["a","b"]')
  assert.equal(shownValue('two\nlines'), '"two\\nlines"', 'one line')
})

test('a long value is cut with how long it was', () => {
  const shown = shownValue('x'.repeat(10_000))
  assert.equal(shown, `"${'x'.repeat(56)}..." (10,000 characters)`)
  assert.ok(shown.length < 90)
  assert.match(shownValue(Array.from({ length: 100 }, (_, i) => `v${i}`)), /^\["v0","v1",.*\.\.\. \(\d+ characters as JSON\)$/)
})

test('cutLongWords: yargs messages on one line, each long word cut', () => {
  assert.equal(cutLongWords('Unknown argument: fast'), 'Unknown argument: fast')
  assert.equal(cutLongWords(`Unknown arguments: a${'z'.repeat(100)}, b`), `Unknown arguments: a${'z'.repeat(56)}... (101 characters), b`)
  assert.equal(cutLongWords('Invalid values:\n  Argument: action, Given: "x"'), 'Invalid values: Argument: action, Given: "x"')
})
