import { test } from 'node:test'
import assert from 'node:assert/strict'
import tpcc from '../../../workloads/tpcc/index.js'

test('run options are checked before any server is reached', () => {
  assert.throws(() => tpcc.validateRunOptions({ warehouses: 0 }), /--warehouses must be an integer in 1..100000, got 0/)
  assert.throws(() => tpcc.validateRunOptions({ warehouses: 1.5 }), /--warehouses must be an integer in 1..100000/)
  assert.throws(() => tpcc.validateRunOptions({ mix: '45,43,4,4,5' }), /--mix must add up to 100/)
  assert.throws(() => tpcc.validateRunOptions({ mix: '60,28,4,4,4' }), /breaks the TPC-C minimums/)
  assert.throws(() => tpcc.validateRunOptions({ delivery: 'later' }), /--delivery must be deferred or inline/)
  assert.throws(() => tpcc.validateRunOptions({ waitScale: -1 }), /--wait-scale must be a number > 0 and <= 1000/)
  assert.doesNotThrow(() => tpcc.validateRunOptions({ warehouses: 3, mix: '60,28,4,4,4', allowNonstandardMix: true, delivery: 'inline', waitScale: 0.1 }))
})

test('init options are checked before any server is reached, and returned unchanged', () => {
  assert.throws(() => tpcc.validateInitOptions({ warehouses: 0 }), /--warehouses must be an integer in 1..100000, got 0/)
  assert.throws(() => tpcc.validateInitOptions({ jobs: 0 }), /--jobs must be an integer in 1..64, got 0/)
  assert.throws(() => tpcc.validateInitOptions({ seed: '-3' }), /--seed must be a non-negative integer/)
  const opts = { warehouses: 2, jobs: 3, seed: '9' }
  assert.equal(tpcc.validateInitOptions(opts), opts)
})
