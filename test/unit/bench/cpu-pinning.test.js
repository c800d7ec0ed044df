// vs-pgbench --pin: its argument, and the command that runs a runner on the client's CPUs.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parsePin, onCpus } from '../../../bench/lib/cpu-pinning.js'

test('--pin takes two taskset CPU lists, client first', () => {
  assert.deepEqual(parsePin('0:1'), { client: '0', server: '1' })
  assert.deepEqual(parsePin('0,2:1-3'), { client: '0,2', server: '1-3' })
  for (const bad of ['0', '0:', ':1', 'a:b', '0:1:2', '', undefined]) {
    assert.throws(() => parsePin(bad), /--pin must be CLIENT:SERVER CPU lists such as 0:1 or 0:1-3/, String(bad))
  }
})

test('a runner on the client CPUs is the same command behind taskset -c', () => {
  assert.deepEqual(onCpus('0', 'pgbench', ['-c', '8']), ['taskset', ['-c', '0', 'pgbench', '-c', '8']])
})
