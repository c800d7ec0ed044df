import { test } from 'node:test'
import assert from 'node:assert/strict'
import { resolvePlan } from '../../../lib/plan/resolve.js'

const plan = (extra) => resolvePlan({ workload: 'tpcb', url: 'postgres://u@127.0.0.1:1/db', durationS: '60s', ...extra })

test('--failover waits 60 s for a new primary unless --reconnect-window says; a plain run 10 s', async () => {
  assert.equal((await plan({})).reconnectWindowS, 10)
  assert.equal((await plan({ failover: true })).reconnectWindowS, 60)
  assert.equal((await plan({ failover: true, reconnectWindowS: '5s' })).reconnectWindowS, 5)
})

test('--trigger runs at --trigger-at, by default a third into the measured window', async () => {
  const p = await plan({ trigger: 'pg_ctl promote' })
  assert.equal(p.triggerAtS, 20)
  assert.equal((await plan({ trigger: 'x', triggerAtS: '45s' })).triggerAtS, 45)
})

test('--trigger and --trigger-at refused in one line: alone, empty, outside the window, in a -t run, in a shard', async () => {
  await assert.rejects(plan({ triggerAtS: '5s' }), { message: '--trigger-at goes with --trigger: the command to run then' })
  await assert.rejects(plan({ trigger: ' ' }), { message: '--trigger needs a shell command, got " "' })
  await assert.rejects(plan({ trigger: 'x', triggerAtS: '60s' }), { message: '--trigger-at "60s" is not inside the measured 60 s' })
  await assert.rejects(plan({ trigger: 'x', triggerAtS: '-1s' }), /--trigger-at/)
  await assert.rejects(resolvePlan({ workload: 'tpcb', url: 'postgres://u@127.0.0.1:1/db', transactionsPerClient: 10, trigger: 'x' }), { message: '--trigger goes with --duration: a run of -t transactions has no time to run it at' })
  await assert.rejects(plan({ trigger: 'x', shard: '1/2', runId: 'r1' }), { message: '--trigger does not go with shards: each shard would run it; run it from one place' })
})
