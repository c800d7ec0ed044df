import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseScenarioText } from '../../../lib/scenarios/scenario-file.js'
import { scenarioPlans, scenarioSeed } from '../../../lib/scenarios/scenario-plans.js'
import { planInputFromArgv, refuseOptions } from '../../../lib/cli/run-argv.js'

const dir = mkdtempSync(join(tmpdir(), 'pgload-scenario-plans-'))
after(() => rmSync(dir, { recursive: true, force: true }))
writeFileSync(join(dir, 'sleep.sql'), 'SELECT pg_sleep(0.01);\n')

const fromArgv = async (argv, { command }) => ({ input: await planInputFromArgv(argv, { command }), checks: { afterValues: () => refuseOptions(argv) } })
const plans = (text) => scenarioPlans(parseScenarioText(text, join(dir, 's.yaml'), { workloadKeys: ['warehouses'] }), { fromArgv })
async function fails (text, pattern) {
  await assert.rejects(plans(text), (err) => {
    assert.equal(err.name, 'PgloadError')
    assert.doesNotMatch(err.message, /\n/)
    assert.match(err.message, pattern)
    return true
  })
}

test('each scenario is a run plan: its window as its duration, its seed from the run\'s, files from the file\'s folder', async () => {
  const { seed, scenarios } = await plans([
    'duration: 10s',
    'warmup: 2s',
    'seed: 7',
    'scenarios:',
    '  checkout: { workload: tpcb, builtin: select-only, rate: 50, clients: 4 }',
    '  sleeper: { workload: [sleep.sql], clients: 2, start: 5s }'
  ].join('\n'))
  assert.equal(seed, '7')
  const [a, b] = scenarios
  assert.equal(a.plan.durationS, 10)
  assert.equal(a.plan.warmupS, 2, 'the scenario that starts with the run warms up with it')
  assert.equal(a.plan.rate, 50)
  assert.equal(a.plan.clients, 4)
  assert.equal(a.plan.writeFile, false)
  assert.equal(a.launchS, 0)
  assert.equal(b.plan.durationS, 5)
  assert.equal(b.plan.warmupS, 0)
  assert.equal(b.launchS, 7, 'a later scenario starts after the warm-up plus its start')
  assert.deepEqual(b.plan.scripts.map((s) => [s.kind, s.name, s.text]), [['file', 'sleep.sql', 'SELECT pg_sleep(0.01);\n']])
  assert.notEqual(a.plan.seed, b.plan.seed)
  assert.equal(scenarioSeed('7', 'checkout'), scenarioSeed('7', 'checkout'))
  assert.notEqual(scenarioSeed('7', 'checkout'), scenarioSeed('8', 'checkout'))
})

test('values are checked as the command line\'s, naming the scenario and the flag', async () => {
  await fails('duration: 10s\nscenarios: { a: { workload: tpcb, clients: 0 } }', /s\.yaml: scenario a: --clients must be an integer/)
  await fails('duration: 10s\nscenarios: { a: { workload: nosuch } }', /scenario a: unknown workload "nosuch"/)
  await fails('duration: 10s\nscenarios: { a: { workload: tpcb, rate: -5 } }', /scenario a: --rate/)
  await fails('duration: 10s\nscenarios: { a: { workload: [missing.sql] } }', /scenario a: could not read script file "missing.sql"/)
  await fails('duration: 10s\nscenarios: { a: { workload: tpcb, stages: "5s:10,10s:20" } }', /scenario a: its stages last 15 s, past its window of 10 s/)
})

test('-j: each scenario gets up to N threads, one per client at most, one for a one-thread workload; its jobs key as given', async () => {
  const spec = parseScenarioText([
    'duration: 10s',
    'scenarios:',
    '  many: { workload: tpcb, clients: 8 }',
    '  few: { workload: [sleep.sql], clients: 2 }',
    '  own: { workload: tpcb, clients: 8, jobs: 1 }',
    '  olap: { workload: chbench, warehouses: 1 }'
  ].join('\n'), join(dir, 's.yaml'), { workloadKeys: ['warehouses'] })
  const { scenarios } = await scenarioPlans(spec, { fromArgv, jobs: 4 })
  assert.deepEqual(scenarios.map((s) => [s.name, s.plan.jobs]), [['many', 4], ['few', 2], ['own', 1], ['olap', 1]])
})

test('a shard runs its part of every scenario; without a seed the shards share one from the run id', async () => {
  const spec = parseScenarioText('duration: 10s\nscenarios:\n  a: { workload: tpcb, clients: 4 }\n  b: { workload: [sleep.sql], clients: 2, start: 5s }', join(dir, 's.yaml'))
  const shard = (index) => ({ index, count: 2, runId: 'run-7', runIdGiven: true, timeoutS: 60 })
  const [s0, s1] = await Promise.all([0, 1].map((k) => scenarioPlans(spec, { fromArgv, shard: shard(k), jobs: 2 })))
  assert.equal(s0.seed, s1.seed)
  assert.deepEqual(s0.scenarios.map((s) => [s.plan.shard.index, s.plan.shard.count, s.plan.shard.runId]), [[0, 2, 'run-7'], [0, 2, 'run-7']])
  assert.deepEqual(s1.scenarios.map((s) => s.plan.shard.index), [1, 1])
  // b's part of each shard is one client: one thread
  assert.deepEqual(s0.scenarios.map((s) => s.plan.jobs), [2, 1])
  await assert.rejects(scenarioPlans(spec, { fromArgv, shard: { ...shard(0), count: 3 } }), /scenario b: --shards 3 needs at least 3 clients, the scenario has 2/)
})
