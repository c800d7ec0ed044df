// The plan's `store` and `resultsUrl`: off by default, checked with the flags they come from,
// and kept through replan (ab's runs are stored as the command asked).

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { resolvePlan, replan } from '../../../lib/plan/resolve.js'

test('store is off by default; --results-url alone is refused', async () => {
  const p = await resolvePlan({})
  assert.equal(p.store, false)
  assert.equal(p.resultsUrl, undefined)
  await assert.rejects(resolvePlan({ resultsUrl: 'postgres://h/results' }), { code: 'BAD_OPTION', message: '--results-url goes with --store: it says where the run is stored' })
  await assert.rejects(resolvePlan({ store: true, resultsUrl: ' ' }), { message: '--results-url needs a connection string, got " "' })
  await assert.rejects(resolvePlan({ store: 'yes' }), { message: '--store must be true or false, got "yes"' })
})

test('store and resultsUrl survive replan and a JSON round trip', async () => {
  const p = await resolvePlan({ store: true, resultsUrl: 'postgres://u@h/results' })
  assert.equal(p.store, true)
  assert.equal(p.resultsUrl, 'postgres://u@h/results')
  const again = await replan(JSON.parse(JSON.stringify(p)), { label: 'B' })
  assert.equal(again.store, true)
  assert.equal(again.resultsUrl, 'postgres://u@h/results')
})

test('--store does not go with a shard: the merged file is what is stored', async () => {
  await assert.rejects(resolvePlan({ workload: 'tpcb', shard: '0/2', store: true }), { message: /--store goes with whole runs: merge the shards/ })
})
