// pgbench's command-line test cases that the script library decides (builtin names, weights,
// -D, --random-seed, -b list, --show-script), checked against the library directly.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { BUILTIN_SCRIPTS, compileScript, findBuiltin, listBuiltins, parseDefine, scriptWorkload, splitWeight } from '../../lib/script/index.js'
import { parseRandomSeed } from '../../lib/random/seeding.js'
import { corpusPresent, loadCliCases, toRegExp } from './cases.js'

/** What the library does for a case's argv, as the text pgload prints (message and hint). */
function outcome (argv) {
  const scripts = []
  try {
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i]
      const value = () => (a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i])
      if (a === '-S') scripts.push({ name: 'select-only', weight: 1 })
      else if (a === '-b' || a.startsWith('--builtin')) {
        const v = value()
        if (v === 'list') return { code: 0, stderr: listBuiltins() }
        const { name, weight } = splitWeight(v)
        scripts.push({ name: findBuiltin(name).name, weight })
      } else if (a === '--show-script') {
        const b = findBuiltin(value())
        return { code: 0, stderr: `-- ${b.name}: ${b.desc}\n${b.script}\n` }
      } else if (a === '--define') parseDefine(value())
      else if (a.startsWith('--random-seed')) parseRandomSeed(value())
    }
    const compiled = scripts.map((s) => {
      const b = BUILTIN_SCRIPTS.find((x) => x.name === s.name)
      return compileScript({ name: b.name, text: b.script, desc: b.desc, weight: s.weight })
    })
    scriptWorkload(compiled, { randomSeed: 1n })
    return { code: 0, stderr: '' }
  } catch (e) {
    return { code: e.exitCode, stderr: `pgload: ${e.message}\n${e.hint ? 'hint: ' + e.hint + '\n' : ''}` }
  }
}

const LIBRARY_CASES = new Set([
  'pgbench option error: no builtin', 'pgbench option error: invalid weight', 'pgbench option error: too many scripts',
  'pgbench option error: bad variable', 'pgbench option error: weight zero', 'pgbench option error: ambiguous builtin',
  'pgbench option error: bad random seed', 'pgbench builtin list', 'pgbench builtin listing'
])
const cases = loadCliCases().filter((c) => LIBRARY_CASES.has(c.name))

test('pgbench command-line corpus present', { skip: corpusPresent ? false : 'no ../shared/conformance/pgbench corpus here' }, () => {
  assert.equal(cases.length, 10)
})

for (const c of cases) {
  test(`${c.name}: ${c.argv.join(' ')}`, () => {
    const r = outcome(c.argv)
    assert.equal(r.code, c.expected_exit_status, r.stderr)
    for (const x of c.expected_stderr_regex ?? []) {
      // pgbench's last line "error while setting random seed from --random-seed option" is the CLI's
      if (x.pattern.startsWith('error while setting random seed')) continue
      assert.match(r.stderr, toRegExp(x))
    }
  })
}
