import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parseScenarioText } from '../../../lib/scenarios/scenario-file.js'

const parse = (text, opts) => parseScenarioText(text, 's.yaml', opts)
const fails = (text, pattern) => assert.throws(() => parse(text), (err) => {
  assert.equal(err.name, 'PgloadError')
  assert.equal(err.exitCode, 1)
  assert.doesNotMatch(err.message, /\n/)
  assert.match(err.message, pattern)
  return true
})

test('a scenario file: the run\'s duration, each scenario\'s window, tags and options in order', () => {
  const spec = parse([
    'duration: 60s',
    'warmup: 5s',
    'seed: 42',
    'scenarios:',
    '  checkout: { workload: tpcb, rate: 500, clients: 16, tags: { team: shop, tier: 1 } }',
    '  reports:  { workload: [reports.sql], clients: 2, start: 20s, duration: 30s }'
  ].join('\n'))
  assert.equal(spec.durationS, 60)
  assert.equal(spec.warmupS, 5)
  assert.equal(spec.seed, 42)
  assert.deepEqual(spec.scenarios.map((s) => [s.name, s.startS, s.durationS]), [['checkout', 0, 60], ['reports', 20, 30]])
  assert.deepEqual(spec.scenarios[0].tags, { team: 'shop', tier: '1' })
  assert.deepEqual(spec.scenarios[0].options, { workload: 'tpcb', rate: 500, clients: 16 })
  assert.deepEqual(spec.scenarios[1].options, { workload: ['reports.sql'], clients: 2 })
})

test('JSON is read as well', () => {
  const spec = parse('{ "duration": "10s", "scenarios": { "a": { "workload": "tpcb", "clients": 2 } } }')
  assert.deepEqual(spec.scenarios.map((s) => [s.name, s.durationS]), [['a', 10]])
})

test('unknown keys: at the top and in a scenario, named', () => {
  fails('duration: 10s\nthreads: 2\nscenarios: { a: { workload: tpcb } }', /s\.yaml: unknown key "threads"/)
  fails('duration: 10s\nscenarios: { a: { workload: tpcb, client: 2 } }', /s\.yaml: scenario a: unknown key "client"/)
  fails('duration: 10s\nscenarios: { a: { workload: tpcb, out: x.json } }', /scenario a: unknown key "out"/)
})

test('a workload\'s own run options are keys when the caller names them', () => {
  const spec = parse('duration: 10s\nscenarios: { a: { workload: tpcc, warehouses: 2 } }', { workloadKeys: ['warehouses'] })
  assert.deepEqual(spec.scenarios[0].options, { workload: 'tpcc', warehouses: 2 })
})

test('a name given twice is refused, in YAML and in JSON, instead of the last one winning', () => {
  fails('duration: 10s\nscenarios:\n  a: { workload: tpcb }\n  a: { workload: tpcb }', /given twice/)
  fails('{ "duration": "10s", "scenarios": { "a": {}, "a": {} } }', /given twice/)
})

test('a name that is not an identifier', () => {
  fails('duration: 10s\nscenarios: { "my scenario": { workload: tpcb } }', /scenario name "my scenario" is not an identifier/)
  fails('duration: 10s\nscenarios: { 1st: { workload: tpcb } }', /scenario name "1st" is not an identifier/)
})

test('windows: a start at or after the end, a duration past it, a missing run duration', () => {
  fails('duration: 10s\nscenarios: { a: { start: 10s } }', /scenario a: start "10s" is at or after the run's end/)
  fails('duration: 10s\nscenarios: { a: { start: 20s } }', /scenario a: start "20s" is at or after/)
  fails('duration: 10s\nscenarios: { a: { start: 5s, duration: 6s } }', /scenario a: start 5 s plus duration 6 s runs past the run's end/)
  fails('scenarios: { a: { workload: tpcb } }', /duration is missing/)
  fails('duration: soon\nscenarios: { a: {} }', /s\.yaml: duration must be a duration/)
  fails('duration: 10s\nscenarios: { a: { start: -1s } }', /scenario a: start must be a duration.*not negative/)
})

test('shapes: no scenarios, a scenario that is not a map, tags that are not plain', () => {
  fails('duration: 10s', /scenarios must be a map of at least one scenario/)
  fails('duration: 10s\nscenarios: { a: 3 }', /scenario a: expected a map of run options/)
  fails('duration: 10s\nscenarios: { a: { tags: { x: [1] } } }', /scenario a: tags\.x must be a plain value/)
  fails('- 1\n- 2', /expected a map with duration and scenarios/)
  fails('duration: [10s', /s\.yaml: .*line/)
})
