// `pgload run`'s argv as plan input: positional workloads and script files, script order as
// typed, pgbench's connection flags, flags renamed to the plan's names, the command on record.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { planInputFromArgv, scriptSpecs, connectionUrl } from '../../../lib/cli/run-argv.js'
import { runPlanFromArgv } from '../../../lib/cli/run.js'

test('flags become the plan\'s names; pgbench\'s -n and -v become workload options', async () => {
  const input = await planInputFromArgv({ workload: ['tpcb'], duration: '10s', latencyLimit: '5', rate: '100', n: true, vacuumAll: true, define: ['a=1'] })
  assert.equal(input.durationS, '10s')
  assert.equal(input.latencyLimitMs, '5')
  assert.equal(input.rate, '100')
  assert.equal(input.workloadOptions.noVacuum, true)
  assert.equal(input.workloadOptions.vacuumAccounts, true)
  assert.deepEqual(input.workloadOptions.define, ['a=1'])
  const plan = await runPlanFromArgv({ workload: ['tpcb'], duration: '10s', latencyLimit: '5', rate: '100', n: true, define: ['a=1'] })
  assert.equal(plan.durationS, 10)
  assert.equal(plan.latencyLimitMs, 5)
  assert.deepEqual(plan.workloadOptions.define, { a: '1' })
})

test('a positional script file makes a script run; tpcc takes its own options only', async () => {
  const input = await planInputFromArgv({ workload: ['my.sql@2'] })
  assert.deepEqual(input.scripts, [{ kind: 'file', spec: 'my.sql@2' }])
  const tpcc = await planInputFromArgv({ workload: ['tpcc'], warehouses: 2, wait: false })
  assert.equal(tpcc.workload, 'tpcc')
  assert.equal(tpcc.workloadOptions.warehouses, 2)
  assert.equal(tpcc.workloadOptions.wait, false)
  await assert.rejects(planInputFromArgv({ workload: ['tpcc', 'x.sql'] }), { message: 'workload tpcc cannot be combined with other workloads or scripts' })
})

test('scripts keep their command-line order across -b, -f, -S and -N', () => {
  const argv = { builtin: ['si'], file: ['a.sql'], selectOnly: 1, skipSomeUpdates: 1 }
  assert.deepEqual(scriptSpecs(argv, ['-f', 'a.sql', '-N', '-b', 'si', '-S']).map((s) => s.spec), ['a.sql', 'simple-update', 'si', 'select-only'])
  assert.deepEqual(scriptSpecs(argv).map((s) => s.spec), ['si', 'select-only', 'simple-update', 'a.sql'], 'without the raw order: yargs\' grouping')
})

test('-h/-p/-U/-d become a key=value string; with --url they are refused', () => {
  assert.equal(connectionUrl({ host: 'db', port: '5433', username: "o'brien" }), "host='db' port='5433' user='o\\'brien'")
  assert.throws(() => connectionUrl({ url: 'postgres://x', host: 'db' }), { message: 'give either --url or -h/-p/-U/-d, not both (got --url and --host)' })
  assert.equal(connectionUrl({ url: 'postgres://x', host: 'db' }, { check: false }), 'postgres://x')
})

test('the command on record comes from the raw arguments, passwords redacted', async () => {
  const input = await planInputFromArgv({ workload: ['tpcb'] }, { rawArgs: ['run', '--url', 'postgres://u:pw@h/db'] })
  assert.equal(input.command, "pgload run --url 'postgres://u:***@h/db'")
  const plan = await runPlanFromArgv({ workload: ['tpcb'], url: 'postgres://u:pw@h/db' }, { rawArgs: ['run', '--url', 'postgres://u:pw@h/db'] })
  assert.equal(plan.command, "pgload run --url 'postgres://u:***@h/db'")
  assert.equal(plan.url, 'postgres://u:pw@h/db', 'the plan keeps what it needs to connect')
})

test('init-only options are refused after the values are checked, as pgbench does', async () => {
  await assert.rejects(runPlanFromArgv({ workload: ['tpcb'], clients: '0', initialize: true }), { message: '--clients must be an integer in 1..1000000, got "0"' })
  await assert.rejects(runPlanFromArgv({ workload: ['tpcb'], initialize: true, duration: '5', transactions: '5' }), { message: /^-i\/--initialize is an initialization option/ })
})

test('an init-only option\'s hint sends it to pgload init tpcb only where init takes it', async () => {
  const { refuseOptions } = await import('../../../lib/cli/run-argv.js')
  const { INIT_ONLY } = await import('../../../lib/cli/run-options.js')
  const tpcb = (await import('../../../workloads/tpcb/index.js')).default
  const takes = new Set(Object.keys(tpcb.initOptions))
  for (const name of Object.keys(INIT_ONLY).filter((n) => n !== 'initialize')) {
    const camel = name.replace(/-([a-z])/g, (_, c) => c.toUpperCase())
    const value = INIT_ONLY[name].type === 'boolean' ? true : '50'
    assert.throws(() => refuseOptions({ [camel]: value }), (err) => {
      assert.equal(err.hint, takes.has(name) ? 'give it to pgload init tpcb' : 'pgload init tpcb does not take it either: it loads pgbench\'s default layout', name)
      return true
    })
  }
})
