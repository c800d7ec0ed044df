// pgbench's own test cases that fail while loading scripts (no server needed): compileScript
// must reject them with exit code 1 and pgbench's message. Skipped when the corpus is absent.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { compileScript } from '../../lib/script/index.js'
import { corpusPresent, loadCases, protocolOf, scriptText, toRegExp } from './cases.js'

const cases = loadCases().filter((c) => c.requires.length === 1 && c.requires[0].startsWith('none'))

test('pgbench conformance corpus present', { skip: corpusPresent ? false : 'no ../shared/conformance/pgbench corpus here' }, () => {
  assert.ok(cases.length >= 40, `only ${cases.length} parse-time cases`)
})

for (const c of cases) {
  test(`case ${c.id} ${c.file}: ${c.upstream?.test_name ?? ''}`, () => {
    assert.equal(c.expected_exit_status, 1)
    let err
    try {
      for (const f of c.files) compileScript({ name: f.file, file: f.file, text: scriptText(f.file), weight: f.weight ?? 1 }, { protocol: protocolOf(c.argv) })
    } catch (e) {
      err = e
    }
    assert.ok(err, 'the script was accepted')
    assert.equal(err.exitCode, 1)
    const stderr = `pgload: ${err.message}\n`
    for (const r of [...(c.expected_stderr_regex ?? []), ...(c.expected_error_regex ?? [])]) {
      assert.match(stderr, toRegExp(r))
    }
  })
}
