// `pgload ab` says what it will do before it connects: a side left out is refused (an A/A test
// is asked for with --aa), and rounds too few for significance are warned about up front.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { runCli, assertOneLineError } from '../helpers/cli.js'

const UNREACHABLE = 'postgres://nobody@127.0.0.1:1/none'
const RUN = ['--', 'run', 'tpcb', '-T', '1s', '--url', UNREACHABLE]

test('ab without --b (or --a) is refused in one line, not run as an A/A test', async () => {
  const r = await runCli(['ab', '--a', 'work_mem=8MB', ...RUN])
  assertOneLineError(r, /^pgload: ab needs both --a and --b: without --b its side would run with the server's settings as they are$/)
  assert.match(r.stderr, /^hint: give --b '' to compare against the server as it is, or --aa for an A/m)
  assertOneLineError(await runCli(['ab', '--b', 'work_mem=8MB', ...RUN]), /without --a its side/)
  assertOneLineError(await runCli(['ab', '--a', '', '--b', '', ...RUN]), /that is an A\/A test; ask for it with --aa$/)
  assertOneLineError(await runCli(['ab', '--aa', '--a', 'work_mem=8MB', ...RUN]), /--aa runs both sides with the server as it is/)
})

test('ab --aa says up front that it is an A/A test; --rounds 2 warns before any run, by the verdict\'s rule', async () => {
  const aa = await runCli(['ab', '--aa', '--rounds', '5', ...RUN])
  const lines = aa.stderr.split('\n')
  assert.match(lines[0], /^pgload ab: an A\/A test \(--aa\): both sides run with the server's settings as they are/)
  assert.doesNotMatch(aa.stderr, /too few runs/)
  const two = await runCli(['ab', '--a', 'work_mem=8MB', '--b', '', '--rounds', '2', ...RUN])
  assert.match(two.stderr.split('\n')[0], /^pgload ab: warning: --rounds 2: too few runs to ever reach significance: with 2 runs of A and 2 runs of B the smallest possible p is 0\.333 >= 0\.05/)
  assert.notEqual(two.code, 0, 'the server is unreachable')
})

test('ab against a server it cannot reach: one line naming the address, not an internal error; the default rounds draw no warning', async () => {
  const r = await runCli(['ab', '--a', 'work_mem=8MB', '--b', 'work_mem=16MB', ...RUN])
  assertOneLineError(r, /^pgload: cannot connect to PostgreSQL at 127\.0\.0\.1:1: connection refused$/)
  assert.doesNotMatch(r.stderr, /internal error|too few runs/)
  const urls = await runCli(['ab', '--a-url', UNREACHABLE, '--b-url', 'postgres://nobody@127.0.0.1:2/none', '--', 'run', 'tpcb', '-T', '1s'])
  assertOneLineError(urls, /^pgload: cannot connect to PostgreSQL at 127\.0\.0\.1:1: connection refused$/)
})
