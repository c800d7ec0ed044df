// An embedded server left running by a pgload killed with SIGKILL: `server status` reports it as
// orphaned, and the next command adopts it (same server, same data) and stops it when done.

import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, chmodSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../helpers/cli.js'
import { serverCommand } from '../../lib/cli/server.js'
import { serverStatus, stopServer } from '../../lib/server/embedded/embedded-server.js'
import { pidAlive } from '../../lib/server/embedded/home-lock.js'

const base = mkdtempSync(join(tmpdir(), 'pgload-orphan-'))
chmodSync(base, 0o755) // as root the server runs as `postgres`, which must reach the home
const env = { PGLOAD_HOME: join(base, 'home') }
const out = join(base, 'results.json')
after(async () => {
  await stopServer({ env: { ...process.env, ...env } }).catch(() => {})
  rmSync(base, { recursive: true, force: true })
})

async function waitUntil (check, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return true
}

test('a SIGKILLed run leaves an orphan: status says so, the next run adopts and stops it', async () => {
  let killedPid
  const killed = await runCli(['run', 'tpcb', '-T', '60s', '--no-server-stats', '-o', out], {
    env,
    timeoutMs: 90_000,
    onSpawn (child) {
      let err = ''
      child.stderr.on('data', (d) => {
        err += d
        if (/running 1 terminal/.test(err) && !killedPid) { killedPid = child.pid; child.kill('SIGKILL') }
      })
    }
  })
  assert.equal(killed.signal, 'SIGKILL', killed.stderr)

  const st = await serverStatus({ env })
  assert.equal(st.running, true)
  assert.equal(st.orphaned, true)
  assert.equal(st.owner, killedPid)
  assert.ok(pidAlive(st.pid), 'the postmaster outlived its pgload')
  const text = { text: '', write (c) { this.text += c } }
  await serverCommand('status', { env, out: text })
  assert.equal(text.text.split('\n')[0], `orphaned: a PostgreSQL server (pid ${st.pid}) started by a pgload that is gone (pid ${killedPid}) ` +
    `is running on port ${st.port} since ${st.startedAt}; the next pgload command adopts it and stops it when done, or stop it now: pgload server stop`)

  const again = await runCli(['run', 'tpcb', '-T', '1s', '--no-server-stats', '-o', out], { env, timeoutMs: 90_000 })
  assert.equal(again.code, 0, again.stderr)
  const lines = again.stderr.split('\n')
  assert.ok(lines.includes(`pgload: warning: the embedded PostgreSQL (pid ${st.pid}, port ${st.port}) was left running by a pgload that is gone (pid ${killedPid}): ` +
    'using it, and stopping it when this command ends'), again.stderr)
  assert.ok(lines.includes(`pgload: embedded PostgreSQL ${st.version} at postgres://postgres@127.0.0.1:${st.port}/postgres (pg_stat_statements on)`), `the same server, not a new one\n${again.stderr}`)
  assert.match(again.stdout, /number of transactions actually processed: [1-9]/, 'the tables loaded by the killed run were there')

  assert.equal((await serverStatus({ env })).running, false, 'stopped at the end, as one it had started')
  assert.ok(await waitUntil(() => !pidAlive(st.pid)), 'the orphaned postmaster is gone')
})
