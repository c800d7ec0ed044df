// The cold-start keys of the run plan: --cold, --restart-command, --keep-page-cache, and the
// warm-up of a cold run (measured from the start unless --warmup is given).

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { resolvePlan, replan } from '../../../lib/plan/resolve.js'
import { runPlanFromArgv } from '../../../lib/cli/run.js'

test('off by default; --cold with its restart command kept in the plan', async () => {
  const p = await resolvePlan({})
  assert.equal(p.cold, false)
  assert.equal(p.keepPageCache, false)
  assert.equal(p.restartCommand, undefined)
  const c = await resolvePlan({ cold: true, restartCommand: 'sudo systemctl restart postgresql', keepPageCache: true })
  assert.equal(c.cold, true)
  assert.equal(c.restartCommand, 'sudo systemctl restart postgresql')
  assert.equal(c.keepPageCache, true)
  assert.deepEqual(JSON.parse(JSON.stringify(c)), { ...c }, 'JSON round trip')
  const again = await replan(c, { label: 'x' })
  assert.equal(again.cold, true)
  assert.equal(again.restartCommand, 'sudo systemctl restart postgresql')
})

test('from the command line: --cold, --restart-command, --keep-page-cache', async () => {
  const p = await runPlanFromArgv({ workload: ['tpcb'], cold: true, restartCommand: 'pg_ctlcluster 18 main restart', keepPageCache: true })
  assert.equal(p.cold, true)
  assert.equal(p.restartCommand, 'pg_ctlcluster 18 main restart')
  assert.equal(p.keepPageCache, true)
})

test('the options that only go with --cold, and a command that is no command, are one line each', async () => {
  for (const [input, message] of [
    [{ restartCommand: 'true' }, '--restart-command goes with --cold: it restarts the server before the measured run'],
    [{ keepPageCache: true }, '--keep-page-cache goes with --cold'],
    [{ cold: true, restartCommand: '  ' }, '--restart-command needs a shell command, got "  "'],
    [{ cold: 'yes' }, '--cold must be true or false, got "yes"']
  ]) {
    await assert.rejects(resolvePlan(input), { code: 'BAD_OPTION', message }, JSON.stringify(input))
  }
})

test('a cold run is measured from the start: no workload ramp-up unless --warmup is given', async () => {
  const paced = { workload: 'tpcc', workloadOptions: { warehouses: 1 } }
  const warm = await resolvePlan(paced)
  assert.ok(warm.warmupS > 0, 'spec-paced TPC-C ramps up by default')
  assert.ok(warm.rampUp)
  const cold = await resolvePlan({ ...paced, cold: true })
  assert.equal(cold.warmupS, 0)
  assert.equal(cold.rampUp, undefined)
  const given = await resolvePlan({ ...paced, cold: true, warmupS: '5s' })
  assert.equal(given.warmupS, 5)
  assert.equal((await resolvePlan({ cold: true, durationS: '30s' })).warmupS, 0)
})
