// `pgload run`'s options for transactions in flight: --grace and --transaction-timeout.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { runPlanFromArgv } from '../../../lib/cli/run.js'
import { DEFAULTS } from '../../../lib/plan/defaults.js'

const options = (extra) => runPlanFromArgv({ workload: ['tpcb'], duration: '5s', ...extra })

test('--grace defaults to 10 s; --transaction-timeout is off unless given', async () => {
  const o = await options({})
  assert.equal(DEFAULTS.graceS, 10)
  assert.equal(o.graceS, 10)
  assert.equal(o.transactionTimeoutS, 0)
})

test('both take durations as --duration does; a grace of 0 cancels at once', async () => {
  assert.equal((await options({ grace: '1.5s' })).graceS, 1.5)
  assert.equal((await options({ grace: '250ms' })).graceS, 0.25)
  assert.equal((await options({ grace: '0' })).graceS, 0)
  assert.equal((await options({ transactionTimeout: '500ms' })).transactionTimeoutS, 0.5)
  assert.equal((await options({ transactionTimeout: '2m' })).transactionTimeoutS, 120)
})

test('bad values name the flag', async () => {
  await assert.rejects(options({ grace: 'soon' }), { code: 'BAD_OPTION', message: '--grace must be a duration like 30s, 10m or 1h, got "soon"' })
  await assert.rejects(options({ transactionTimeout: '0s' }), { code: 'BAD_OPTION', message: '--transaction-timeout must be positive, got "0s"' })
  await assert.rejects(options({ transactionTimeout: '-1s' }), { code: 'BAD_OPTION', message: /--transaction-timeout must be a duration/ })
})
