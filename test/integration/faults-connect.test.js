// A user's worst day, part 3: connections that fail to start. Every failed attempt, with either
// driver and on every path (no password, wrong password, an error from the server during
// start-up, SSL refused, timeout), releases its socket at once; a command that cannot connect
// says so in one line and exits, instead of waiting for the server's authentication_timeout.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createServer } from 'node:net'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { getTestServer } from '../helpers/server.js'
import { runCli } from '../helpers/cli.js'
import { openConnection } from '../../lib/db/connection.js'
import { openLeanConnection } from '../../lib/db/lean-connection.js'

const dir = mkdtempSync(join(tmpdir(), 'pgload-faults-connect-'))
after(() => rmSync(dir, { recursive: true, force: true }))

let server
before(async () => { server = await getTestServer() })

// Loopback servers that misbehave during start-up: one answers SSLRequest with 'N', one is silent.
const fakes = []
async function fakeServer (onConnection) {
  const sockets = new Set()
  const s = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    onConnection(socket)
  })
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve))
  fakes.push({ s, sockets })
  return s.address().port
}
after(async () => {
  for (const { s, sockets } of fakes) {
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => s.close(resolve))
  }
})

const tcpSockets = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length
const settle = () => new Promise((resolve) => setTimeout(resolve, 50))
const fakeTarget = (port, extra = {}) => ({ config: { host: '127.0.0.1', port, user: 'alice', database: 'alice', password: 'x', ...extra }, display: 'fake', embedded: false })

const paths = {
  'no password': () => ({ ...server.target, config: { ...server.target.config, password: undefined } }),
  'a wrong password': () => ({ ...server.target, config: { ...server.target.config, password: 'not-the-password' } }),
  'an error from the server during start-up (no such database)': () => ({ ...server.target, config: { ...server.target.config, database: 'pgload_no_such_db' } }),
  'SSL required, the server refuses it': async () => fakeTarget(await fakeServer((socket) => socket.once('data', () => socket.write('N'))), { sslmode: 'require', ssl: { rejectUnauthorized: false } }),
  'a server that never answers (timeout)': async () => fakeTarget(await fakeServer((socket) => socket.resume()))
}

for (const [driver, open] of [['pg', openConnection], ['lean', openLeanConnection]]) {
  for (const [path, makeTarget] of Object.entries(paths)) {
    test(`--driver ${driver}, ${path}: the attempt fails and its socket is released at once`, async () => {
      const target = await makeTarget()
      await settle()
      const before = tcpSockets()
      const err = await open(target, { protocol: 'simple', connectTimeoutMs: 500 }).then((c) => { c.destroy(); return null }, (e) => e)
      assert.ok(err instanceof Error, 'the connection must fail')
      await settle()
      assert.equal(tcpSockets(), before, `a socket is still open after: ${err.message}`)
    })
  }
}

// The server's authentication_timeout (60 s by default) is what ended these commands before; the
// bound leaves room for a loaded machine and is still far below it.
const EXIT_BOUND_MS = 10_000

test('with no password to be found, run (both drivers), init and --store exit 1 at once with one line', async () => {
  const pgpass = join(dir, 'pgpass')
  writeFileSync(pgpass, '127.0.0.1:1:nodb:nobody:secret\n', { mode: 0o600 }) // the user is not in it
  const u = new URL(server.url)
  u.password = ''
  const url = u.toString()
  const results = join(dir, 'r.json')
  const commands = [
    ['run', 'tpcb', '-T', '1', '--url', url, '--out', results],
    ['run', 'tpcb', '-T', '1', '--driver', 'pg', '--url', url, '--out', results],
    ['init', 'tpcb', '--url', url],
    ['store', fileURLToPath(new URL('../fixtures/results/tpcb-a.json', import.meta.url)), '--results-url', url]
  ]
  for (const args of commands) {
    const t0 = performance.now()
    const r = await runCli(args, { env: { PGPASSFILE: pgpass }, timeoutMs: 90_000 })
    const ms = performance.now() - t0
    assert.equal(r.code, 1, `${args[0]}: ${r.stderr}`)
    assert.ok(ms < EXIT_BOUND_MS, `pgload ${args.slice(0, 4).join(' ')} took ${Math.round(ms)} ms to exit`)
    const lines = r.stderr.trim().split('\n')
    assert.match(lines[0], /^pgload: server at .* asks for a password and none was given for user "postgres"$/)
    assert.ok(lines.length <= 2 && (lines.length === 1 || lines[1].startsWith('hint: ')), r.stderr)
  }
})

test('run --store to a results database without a password: the results file is kept, one warning, the run ends at once', async () => {
  const script = join(dir, 'one.sql')
  writeFileSync(script, 'select 1;\n')
  const u = new URL(server.url)
  u.password = ''
  const out = join(dir, 'stored.json')
  const t0 = performance.now()
  const r = await runCli(['run', script, '-t', '5', '--url', server.url, '--out', out, '--store', '--results-url', u.toString()], { env: { PGPASSFILE: join(dir, 'none') }, timeoutMs: 90_000 })
  const ms = performance.now() - t0
  assert.equal(r.code, 0, r.stderr)
  assert.ok(ms < EXIT_BOUND_MS, `the run took ${Math.round(ms)} ms to exit`)
  assert.match(r.stderr, /^pgload: warning: not stored in the results database: server at .* asks for a password and none was given for user "postgres" \(the results file is kept\)$/m)
  assert.ok(existsSync(out))
})
