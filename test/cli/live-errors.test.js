// --dashboard and --metrics bad input: one line each, exit 1, before the run starts (the server
// named by --url cannot be reached, so an error about it would mean the run had started).

import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { runCli } from '../helpers/cli.js'

const UNREACHABLE = 'postgres://nobody@127.0.0.1:1/none'

function assertOneLineError (r, pattern) {
  assert.equal(r.code, 1, `exit code ${r.code}; stderr: ${r.stderr}`)
  const lines = r.stderr.trim().split('\n')
  assert.equal(lines.length, 1, `expected one line, got:\n${r.stderr}`)
  assert.match(lines[0], /^pgload: /)
  assert.match(lines[0], pattern)
  assert.doesNotMatch(r.stderr, /cannot connect|\n\s+at /)
}

/** A loopback port held open for the duration of fn. */
async function withBusyPort (fn) {
  const server = net.createServer()
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    return await fn(server.address().port)
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
}

test('--dashboard and --metrics on a port in use: one line naming the flag, exit 1, before the run', { timeout: 30_000 }, async () => {
  await withBusyPort(async (port) => {
    assertOneLineError(await runCli(['run', 'tpcb', '-T', '1', '--url', UNREACHABLE, '--dashboard', `127.0.0.1:${port}`]),
      new RegExp(`--dashboard 127\\.0\\.0\\.1:${port}: cannot listen: the port is in use`))
    assertOneLineError(await runCli(['run', 'tpcb', '-T', '1', '--url', UNREACHABLE, '--metrics', `127.0.0.1:${port}`]),
      new RegExp(`--metrics 127\\.0\\.0\\.1:${port}: cannot listen: the port is in use`))
  })
})

test('an address that cannot be bound, and malformed ones: one line each, exit 1', { timeout: 30_000 }, async () => {
  // 192.0.2.0/24 is TEST-NET-1: never an address of this machine
  assertOneLineError(await runCli(['run', 'tpcb', '-T', '1', '--url', UNREACHABLE, '--metrics', '192.0.2.1:9464']),
    /--metrics 192\.0\.2\.1:9464: cannot listen: the address is not one of this machine's/)
  assertOneLineError(await runCli(['run', 'tpcb', '-T', '1', '--url', UNREACHABLE, '--dashboard', 'localhost:http']),
    /--dashboard needs HOST:PORT/)
  assertOneLineError(await runCli(['run', 'tpcb', '-T', '1', '--url', UNREACHABLE, '--metrics', '']), /--metrics needs HOST:PORT/)
  assertOneLineError(await runCli(['run', 'tpcb', '-T', '1', '--url', UNREACHABLE, '--dashboard', '127.0.0.1:70000']), /the port must be 0\.\.65535/)
  assertOneLineError(await runCli(['run', 'tpcb', '-T', '1', '--url', UNREACHABLE, '--dashboard-out', 'x.html']), /--dashboard-out goes with --dashboard/)
  assertOneLineError(await runCli(['run', 'tpcb', '-T', '1', '--url', UNREACHABLE, '--progress-server', 'maybe']), /--progress-server must be on or off/)
})

test('--dashboard with --json: one line, exit 1', { timeout: 30_000 }, async () => {
  assertOneLineError(await runCli(['run', 'tpcb', '-T', '1', '--url', UNREACHABLE, '--dashboard', '--json']), /--dashboard does not go with --json/)
})
