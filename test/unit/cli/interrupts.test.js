// Ctrl-C and SIGTERM as `run` and `ab` share them, and the command line as recorded.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { trapInterrupts, recordedCommand, INTERRUPT_EXIT_CODES } from '../../../lib/cli/interrupts.js'
import { redact } from '../../../lib/server/target/resolve-target.js'

test('each signal is counted; SIGTERM makes the exit status 143, Ctrl-C alone 130', () => {
  const seen = []
  const trap = trapInterrupts((e) => seen.push(e), { on: false })
  assert.equal(trap.exitCode, INTERRUPT_EXIT_CODES.SIGINT)
  trap.interrupt('SIGINT')
  assert.equal(trap.terminated, false)
  assert.equal(trap.exitCode, 130)
  trap.interrupt('SIGTERM')
  assert.deepEqual(seen, [{ count: 1, signal: 'SIGINT' }, { count: 2, signal: 'SIGTERM' }])
  assert.equal(trap.count, 2)
  assert.equal(trap.exitCode, 143)
  trap.release()
})

test('the process listeners are added once and removed by release()', () => {
  const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]
  const seen = []
  const trap = trapInterrupts((e) => seen.push(e.signal))
  assert.deepEqual([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')], before.map((n) => n + 1))
  process.emit('SIGTERM', 'SIGTERM')
  assert.deepEqual(seen, ['SIGTERM'])
  assert.equal(trap.exitCode, 143)
  trap.release()
  assert.deepEqual([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')], before)
})

test('the recorded command line has no passwords', () => {
  assert.equal(recordedCommand(['run', '--url', 'postgres://bob:s3cret@db:5432/x', '-c', '4']), "pgload run --url 'postgres://bob:***@db:5432/x' -c 4")
  assert.equal(recordedCommand(['run', '--url', "host=db password='a b' user=bob"]), "pgload run --url 'host=db password=*** user=bob'")
  assert.equal(recordedCommand(['ab', '--a', 'work_mem=4MB', '--', 'run', 'tpcb']), 'pgload ab --a work_mem=4MB -- run tpcb')
})

test('the recorded command line quotes an argument a shell would read otherwise, so it can be pasted back', () => {
  assert.equal(recordedCommand(['capacity', 'tpcb', '--until', 'p(99) < 20ms', '--step', '2s']), "pgload capacity tpcb --until 'p(99) < 20ms' --step 2s")
  assert.equal(recordedCommand(['run', '-f', "it's.sql@3", '--label', '', '-D', 'x=$HOME']), "pgload run -f 'it'\\''s.sql@3' --label '' -D 'x=$HOME'")
  // a password redacted inside a quoted word is read again as redacted, the closing quote kept
  assert.equal(redact(recordedCommand(['run', '--url', "host=db password=it's"])), "pgload run --url 'host=db password=***'")
})

test('the command line on record hides --metrics-push\'s password and --metrics-push-header\'s values', () => {
  assert.equal(recordedCommand(['run', '--metrics-push', 'http://u:pw@h:9090/api/v1/write', '--metrics-push-header', 'Authorization: Bearer tok', '--metrics-push-header=X-Scope-OrgID: team', '-c', '2']),
    "pgload run --metrics-push 'http://u:***@h:9090/api/v1/write' --metrics-push-header 'Authorization: ***' '--metrics-push-header=X-Scope-OrgID: ***' -c 2")
  assert.equal(recordedCommand(['run', '--metrics-push-header', 'tok']), "pgload run --metrics-push-header '***'")
})
