// The --restart-command runner: the shell runs it with the given environment, a failure is one
// line with its exit status and last stderr line, and a command past its time is killed whole.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runRestartCommand, lastLine } from '../../../../lib/server/cold/restart-command.js'
import { pidAlive } from '../../../../lib/server/embedded/home-lock.js'

let dir
before(() => { dir = mkdtempSync(join(tmpdir(), 'pgload-restart-cmd-')) })
after(() => rmSync(dir, { recursive: true, force: true }))

test('a command that succeeds ran through the shell, with the environment given', async () => {
  const out = join(dir, 'ran')
  const r = await runRestartCommand(`printf '%s' "$PGLOAD_AB_SIDE" > '${out}'`, { env: { ...process.env, PGLOAD_AB_SIDE: 'B' }, timeoutS: 30 })
  assert.equal(readFileSync(out, 'utf8'), 'B')
  assert.ok(r.seconds >= 0 && r.seconds < 30, `took ${r.seconds} s`)
})

test('a failure is one line: the exit status and the last line on stderr', async () => {
  await assert.rejects(
    runRestartCommand('echo first >&2; echo "  it broke  " >&2; echo >&2; exit 3', { timeoutS: 30 }),
    (err) => {
      assert.equal(err.name, 'PgloadError')
      assert.equal(err.code, 'COLD_RESTART')
      assert.equal(err.message, '--restart-command failed with exit status 3: it broke')
      return true
    })
  await assert.rejects(runRestartCommand('exit 7', { timeoutS: 30 }), { message: '--restart-command failed with exit status 7: (nothing on stderr)' })
})

test('a command killed by a signal says which', async () => {
  await assert.rejects(runRestartCommand('echo going >&2; kill -TERM $$', { timeoutS: 30 }), { message: '--restart-command was killed by SIGTERM: going' })
})

test('a command past its time is killed with what it started, and says so', async () => {
  const pidFile = join(dir, 'child.pid')
  await assert.rejects(
    runRestartCommand(`sleep 30 & echo $! > '${pidFile}'; echo waiting >&2; wait`, { timeoutS: 0.5 }),
    { message: '--restart-command did not finish within 0.5 s and was killed: waiting' })
  const child = Number(readFileSync(pidFile, 'utf8'))
  // the whole process group got SIGKILL: the background sleep is gone (reaped by init shortly)
  for (let i = 0; i < 50 && pidAlive(child) && !isZombie(child); i++) await new Promise((resolve) => setTimeout(resolve, 20))
  assert.ok(!pidAlive(child) || isZombie(child), `the command's child ${child} still runs`)
})

test('a shell that cannot be started is one line too', async () => {
  await assert.rejects(runRestartCommand('true', { timeoutS: 5, shell: join(dir, 'no-such-shell') }), /^PgloadError: --restart-command could not be started \(.*no-such-shell\): .*ENOENT/)
})

test('lastLine: the last non-empty line, trimmed', () => {
  assert.equal(lastLine('a\n b \n\n'), 'b')
  assert.equal(lastLine(''), '(nothing on stderr)')
})

function isZombie (pid) {
  const stat = `/proc/${pid}/stat`
  if (!existsSync(stat)) return false
  return / Z /.test(readFileSync(stat, 'utf8'))
}
