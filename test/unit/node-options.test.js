// nodeOptionGiven: the user's node options, from the command line or NODE_OPTIONS.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { nodeOptionGiven } from '../../lib/node-options.js'

test('an option is found as --name or --name=value, with dashes or underscores, in execArgv or NODE_OPTIONS', () => {
  const given = (execArgv, nodeOptions = '') => nodeOptionGiven('--pending-deprecation', { execArgv, nodeOptions })
  assert.equal(given(['--pending-deprecation']), true)
  assert.equal(given(['--inspect', '--pending_deprecation']), true)
  assert.equal(given([], '--max-old-space-size=4096 --pending-deprecation'), true)
  assert.equal(given([], '  --pending-deprecation  '), true)
  assert.equal(nodeOptionGiven('--stack-size', { execArgv: ['--stack_size=900'], nodeOptions: '' }), true)
  assert.equal(given([]), false)
  assert.equal(given(['--pending-deprecation-x', '--no-deprecation'], '--pending'), false, 'other options that share the words')
})
