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
