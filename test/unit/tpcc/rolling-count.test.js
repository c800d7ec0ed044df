import { test } from 'node:test'
import assert from 'node:assert/strict'
import { RollingCount } from '../../../workloads/tpcc/rolling-count.js'

test('events per minute over the last whole seconds, or since the start when that is shorter', () => {
  const c = new RollingCount(60)
  for (let s = 1000; s < 1100; s++) for (let k = 0; k < 3; k++) c.add(s + k * 0.3) // 3 a second
  assert.deepEqual(c.perMinute(1100.5, 0), { perMinute: 180, windowS: 60 })
  // started 10.5 s ago: the window is the 10.5 s since, 3 events a second in it (the first second half counted)
  const since = c.perMinute(1100.5, 1090)
  assert.equal(since.windowS, 10)
  assert.equal(since.perMinute, 30 * 6)
  // old slots are not counted again after the ring wraps
  c.add(1200.2)
  assert.deepEqual(c.perMinute(1201.1, 0), { perMinute: 1, windowS: 60 })
  assert.deepEqual(new RollingCount(60).perMinute(5.5, 5.2), { perMinute: 0, windowS: 0 })
  // started 1.2 s ago, at 1098.3: no whole second since, so no rate over the 0.7 s before 1099
  assert.deepEqual(c.perMinute(1099.5, 1098.3), { perMinute: 0, windowS: 0 })
  // 2.2 s ago: the one whole second since
  assert.deepEqual(c.perMinute(1100.5, 1098.3), { perMinute: 180, windowS: 1 })
})
