// --wait-sampling: samples per second in the plan, 0 when off, checked before anything connects.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { resolvePlan } from '../../../lib/plan/resolve.js'
import { waitSamplingHz } from '../../../lib/plan/wait-sampling-option.js'

test('the default is 50 samples per second; off is 0; a number is kept', async () => {
  assert.equal((await resolvePlan({})).waitSamplingHz, 50)
  assert.equal((await resolvePlan({ waitSamplingHz: 'off' })).waitSamplingHz, 0)
  assert.equal((await resolvePlan({ waitSamplingHz: '100' })).waitSamplingHz, 100)
  assert.equal(waitSamplingHz(0, 50), 0, 'a plan\'s 0, given again, is off')
})

test('out of range, zero or not a number: one error naming the flag', async () => {
  await assert.rejects(resolvePlan({ waitSamplingHz: '201' }), { code: 'BAD_OPTION', message: '--wait-sampling must be a number in 1..200, got "201"' })
  await assert.rejects(resolvePlan({ waitSamplingHz: 'often' }), { code: 'BAD_OPTION', message: '--wait-sampling must be a number in 1..200, got "often"' })
  await assert.rejects(resolvePlan({ waitSamplingHz: '0' }), { code: 'BAD_OPTION', hint: 'use --wait-sampling off to sample nothing' })
})
