// valueProblem: a setting value checked against its pg_settings row, for the settings a session
// cannot SET (sighup, postmaster): type, enum values, range and units.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { valueProblem } from '../../../../lib/orchestration/ab/setting-values.js'

const row = (vartype, extra = {}) => ({ name: 'x', context: 'postmaster', vartype, unit: null, min: null, max: null, enumvals: null, ...extra })
const sharedBuffers = row('integer', { unit: '8kB', min: '16', max: '1073741823' })
const checkpointTimeout = row('integer', { unit: 's', min: '30', max: '86400' })
const target = row('real', { min: '0', max: '1' })

test('numbers with or without a unit that fits the setting, inside its range', () => {
  for (const v of ['128MB', '16384', '1GB', '64 MB']) assert.equal(valueProblem(sharedBuffers, v), null, v)
  for (const v of ['5min', '300', '1h', '30s']) assert.equal(valueProblem(checkpointTimeout, v), null, v)
  assert.equal(valueProblem(target, '0.5'), null)
})

test('a value that is not a number, has a unit of another kind, or is out of range: what is wrong', () => {
  assert.equal(valueProblem(sharedBuffers, 'banana'), 'expected an integer in 8kB, or with a unit')
  assert.equal(valueProblem(sharedBuffers, '64ms'), 'expected an integer in 8kB, or with a unit')
  assert.equal(valueProblem(sharedBuffers, '8kB'), 'out of range 16 .. 1073741823 (in 8kB)')
  assert.equal(valueProblem(checkpointTimeout, '10s'), 'out of range 30 .. 86400 (in s)')
  assert.equal(valueProblem(checkpointTimeout, '2d'), 'out of range 30 .. 86400 (in s)')
  assert.equal(valueProblem(target, '1.5'), 'out of range 0 .. 1')
  assert.equal(valueProblem(target, '5MB'), 'expected a number')
  assert.equal(valueProblem(row('integer', { min: '1', max: '100' }), '2.5'), 'expected an integer')
})

test('booleans and enums by their values; strings are the server\'s to judge', () => {
  assert.equal(valueProblem(row('bool'), 'on'), null)
  assert.equal(valueProblem(row('bool'), 'FALSE'), null)
  assert.equal(valueProblem(row('bool'), 'maybe'), 'expected on or off')
  const walLevel = row('enum', { enumvals: ['minimal', 'replica', 'logical'] })
  assert.equal(valueProblem(walLevel, 'Replica'), null)
  assert.equal(valueProblem(walLevel, 'archive'), 'expected one of minimal, replica, logical')
  assert.equal(valueProblem(row('string'), 'anything'), null)
})
