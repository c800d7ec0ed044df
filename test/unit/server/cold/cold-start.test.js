// How a cold run restarts its server (decided before anything runs) and the wait for the new
// postmaster, with fake connections: no server needed.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { coldRestartMethod, waitForRestart } from '../../../../lib/server/cold/cold-start.js'

let home
before(() => { home = mkdtempSync(join(tmpdir(), 'pgload-cold-home-')) })
after(() => rmSync(home, { recursive: true, force: true }))

const env = () => ({ PGLOAD_HOME: home })

test('the restart method: --restart-command when given, else the embedded server', async () => {
  assert.deepEqual(await coldRestartMethod({ url: 'postgres://u@db.example/x', restartCommand: 'systemctl restart postgresql', env: env() }),
    { method: 'command', restartCommand: 'systemctl restart postgresql' })
  assert.deepEqual(await coldRestartMethod({ env: env() }), { method: 'embedded' })
})

test('a server given by --url or PG* variables without --restart-command: one line, before anything runs', async () => {
  for (const [opts, shown] of [
    [{ url: 'postgres://u@db.example:5433/x' }, 'postgres://u@db.example:5433/x'],
    // loopback, but no embedded server of this home runs on that port
    [{ url: 'postgres://u:secret@127.0.0.1:1/x' }, 'postgres://u@127.0.0.1:1/x'],
    [{ envExtra: { PGHOST: 'db.example', PGPORT: '6000', PGUSER: 'u', PGDATABASE: 'x' } }, 'postgres://u@db.example:6000/x']
  ]) {
    await assert.rejects(coldRestartMethod({ url: opts.url, env: { ...env(), ...opts.envExtra } }), (err) => {
      assert.equal(err.code, 'COLD_NO_RESTART')
      assert.equal(err.message, `--cold needs a way to restart the server: pgload restarts only its embedded server, and ${shown} is not it`)
      assert.match(err.hint, /--restart-command/)
      assert.doesNotMatch(err.message, /secret/)
      return true
    })
  }
})

/** A fake connection answering pg_postmaster_start_time() with `started`. */
function fakeConn (started, closed) {
  return {
    started,
    async simpleQuery (sql) {
      assert.match(sql, /pg_postmaster_start_time/)
      return { rows: [[started]] }
    },
    async close () { closed.push(started) }
  }
}

test('the wait ends at the first connection to a new postmaster; the others are closed', async () => {
  const closed = []
  const answers = [new Error('connect ECONNREFUSED 127.0.0.1:5432'), 'T0', new Error('FATAL: the database system is starting up'), 'T1']
  let slept = 0
  const conn = await waitForRestart({
    connect: async () => { const a = answers.shift(); if (a instanceof Error) throw a; return fakeConn(a, closed) },
    before: 'T0',
    timeoutS: 60,
    sleep: async () => { slept++ }
  })
  assert.equal(conn.started, 'T1')
  assert.deepEqual(closed, ['T0'], 'the connection to the old postmaster was closed, the new one kept open')
  assert.equal(slept, 3)
  assert.equal(answers.length, 0)
})

test('a server that never comes back, or never restarts, fails within the bound with the last reason', async () => {
  let t = 0
  const clock = { now: () => t, sleep: async (ms) => { t += ms } }
  await assert.rejects(
    waitForRestart({ connect: async () => { throw new Error('connect ECONNREFUSED 127.0.0.1:5432\nmore') }, before: 'T0', timeoutS: 2, pollMs: 500, ...clock }),
    { code: 'COLD_RESTART', message: 'the server did not come back within 2 s of the restart: connect ECONNREFUSED 127.0.0.1:5432' })
  assert.equal(t, 2000, 'gave up at the bound')
  t = 0
  const closed = []
  await assert.rejects(
    waitForRestart({ connect: async () => fakeConn('2026-11-25 10:00:00+00', closed), before: '2026-11-25 10:00:00+00', timeoutS: 1, pollMs: 250, ...clock }),
    { message: 'the server did not come back within 1 s of the restart: it still runs since 2026-11-25 10:00:00+00 (pg_postmaster_start_time() unchanged): it was not restarted' })
  assert.equal(closed.length, 5, 'every connection to the old postmaster closed')
})
