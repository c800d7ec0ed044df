// The driver thread's CPU and CPU-wait accounting, from the kernel's schedstat file.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sampleThreadSched, threadSchedShares } from '../../../lib/metrics/thread-schedstat.js'

test('a schedstat line gives time on a CPU and time waiting for one; no file gives null', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pgload-schedstat-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'schedstat')
  writeFileSync(file, '2139000000 2530000000 94765\n')
  const s = sampleThreadSched(file)
  assert.equal(s.onCpuNs, 2139000000)
  assert.equal(s.waitNs, 2530000000)
  assert.ok(s.wallNs > 0)
  assert.equal(sampleThreadSched(join(dir, 'missing')), null)
  writeFileSync(file, '')
  assert.equal(sampleThreadSched(file), null)
  writeFileSync(file, 'not numbers\n')
  assert.equal(sampleThreadSched(file), null)
})

test('shares of the wall time between two samples', () => {
  const from = { onCpuNs: 1e9, waitNs: 2e9, wallNs: 10e9 }
  const to = { onCpuNs: 1e9 + 2.1e9, waitNs: 2e9 + 2.5e9, wallNs: 16e9 }
  const s = threadSchedShares(from, to)
  assert.equal(s.onCpuShare, 0.35)
  assert.ok(Math.abs(s.cpuWaitShare - 2.5 / 6) < 1e-12)
  assert.equal(s.cpuWaitUs, 2.5e6)
  assert.equal(threadSchedShares(null, to), null)
  assert.equal(threadSchedShares(from, null), null)
  assert.equal(threadSchedShares(from, { ...to, wallNs: from.wallNs }), null)
})

test('on Linux, a busy loop in this thread is counted on a CPU', { skip: process.platform !== 'linux' }, () => {
  const a = sampleThreadSched()
  assert.ok(a !== null, '/proc/thread-self/schedstat is readable')
  const until = performance.now() + 200
  let spins = 0
  while (performance.now() < until) spins++
  const s = threadSchedShares(a, sampleThreadSched())
  // on a CPU or waiting for one: the thread was runnable the whole time
  assert.ok(s.onCpuShare + s.cpuWaitShare > 0.9, `${JSON.stringify(s)} after ${spins} spins`)
})
