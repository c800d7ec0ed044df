// A connection string with a malformed percent-escape (`%zz`, a lone `%`): one line naming the
// option and the part, never the part's value, exit 1, before any connection is tried (port 1
// refuses: a connection error would mean it was tried).

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { runCli, assertOneLineError } from '../helpers/cli.js'

const SECRET = 'abc%zz'
const UNREACHABLE = 'postgres://nobody@127.0.0.1:1/none'

const cases = [
  [['run', 'tpcb', '-T', '1', '--url', `postgres://u:${SECRET}@127.0.0.1:1/db`], /^pgload: --url: the password has a malformed percent-escape/],
  [['init', 'tpcb', '--url', `postgres://u:${SECRET}@127.0.0.1:1/db`], /^pgload: --url: the password has a malformed percent-escape/],
  [['run', 'tpcb', '-T', '1', '--url', 'postgres://u@127.0.0.1:1/bench%'], /^pgload: --url: the database name has a malformed percent-escape/],
  [['init', 'tpcb', '--url', 'postgres://u%zz@127.0.0.1:1/db'], /^pgload: --url: the user name has a malformed percent-escape/],
  [['store', '/nonexistent.json', '--results-url', `postgres://u:${SECRET}@127.0.0.1:1/db`], /^pgload: --results-url: the password has a malformed percent-escape/],
  [['store', '/nonexistent.json', '--results-url', 'postgres://u@127.0.0.1:1/res%zz'], /^pgload: --results-url: the database name has a malformed percent-escape/],
  // said before the run, not after it has measured
  [['run', 'tpcb', '-T', '1', '--url', UNREACHABLE, '--store', '--results-url', `postgres://u:${SECRET}@127.0.0.1:1/db`], /^pgload: --results-url: the password has a malformed percent-escape/]
]

for (const [args, pattern] of cases) {
  test(`${args.slice(0, 1).concat(args.slice(-2)).join(' ')}: one line naming the option`, { timeout: 30_000 }, async () => {
    const r = await runCli(args)
    assertOneLineError(r, pattern)
    assert.match(r.stderr, /^hint: write a literal % as %25$/m)
    assert.doesNotMatch(r.stderr, /internal error|URI malformed|cannot connect|\n\s+at /)
    assert.ok(!r.stderr.includes(SECRET), 'the password is not shown')
  })
}
