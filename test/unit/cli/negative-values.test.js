// joinNegativeValues: a negative value with a unit after an option reaches the option's check.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { joinNegativeValues } from '../../../lib/cli/negative-values.js'

test('an option followed by a negative value with a unit: joined as option=value', () => {
  assert.deepEqual(joinNegativeValues(['run', 'tpcb', '-T', '-5s']), ['run', 'tpcb', '-T=-5s'])
  assert.deepEqual(joinNegativeValues(['run', '--duration', '-1.5m', '-c', '4']), ['run', '--duration=-1.5m', '-c', '4'])
  assert.deepEqual(joinNegativeValues(['run', '--grace', '-.5s']), ['run', '--grace=-.5s'])
})

test('what yargs already reads, and what is not an option\'s value, is left as it is', () => {
  const same = (args) => assert.deepEqual(joinNegativeValues(args), args)
  same(['run', '-c', '-1']) // a bare negative number is a value to yargs
  same(['run', '--rate', '-5'])
  same(['run', '-T', '5s', '-c', '4'])
  same(['run', 'tpcb', '-5s']) // no option before it
  same(['run', '--', '-T', '-5s']) // after --, nothing is an option
  same(['run', '--duration=-5s'])
})
