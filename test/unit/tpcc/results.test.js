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

test('NOPM over the measured window only, as tpmC; a deferred Delivery missing the 80 s rule fails the response-time check', () => {
  const r = tpccResults({
    runInfo: { durationS: 60, transactions: { 'new-order': tx(100, 0, 1), delivery: tx(10, 0, 0.1) } },
    warehouses: 1,
    paced: true,
    waitScale: 1,
    mix: DEFAULTS.mix,
    standardMix: true,
    constants: {},
    newOrdersByDistrict: 100, // read when the window opened and after it closed
    warmupS: 40,
    rampUp: true,
    deferred: { queued: 10, completed: 10, pass: false, within80sPct: 80 }
  })
  assert.equal(r.nopm, 100, 'divided by the 60 s measured, not by 100 s with the ramp-up')
  assert.equal(r.tpmC, 100)
  assert.deepEqual([r.measuredS, r.warmupS, r.rampUp], [60, 40, true])
  assert.equal(r.responseTime.delivery.pass, true)
  assert.equal(r.responseTimePass, false)
  assert.equal(r.delivery.mode, 'deferred')
  assert.equal(r.delivery.within80sPct, 80)
})

const base = { warehouses: 10, paced: true, waitScale: 1, mix: DEFAULTS.mix, standardMix: true, constants: {}, newOrdersByDistrict: null }

test('rollbacks: a share of New-Orders and a share of all transactions, apart', () => {
  const r = tpccResults({
    ...base,
    runInfo: { durationS: 180, transactions: { 'new-order': { ...tx(424, 5, 5), failed: 0 }, payment: tx(420, 0, 3), 'order-status': tx(40, 0, 3), delivery: tx(40, 0, 1), 'stock-level': tx(56, 0, 20) } }
  })
  assert.deepEqual(r.rollbacks, { newOrders: 5, newOrderPct: 1.18, all: 5, allPct: 0.51 })
  assert.equal(r.newOrderRollbackPct, 1.18)
})

test('efficiency: the deck deals 10 New-Orders in 476 s of waits, so spec-paced terminals reach at most 98.0 % of 12.86 per warehouse', () => {
  const r = tpccResults({ ...base, runInfo: { durationS: 600, transactions: { 'new-order': tx(1260, 12, 5) } } })
  assert.equal(r.efficiencyCeiling, 98.02)
  assert.equal(r.efficiency, Math.round(100 * (1248 / 10) / 128.6 * 100) / 100)
  const unpaced = tpccResults({ ...base, paced: false, runInfo: { durationS: 60, transactions: {} } })
  assert.equal(unpaced.efficiencyCeiling, null)
})

test('mix check: a type below its clause 5.2.3 minimum is listed, with whether few decks explain it', () => {
  // 3 minutes at 10 warehouses: 870 transactions, 37 decks over 100 terminals; Order-Status 3.8 %
  const short = tpccResults({
    ...base,
    runInfo: { durationS: 180, transactions: { 'new-order': tx(385, 4, 5), payment: tx(380, 0, 3), 'order-status': tx(33, 0, 3), delivery: tx(36, 0, 1), 'stock-level': tx(36, 0, 20) } }
  })
  assert.equal(short.mixCheck.transactions, 870)
  assert.equal(short.mixCheck.decks, 37)
  assert.equal(short.mixCheck.decksPerTerminal, 0.37)
  assert.deepEqual(short.mixCheck.below, [{ type: 'order-status', pct: 3.79, minimumPct: 4, targetPct: 4.35, failed: 0, chanceExplains: true }])
  // a long run still short by far: not chance
  const long = tpccResults({
    ...base,
    runInfo: { durationS: 3600, transactions: { 'new-order': tx(10000, 100, 5), payment: tx(10000, 0, 3), 'order-status': { ...tx(600, 0, 3), failed: 400 }, delivery: tx(1000, 0, 1), 'stock-level': tx(1000, 0, 20) } }
  })
  assert.deepEqual(long.mixCheck.below.map(b => [b.type, b.chanceExplains, b.failed]), [['order-status', false, 400]])
  // above the minimums: nothing listed
  const fine = tpccResults({ ...base, runInfo: { durationS: 60, transactions: { 'new-order': tx(10, 0, 1), payment: tx(10, 0, 1), 'order-status': tx(1, 0, 1), delivery: tx(1, 0, 1), 'stock-level': tx(1, 0, 1) } } })
  assert.deepEqual(fine.mixCheck.below, [])
})
