import { test } from 'node:test'
import assert from 'node:assert/strict'
import { startSearch, recordStep, nextRate, roundRate } from '../../../lib/capacity/search.js'
import { capacityAnswer } from '../../../lib/capacity/answer.js'
import { stepRecord } from './step-record.js'

const S = { startRate: 100, growth: 2, precision: 0.1, maxRate: Infinity, maxSteps: 20 }

/** The rates a search offers against a server that holds any rate up to `limit`. */
function searchAgainst (limit, s = S) {
  let state = startSearch()
  const rates = []
  for (;;) {
    const next = nextRate(state, s)
    if (next.rate === null) return { rates, state, why: next.why }
    rates.push(next.rate)
    state = recordStep(state, next.rate, next.rate <= limit)
  }
}

test('geometric steps up to the first failure, then a bisection to within the precision', () => {
  const { rates, state } = searchAgainst(400)
  assert.deepEqual(rates.slice(0, 4), [100, 200, 400, 800])
  assert.ok(rates.length > 4, 'it bisects after the first failure')
  assert.ok(state.held <= 400 && state.failed > 400)
  assert.ok(state.failed <= state.held * 1.1, `ends within 10 %: held ${state.held}, failed ${state.failed}`)
  assert.ok(state.held >= 400 / 1.1, `the answer is within 10 % of the limit: ${state.held}`)
})

test('a first rate that fails goes down until one holds; a rate cap that holds ends the search', () => {
  const down = searchAgainst(30)
  assert.deepEqual(down.rates.slice(0, 3), [100, 50, 25])
  assert.ok(down.state.held <= 30 && down.state.held >= 30 / 1.1)
  const capped = searchAgainst(1e9, { ...S, maxRate: 300 })
  assert.deepEqual(capped.rates, [100, 200, 300])
  assert.match(capped.why, /highest rate asked for \(300\/s\) held/)
  assert.equal(searchAgainst(1e9, { ...S, maxSteps: 3 }).rates.length, 3)
})

test('rates are rounded to three significant digits', () => {
  assert.equal(roundRate(4183.7), 4180)
  assert.equal(roundRate(282.84), 283)
  assert.equal(roundRate(0.4), 1)
})

const step = stepRecord

test('the answer line names the rate that held and the step above it', () => {
  const a = capacityAnswer([step(1, 2000, true), step(2, 4000, true), step(3, 8000, false), step(4, 4180, true), step(5, 4600, false)])
  assert.equal(a.limit, 'server')
  assert.equal(a.rate, 4180)
  assert.equal(a.line, 'capacity: 4,180 tps sustained with p(99) 17.9 ms (next step 4,600 tps: p(99) 41.2 ms, fell behind by 6.0 %)')
})

test('a client that saturates is named, not taken for the server capacity', () => {
  const a = capacityAnswer([step(1, 2000, true), step(2, 4000, false, { driver: { saturated: true, onCpuShare: 0.7, cpuWaitShare: 0.28 } })])
  assert.equal(a.limit, 'client')
  assert.match(a.line, /^capacity: not found: the server sustained at least 2,000 tps .*at 4,000 tps the client was the limit, not the server \(the driver's thread was runnable 98 % of the step, waiting for a CPU 28 %\)/)
})
