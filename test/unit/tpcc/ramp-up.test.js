// The ramp-up of a paced TPC-C run: its length rule, the staggered first waits it relies on,
// and the run plan's default (ramp-up unless --warmup is given or the run is unpaced).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Prng } from '../../../lib/random/prng.js'
import { meanCycleUs, rampUpS, firstWait } from '../../../workloads/tpcc/ramp-up.js'
import { parseMix } from '../../../workloads/tpcc/mix.js'
import { runPlanFromArgv } from '../../../lib/cli/run.js'
import tpcc from '../../../workloads/tpcc/index.js'

const deck = { ...parseMix(undefined), scale: 1 }

test('the deck: a mean cycle of 476 s per 23 cards; ramp-up = cycle + longest keying (18 s) + 1 s, rounded up: 40 s', () => {
  assert.equal(Math.round(meanCycleUs(deck.mix, true, 1)), Math.round(476e6 / 23))
  assert.equal(rampUpS(deck), 40) // 20.70 + 18 + 1 = 39.70
  // the weighted 45/43/4/4/4 draw: 20.99 s a cycle (the figure behind 12.86 tpmC per warehouse)
  const weighted = parseMix('45,43,4,4,4')
  assert.equal(Math.round(meanCycleUs(weighted.mix, false, 1) / 1000), 20990)
  assert.equal(rampUpS({ mix: weighted.mix, standard: false, scale: 1 }), 40) // 39.99
})

test('the rule scales with --wait-scale and follows the longest keying of the types that run', () => {
  assert.equal(rampUpS({ ...deck, scale: 0.5 }), 21) // 10.35 + 9 + 1
  assert.equal(rampUpS({ ...deck, scale: 0.01 }), 2) // 0.21 + 0.18 + 1
  const noNewOrder = parseMix('0,50,20,20,10', { allowNonstandard: true })
  // cycle .5*15 + .2*12 + .2*7 + .1*7 = 12 s; longest keying: Payment's 3 s
  assert.equal(rampUpS({ mix: noNewOrder.mix, standard: false, scale: 1 }), 16)
})

test('first waits lie within one mean cycle, denser early (mean a third of the cycle), so every terminal has keyed and run one transaction by the ramp-up', () => {
  const cycleUs = meanCycleUs(deck.mix, true, 1)
  const sample = firstWait(deck)
  const r = Prng.fromSeed(3)
  let sum = 0; let max = 0; let early = 0
  const n = 100000
  for (let i = 0; i < n; i++) {
    const w = sample(r)
    assert.ok(w >= 0 && w <= cycleUs)
    sum += w
    if (w > max) max = w
    if (w < cycleUs / 2) early++
  }
  assert.ok(Math.abs(sum / n / cycleUs - 1 / 3) < 0.005, `mean ${sum / n / cycleUs} of the cycle`)
  assert.ok(Math.abs(early / n - 0.75) < 0.01, `${early / n} in the first half`)
  assert.ok(max + 18e6 + 1e6 <= rampUpS(deck) * 1e6, 'the last first wait, the longest keying and the allowance fit in the ramp-up')
})

test('run plan: spec-paced tpcc ramps up by default; --warmup wins, --warmup 0 opts out, unpaced runs have none', async () => {
  const plan = (extra) => runPlanFromArgv({ workload: ['tpcc'], duration: '10m', ...extra })
  let o = await plan({})
  assert.equal(o.warmupS, 40)
  assert.deepEqual(o.rampUp, { reason: 'every terminal finishes its first transaction' })
  o = await plan({ warmup: '0' })
  assert.equal(o.warmupS, 0)
  assert.equal(o.rampUp, undefined)
  o = await plan({ warmup: '15s' })
  assert.equal(o.warmupS, 15)
  assert.equal(o.rampUp, undefined)
  o = await plan({ wait: false })
  assert.equal(o.warmupS, 0)
  o = await plan({ waitScale: 0.1 })
  assert.equal(o.warmupS, 5) // 2.07 + 1.8 + 1
  assert.equal(tpcc.defaultWarmup({ wait: false }), null)
  o = await runPlanFromArgv({ workload: ['tpcb'], duration: '10s' })
  assert.equal(o.warmupS, 0, 'other workloads keep no warm-up by default')
})
