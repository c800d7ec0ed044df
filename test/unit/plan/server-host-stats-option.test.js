// --server-host-stats in the run plan: absent unless given (the embedded server's default is
// decided where the server is known), kept through JSON, refused without the server statistics.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { resolvePlan } from '../../../lib/plan/resolve.js'
import { runPlanFromArgv } from '../../../lib/cli/run.js'

test('absent unless given; on or off from the command line, through JSON', async () => {
  assert.equal('serverHostStats' in await resolvePlan({}), false)
  const on = await runPlanFromArgv({ workload: ['tpcb'], serverHostStats: true })
  assert.equal(on.serverHostStats, true)
  assert.equal(JSON.parse(JSON.stringify(on)).serverHostStats, true)
  assert.equal((await runPlanFromArgv({ workload: ['tpcb'], serverHostStats: false })).serverHostStats, false)
})

test('--server-host-stats without the server statistics, or not a boolean, is one line', async () => {
  await assert.rejects(resolvePlan({ serverHostStats: true, serverStats: false }),
    { code: 'BAD_OPTION', message: '--server-host-stats goes with the server statistics: --no-server-stats turns them off' })
  await assert.rejects(resolvePlan({ serverHostStats: 'yes' }), { code: 'BAD_OPTION', message: '--server-host-stats must be true or false, got "yes"' })
  assert.equal((await resolvePlan({ serverHostStats: false, serverStats: false })).serverHostStats, false)
})
