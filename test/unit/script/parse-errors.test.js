// Load-time errors: pgbench's words, the offending line and a caret. When pgbench is installed,
// each script is also given to it (it parses scripts before connecting) and the texts compared.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compileScript } from '../../../lib/script/index.js'

const CASES = [
  ['\\set i 1 +\n', 'syntax error in command "set"\n\\set i 1 +\n          ^ error found here'],
  ['\\set i 1 +', 'syntax error in command "set"\n\\set i 1 +\n         ^ error found here'],
  ['\\set i foo\n', 'unexpected function name (foo) in command "set"\n\\set i foo\n         ^ error found here'],
  ['select 1;\n  \\set i ln(1.0, 2.0))\n', 'unexpected number of arguments (ln) in command "set"\n\\set i ln(1.0, 2.0))\n                  ^ error found here'],
  ['\\set i greatest()\n', 'at least one argument expected (greatest) in command "set"\n\\set i greatest()\n                ^ error found here'],
  ['\\set i 1 +;\n', 'unexpected character (;) in command "set"\n\\set i 1 +;\n          ^ error found here'],
  ['\\set i 1 \\\n + 2 +\n', 'syntax error in command "set"\n\\set i 1 \\\n + 2 +\n                 ^ error found here'],
  ['\\set i 100000000000000000000 + 1\n', 'bigint constant overflow (100000000000000000000) in command "set"\n\\set i 100000000000000000000 + 1\n                           ^ error found here'],
  ['\\set d 1.0E309\n', 'double constant overflow (1.0E309) in command "set"\n\\set d 1.0E309\n             ^ error found here'],
  ['\\set d .1E310\n', 'double constant overflow (.1E310) in command "set"\n\\set d .1E310\n            ^ error found here'],
  ['\\sleep 1 week\n', 'unrecognized time unit, must be us, ms or s (week) in command "sleep"\n\\sleep 1 week\n         ^ error found here'],
  ['\\sleep x1\n', 'invalid sleep time, must be an integer (x1) in command "sleep"\n\\sleep x1\n       ^ error found here'],
  ['\\sleep 1 2 3\n', 'too many arguments in command "sleep"\n\\sleep 1 2 3\n           ^ error found here'],
  ['\\sleep\n', 'missing argument in command "sleep"\n\\sleep'],
  ['\\set\n', 'missing argument in command "set"'],
  ['\\set i\n', 'syntax error in command "set"\n\\set i\n      ^ error found here'],
  ['select 1\\gset\n\\gset\n', '\\gset must follow an SQL command'],
  ['\\set i 1\n\\gset\n', '\\gset must follow an SQL command (\\set i 1)'],
  ['\\gset', '\\gset must follow an SQL command'],
  ['SELECT 1 \\gset a b', 'too many arguments in command "gset"\n\\gset a b'],
  ['\\set i random\n', 'syntax error in command "set"\n\\set i random\n             ^ error found here'],
  ['\\set i CASE TRUE THEN 1 ELSE 0 END', 'syntax error in command "set"\n\\set i CASE TRUE THEN 1 ELSE 0 END\n               ^ error found here'],
  ['\\set i 1 = 2 = 3\n', 'syntax error in command "set"\n\\set i 1 = 2 = 3\n             ^ error found here'],
  ['\\set i hash()\n', 'unexpected number of arguments (hash) in command "set"\n\\set i hash()\n            ^ error found here'],
  ['\\set i permute(1, 2, 3, 4)\n', 'unexpected number of arguments (permute) in command "set"\n\\set i permute(1, 2, 3, 4)\n                         ^ error found here'],
  ['\\set i :\n', 'unexpected character (:) in command "set"\n\\set i :\n       ^ error found here'],
  ['\\set i 9223372036854775808\n', 'syntax error in command "set"\n\\set i 9223372036854775808\n                         ^ error found here'],
  ['\\nosuchcommand', 'invalid command in command "nosuchcommand"\n\\nosuchcommand'],
  ['\\shell', 'missing command in command "shell"\n\\shell'],
  ['\\setshell var', 'missing argument in command "setshell"\n\\setshell var'],
  ['\\if 0\n\\else BAD\n\\endif\n', 'unexpected argument in command "else"\n\\else BAD'],
  ['\\if\n\\endif\n', 'syntax error in command "if"\n\\if\n   ^ error found here'],
  ['\\if 1\n\\else\n\\elif 0\n\\endif', 'condition error in script "t.sql" command 3: \\elif after \\else'],
  ['\\if 1\n\\else\n\\else\n\\endif', 'condition error in script "t.sql" command 3: \\else after \\else'],
  ['\\if 1', 'condition error in script "t.sql" command 2: \\if without matching \\endif'],
  ['\\endif', 'condition error in script "t.sql" command 1: \\endif without matching \\if'],
  ['\\elif 1', 'condition error in script "t.sql" command 1: \\elif without matching \\if'],
  ['', 'empty command list for script "t.sql"'],
  ['-- only a comment\n', 'empty command list for script "t.sql"'],
  [`\\shell echo ${'arg '.repeat(256)}\n`, 'too many arguments in command "shell"']
]

/** Drop the location prefix (`file:line[:column]: `), which pgbench prints without a column. */
function body (message) {
  return message.replace(/^(pgbench: error: )?t\.sql:\d+(:\d+)?: /, '').replace(/^pgbench: error: /, '').trimEnd()
}

function compileError (text, protocol = 'simple') {
  try {
    compileScript({ name: 't.sql', text }, { protocol })
  } catch (e) {
    return e
  }
  assert.fail(`no error for ${JSON.stringify(text)}`)
}

test('load-time errors carry pgbench\'s text, file:line:column, the line and a caret', () => {
  for (const [text, expected] of CASES) {
    const e = compileError(text)
    assert.equal(e.exitCode, 1)
    assert.equal(body(e.message), expected, JSON.stringify(text))
  }
  const e = compileError('select 1;\n  \\set i ln(1.0, 2.0))\n')
  assert.match(e.message, /^t\.sql:2:21: /)
  assert.equal(e.line, 2)
  assert.equal(e.column, 21)
})

test('too many parameters for extended and prepared, none for simple', () => {
  const text = `select least(${Array(256).fill(':i').join(', ')});`
  assert.match(compileError(text, 'prepared').message, /statement has too many arguments \(maximum is 255\)/)
  assert.doesNotThrow(() => compileScript({ name: 't.sql', text }, { protocol: 'simple' }))
  assert.doesNotThrow(() => compileScript({ name: 't.sql', text: `select least(${Array(255).fill(':i').join(', ')});` }, { protocol: 'extended' }))
})

test('a script that is not UTF-8 gets a clear message', () => {
  const e = (() => { try { compileScript({ name: 'bad.sql', text: Buffer.from([0x73, 0xff, 0xfe]) }) } catch (err) { return err } })()
  assert.equal(e.message, 'script "bad.sql" is not valid UTF-8')
})

const havePgbench = spawnSync('pgbench', ['--version']).status === 0
test('the same errors as the installed pgbench', { skip: havePgbench ? false : 'pgbench is not installed' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'pgload-parse-'))
  try {
    for (const [text] of CASES) {
      const file = join(dir, 't.sql')
      writeFileSync(file, text)
      // pgbench parses the script before connecting: a bad host is never reached
      const r = spawnSync('pgbench', ['-n', '-h', '/nonexistent-pgload', '-f', 't.sql'], { cwd: dir, encoding: 'utf8' })
      assert.equal(r.status, 1, text)
      assert.equal(body(compileError(text).message), body(r.stderr), JSON.stringify(text))
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
