// The bench's per-transaction CPU and CPU-wait of a runner, from scheduler samples.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { schedPerTxn, sampleChildSched } from '../../../bench/lib/runner-sched.js'

test('per transaction over the steady window: the samples nearest inside it, tps times its length', () => {
  const points = [
    { ms: 100, onCpuNs: 0, waitNs: 0 },
    { ms: 2000, onCpuNs: 1e9, waitNs: 0.5e9 },
    { ms: 3000, onCpuNs: 1.4e9, waitNs: 1.0e9 },
    { ms: 7000, onCpuNs: 3.0e9, waitNs: 3.0e9 },
    { ms: 9900, onCpuNs: 9e9, waitNs: 9e9 } // after the window's end: not used
  ]
  const s = schedPerTxn(points, { fromMs: 2000, toMs: 9500, tps: 1000 })
  // 5 s: 5000 transactions, 2 s on a CPU and 2.5 s waiting
  assert.ok(Math.abs(s.onCpuUsPerTxn - 400) < 1e-9)
  assert.ok(Math.abs(s.cpuWaitUsPerTxn - 500) < 1e-9)
  assert.ok(Math.abs(s.onCpuShare - 0.4) < 1e-12)
  assert.ok(Math.abs(s.cpuWaitShare - 0.5) < 1e-12)
  assert.equal(schedPerTxn(points, { fromMs: 2000, toMs: 2500, tps: 1000 }), null, 'under a second of window')
  assert.equal(schedPerTxn([], { fromMs: 2000, toMs: 9500, tps: 1000 }), null)
  assert.equal(schedPerTxn(points, { fromMs: 2000, toMs: 9500, tps: 0 }), null)
})

test('on Linux, a busy child of bash is found and counted on a CPU', { skip: process.platform !== 'linux' }, async () => {
  const child = spawn('bash', ['-c', '"$@"; exit $?', 'bash', process.execPath, '-e', 'const t = Date.now() + 1500; while (Date.now() < t);'], { stdio: 'ignore' })
  const sampler = sampleChildSched(child.pid, { everyMs: 50 })
  await new Promise((resolve) => child.on('close', resolve))
  sampler.stop()
  const s = schedPerTxn(sampler.points, { fromMs: 0, toMs: 10000, tps: 1000 })
  assert.ok(s !== null, `${sampler.points.length} samples`)
  assert.ok(s.onCpuShare + s.cpuWaitShare > 0.8, JSON.stringify(s))
})
