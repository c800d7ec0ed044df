// pgbench's checks on -D definitions and on a run's set of scripts, shared by the command line
// and scriptWorkload().

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { MAX_SCRIPTS, checkScriptSet, parseDefine } from '../../../lib/script/options.js'
import { compileScript, scriptWorkload } from '../../../lib/script/index.js'

test('-D splits at the first =, and needs a name and a value', () => {
  assert.deepEqual(parseDefine('a=1'), ['a', '1'])
  assert.deepEqual(parseDefine('url=x=y'), ['url', 'x=y'])
  for (const bad of ['a', '=1', 'a=']) {
    assert.throws(() => parseDefine(bad), { code: 'BAD_DEFINE', message: `invalid variable definition: ${JSON.stringify(bad)}` })
  }
  assert.throws(() => parseDefine('1a=2'), { code: 'BAD_DEFINE', message: 'option: invalid variable name: "1a"' })
})

test('a run has 1 to 128 scripts and a total weight above zero', () => {
  const w = (n, weight = 1) => Array.from({ length: n }, () => ({ weight }))
  assert.equal(checkScriptSet(w(MAX_SCRIPTS)), undefined)
  assert.throws(() => checkScriptSet(w(MAX_SCRIPTS + 1)), { code: 'TOO_MANY_SCRIPTS', message: 'at most 128 SQL scripts are allowed' })
  assert.throws(() => checkScriptSet([]), { code: 'NO_SCRIPT' })
  assert.throws(() => checkScriptSet(w(2, 0)), { code: 'BAD_WEIGHT' })
})

test('scriptWorkload applies the same checks as the command line', () => {
  const one = compileScript({ name: 's', text: 'select 1;\n', weight: 1 })
  assert.throws(() => scriptWorkload(Array(MAX_SCRIPTS + 1).fill(one)), { code: 'TOO_MANY_SCRIPTS' })
  assert.throws(() => scriptWorkload([one], { variables: { '1a': 'x' } }), { code: 'BAD_DEFINE' })
})
