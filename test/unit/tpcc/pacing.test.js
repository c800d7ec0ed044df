import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Prng } from '../../../lib/random/prng.js'
import { pacing } from '../../../workloads/tpcc/pacing.js'

const KEYING = { 'new-order': 18, payment: 3, 'order-status': 2, delivery: 2, 'stock-level': 2 }
const THINK = { 'new-order': 12, payment: 12, 'order-status': 10, delivery: 5, 'stock-level': 5 }

test('spec pacing: constant keying 18/3/2/2/2 s, exponential think with means 12/12/10/5/5 s capped at 10x', () => {
  const p = pacing({})
  assert.equal(p.paced, true)
  const r = Prng.fromSeed(11)
  for (const [type, keyS] of Object.entries(KEYING)) {
    const { keyingUs, thinkUs } = p.byType[type]
    assert.equal(keyingUs.sampleUs(r), keyS * 1e6)
    const n = 200000
    let sum = 0; let max = 0
    for (let i = 0; i < n; i++) {
      const v = thinkUs.sampleUs(r)
      assert.ok(v >= 0)
      sum += v
      if (v > max) max = v
    }
    const mean = sum / n
    assert.ok(Math.abs(mean / (THINK[type] * 1e6) - 1) < 0.01, `${type}: mean ${mean} us`)
    assert.ok(max <= THINK[type] * 10e6, `${type}: max ${max} above the 10x cap`)
    assert.ok(max > THINK[type] * 8e6, `${type}: max ${max}: the tail should reach near the cap`)
  }
})

test('the cap truncates: with a draw of r -> 0 the think time is exactly 10x the mean', () => {
  const p = pacing({})
  const almostOne = { double: () => 1 - 2 ** -52 } // -ln(1 - x) huge
  assert.equal(p.byType.payment.thinkUs.sampleUs(almostOne), 120e6)
})

test('--wait-scale scales keying and think; --no-wait removes both', () => {
  const p = pacing({ waitScale: 0.1 })
  assert.equal(p.byType['new-order'].keyingUs.sampleUs(Prng.fromSeed(1)), 1.8e6)
  assert.ok(Math.abs(p.byType.delivery.thinkUs.meanUs - 0.5e6) < 0.001e6)
  assert.equal(p.scale, 0.1)
  const none = pacing({ wait: false })
  assert.equal(none.paced, false)
  for (const t of Object.keys(KEYING)) assert.deepEqual(none.byType[t], {})
  assert.throws(() => pacing({ waitScale: 0 }), /--wait-scale must be a number > 0/)
  assert.throws(() => pacing({ wait: false, waitScale: 2 }), /cannot be combined with --no-wait/)
})
