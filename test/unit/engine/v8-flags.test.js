// The driver's V8 flags: set unless the user gave node the same flag.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { applyDriverV8Flags, DRIVER_V8_FLAGS } from '../../../lib/engine/v8-flags.js'

test('every driver flag is a --name=value V8 knows (setting it does not throw)', () => {
  assert.ok(DRIVER_V8_FLAGS.length > 0)
  for (const f of DRIVER_V8_FLAGS) assert.match(f, /^--[a-z-]+=\d+$/)
  assert.deepEqual(applyDriverV8Flags({ execArgv: [], nodeOptions: '' }), DRIVER_V8_FLAGS)
})

test('a flag the user gave node, on its command line or in NODE_OPTIONS, in either spelling, is left alone', () => {
  const name = DRIVER_V8_FLAGS[0].split('=')[0]
  const underscored = '--' + name.slice(2).replaceAll('-', '_') // --max_inlined_..., as node and V8 accept it
  assert.deepEqual(applyDriverV8Flags({ execArgv: [`${name}=500`], nodeOptions: '' }), [])
  assert.deepEqual(applyDriverV8Flags({ execArgv: ['--inspect', underscored + '=500'], nodeOptions: '' }), [])
  assert.deepEqual(applyDriverV8Flags({ execArgv: [], nodeOptions: `--max-old-space-size=4096 ${name}=700` }), [])
  // a longer flag that merely starts with the same words is another flag
  assert.deepEqual(applyDriverV8Flags({ execArgv: [`${name}-absolute=9000`], nodeOptions: '' }), DRIVER_V8_FLAGS)
})

test('the library exports it, for programs that run pgload in their own process', async () => {
  const lib = await import('../../../lib/index.js')
  assert.equal(lib.applyDriverV8Flags, applyDriverV8Flags)
})
