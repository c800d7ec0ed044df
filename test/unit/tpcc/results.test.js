import { test } from 'node:test'
import assert from 'node:assert/strict'
import { tpccResults } from '../../../workloads/tpcc/workload.js'
import { DEFAULTS } from '../../../workloads/tpcc/defaults.js'

const tx = (count, rollbacks, p90) => ({ count, rollbacks, latencyMs: { p90 } })

test('tpmC counts committed New-Orders per minute; efficiency against 12.86 per warehouse; NOPM from d_next_o_id', () => {
  const r = tpccResults({
    runInfo: {
      durationS: 120,
      transactions: {
        'new-order': tx(2020, 20, 40), payment: tx(1950, 0, 20), 'order-status': tx(180, 0, 5), delivery: tx(170, 0, 6000), 'stock-level': tx(180, 0, 19000)
      }
    },
    warehouses: 100,
    paced: true,
    waitScale: 1,
    mix: DEFAULTS.mix,
    standardMix: true,
    constants: {},
    newOrdersByDistrict: 1990
  })
  assert.equal(r.tpmC, 1000)
  assert.equal(r.nopm, 995)
  assert.equal(r.tpmTotal, (2020 + 1950 + 180 + 170 + 180) / 2)
  assert.equal(r.efficiency, Math.round(100 * 1000 / 1286 * 100) / 100)
  assert.equal(r.paced, true)
  assert.equal(r.pacing, 'spec-paced')
  assert.equal(r.newOrderRollbackPct, 0.99)
  assert.equal(r.responseTime.delivery.pass, false)
  assert.equal(r.responseTime['stock-level'].pass, true)
  assert.equal(r.responseTime['stock-level'].limitMs, 20000)
  assert.equal(r.responseTimePass, false)
  assert.equal(r.mix['new-order'], Math.round(100 * 2020 / 4500 * 100) / 100)
  assert.equal(r.byType.payment.targetMixPct, 43.48)
})

test('a type that did not run has no verdict; an unpaced run is labelled so', () => {
  const r = tpccResults({
    runInfo: { durationS: 60, transactions: { 'new-order': tx(10, 0, 1) } },
    warehouses: 1,
    paced: false,
    waitScale: 0,
    mix: DEFAULTS.mix,
    standardMix: true,
    constants: {},
    newOrdersByDistrict: null
  })
  assert.equal(r.pacing, 'unpaced')
  assert.equal(r.responseTime.payment.pass, null)
  assert.equal(r.responseTimePass, true)
  assert.equal(r.nopm, null)
  assert.equal(r.tpmC, 10)
  assert.deepEqual(r.delivery, { mode: 'inline' })
})

test('NOPM over duration plus warm-up; a deferred Delivery missing the 80 s rule fails the response-time check', () => {
  const r = tpccResults({
    runInfo: { durationS: 60, transactions: { 'new-order': tx(100, 0, 1), delivery: tx(10, 0, 0.1) } },
    warehouses: 1,
    paced: true,
    waitScale: 1,
    mix: DEFAULTS.mix,
    standardMix: true,
    constants: {},
    newOrdersByDistrict: 150,
    nopmWindowS: 90,
    deferred: { queued: 10, completed: 10, pass: false, within80sPct: 80 }
  })
  assert.equal(r.nopm, 100)
  assert.equal(r.responseTime.delivery.pass, true)
  assert.equal(r.responseTimePass, false)
  assert.equal(r.delivery.mode, 'deferred')
  assert.equal(r.delivery.within80sPct, 80)
})
