// The nastiest scripts through `pgload run`: 100,000-term chains run against the test server;
// nestings past the limit and over-long sleeps end with one located error and exit 1, no stack.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../helpers/cli.js'
import { getTestServer } from '../helpers/server.js'

const UNREACHABLE = 'postgres://nobody@127.0.0.1:1/none'
const N = 100000

/** Write a script in a fresh directory, run `pgload run -f` on it, remove the directory. */
async function runScript (text, args) {
  const dir = mkdtempSync(join(tmpdir(), 'pgload-limits-'))
  try {
    const file = join(dir, 'x.sql')
    writeFileSync(file, text)
    return await runCli(['run', '-f', file, '-n', ...args, '--out', join(dir, 'r.json')], { timeoutMs: 60_000 })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const TOO_DEEP = {
  'parentheses 3,000 deep': '\\set x ' + '('.repeat(3000) + '1' + ')'.repeat(3000),
  'abs( 10,000 deep': '\\set x ' + 'abs('.repeat(10000) + '1' + ')'.repeat(10000),
  'case 5,000 deep': '\\set x ' + 'case when true then '.repeat(5000) + '1' + ' end'.repeat(5000),
  '50,000 not': '\\set x ' + 'not '.repeat(50000) + 'true',
  '50,000 unary minus': '\\set x ' + '-'.repeat(50000) + '1',
  '\\if 50,000 ~': '\\if ' + '~'.repeat(50000) + '1\n\\endif'
}

for (const [name, line] of Object.entries(TOO_DEEP)) {
  test(`${name}: one line at file:line:column, exit 1`, async () => {
    const r = await runScript(`select 1;\n${line}\nselect 2;\n`, ['-t', '1', '--url', UNREACHABLE])
    assert.equal(r.code, 1, r.stderr.slice(0, 500))
    const lines = r.stderr.trimEnd().split('\n')
    assert.equal(lines.length, 1, r.stderr.slice(0, 500))
    assert.match(lines[0], /^pgload: .*x\.sql:2:\d+: expression nested too deeply \(limit \d+\) in command "(set|if)"$/)
  })
}

test('a \\sleep longer than a timer holds is refused before connecting', async () => {
  const r = await runScript('\\sleep 3000000 s\nselect 1;\n', ['-t', '1', '--url', UNREACHABLE])
  assert.equal(r.code, 1)
  assert.match(r.stderr, /^pgload: .*x\.sql:1:8: sleep time too long, must be at most 2147483647 ms/)
  assert.doesNotMatch(r.stderr, /TimeoutOverflowWarning|^\s+at /m)
})

test('100,000-term chains run with -t 1 and give their values', async () => {
  const { url } = await getTestServer()
  const text = `\\set x 1${' + 1'.repeat(N - 1)}\n` +
    `\\set b true${' and true'.repeat(N - 1)}\n` +
    `\\set o false${' or false'.repeat(N - 1)}\n` +
    // a wrong value divides by zero, which aborts the client (exit 2)
    `SELECT CASE WHEN :x = ${N} AND :b AND NOT :o THEN 1 ELSE 1/0 END;\n`
  const r = await runScript(text, ['-t', '1', '--url', url])
  assert.equal(r.code, 0, r.stderr.slice(0, 1000))
  assert.doesNotMatch(r.stderr, /RangeError|^\s+at /m)
})

test('a \\sleep too long from a variable aborts the client with one line, no warning flood', async () => {
  const { url } = await getTestServer()
  const r = await runScript('\\set t 3000000\n\\sleep :t s\nselect 1;\n', ['-t', '1', '--url', url])
  assert.equal(r.code, 2, r.stderr.slice(0, 1000))
  assert.match(r.stderr, /client 0 aborted in command 1 \(sleep\) of script 0; execution of meta-command failed: sleep: sleep time "3000000" for variable "t" is too long/)
  assert.doesNotMatch(r.stderr, /TimeoutOverflowWarning|^\s+at /m)
})
