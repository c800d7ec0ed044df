// --metrics-push and --metrics-push-header bad input: one line each (and a hint), exit 1, before
// the run starts (the server named by --url cannot be reached, so an error about it would mean
// the run had started), and never the URL's password or a header's value.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { runCli } from '../helpers/cli.js'

const UNREACHABLE = 'postgres://nobody@127.0.0.1:1/none'

function assertRefused (r, pattern) {
  assert.equal(r.code, 1, `exit code ${r.code}; stderr: ${r.stderr}`)
  const lines = r.stderr.trim().split('\n')
  assert.ok(lines.length === 1 || (lines.length === 2 && lines[1].startsWith('hint: ')), `expected one line and a hint, got:\n${r.stderr}`)
  assert.match(lines[0], /^pgload: /)
  assert.match(lines[0], pattern)
  assert.doesNotMatch(r.stderr, /cannot connect|\n\s+at |hunter2/)
  assert.equal(r.stdout, '')
}

test('run: a URL that is not http(s) or does not parse, and a bad header: one line naming the option, exit 1', { timeout: 60_000 }, async () => {
  const run = (...args) => runCli(['run', 'tpcb', '-T', '1', '--url', UNREACHABLE, ...args])
  assertRefused(await run('--metrics-push', 'ftp://u:hunter2@h/x'), /^pgload: --metrics-push: the URL must be http:\/\/ or https:\/\/, got ftp:\/\/$/)
  assertRefused(await run('--metrics-push', 'http://u:hunter2@[h/x'), /^pgload: --metrics-push needs the URL of a Prometheus remote-write receiver .*got "http:\/\/u:\*\*\*@\[h\/x"$/)
  assertRefused(await run('--metrics-push-header', 'Authorization: Bearer hunter2'), /--metrics-push-header goes with --metrics-push/)
  assertRefused(await run('--metrics-push', 'http://127.0.0.1:9/api/v1/write', '--metrics-push-header', 'Bearer hunter2'), /--metrics-push-header needs 'Name: value'/)
})

test('sweep checks them as run does; capacity does not take them', { timeout: 60_000 }, async () => {
  assertRefused(await runCli(['sweep', 'tpcb', '--clients', '1,2', '-T', '1', '--url', UNREACHABLE, '--metrics-push', 'file:///tmp/x']),
    /--metrics-push: the URL must be http:\/\/ or https:\/\/, got file:\/\//)
  const r = await runCli(['capacity', 'tpcb', '--until', 'p(99) < 20ms', '--url', UNREACHABLE, '--metrics-push', 'http://127.0.0.1:9/'])
  assert.equal(r.code, 1)
  assert.match(r.stderr, /unknown option --metrics-push/)
})
