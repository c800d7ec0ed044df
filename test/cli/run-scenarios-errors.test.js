// Bad scenario files and options that do not go with --scenarios: one line each, exit 1, and
// nothing run (no server is reached: the given one does not exist, and no results file appears).

import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli, assertOneLineError } from '../helpers/cli.js'

const UNREACHABLE = 'postgres://nobody@127.0.0.1:1/none'
const dir = mkdtempSync(join(tmpdir(), 'pgload-scenarios-errors-'))
after(() => rmSync(dir, { recursive: true, force: true }))

const GOOD = 'duration: 10s\nscenarios:\n  checkout: { workload: tpcb, rate: 50, clients: 4 }\n  sleeper: { workload: [sleep.sql], clients: 2, start: 5s }\n'
writeFileSync(join(dir, 'sleep.sql'), 'SELECT pg_sleep(0.01);\n')

function file (name, text) {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

const cases = [
  ['unknown key', ['--scenarios', file('unknown.yaml', 'duration: 10s\nscenarios: { a: { workload: tpcb, clinets: 2 } }')], /scenario a: unknown key "clinets"/],
  ['duplicate name', ['--scenarios', file('twice.yaml', 'duration: 10s\nscenarios:\n  a: { workload: tpcb }\n  a: { workload: tpcb }\n')], /a name or key is given twice \(line 4\)/],
  ['duplicate name in JSON', ['--scenarios', file('twice.json', '{"duration": "10s", "scenarios": {"a": {}, "a": {}}}')], /given twice/],
  ['start after the end', ['--scenarios', file('late.yaml', 'duration: 10s\nscenarios: { a: { workload: tpcb, start: 12s } }')], /scenario a: start "12s" is at or after the run's end/],
  ['out of range', ['--scenarios', file('range.yaml', 'duration: 10s\nscenarios: { a: { workload: tpcb, clients: 0 } }')], /scenario a: --clients must be an integer in 1\.\.1000000, got 0/],
  ['unknown workload', ['--scenarios', file('nowl.yaml', 'duration: 10s\nscenarios: { a: { workload: tpcx } }')], /scenario a: unknown workload "tpcx"/],
  ['threshold on an unknown scenario', ['--scenarios', file('good.yaml', GOOD), '--threshold', 'scenario(olap): p(95) < 30s'], /--threshold 'scenario\(olap\): p\(95\) < 30s': .*good\.yaml has no scenario olap: its scenarios are checkout, sleeper/],
  ['a load option on the command line', ['--scenarios', file('good.yaml', GOOD), '-c', '4'], /--clients does not go with --scenarios: give it to each scenario in the file/],
  ['a duration on the command line', ['--scenarios', file('good.yaml', GOOD), '-T', '10s'], /--duration does not go with --scenarios: give it at the top of the file/],
  ['a dashboard with --json', ['--scenarios', file('good.yaml', GOOD), '--dashboard', '127.0.0.1:0', '--json'], /--dashboard does not go with --json/],
  ['a bad metrics address', ['--scenarios', file('good.yaml', GOOD), '--metrics', '127.0.0.1:99999'], /--metrics/],
  ['a rate on the command line', ['--scenarios', file('good.yaml', GOOD), '-R', '10'], /--rate does not go with --scenarios/],
  ['a workload on the command line', ['tpcc', '--scenarios', file('good.yaml', GOOD)], /--scenarios takes the workloads from the file/],
  ['more threads than a scenario\'s clients', ['--scenarios', file('jobs.yaml', 'duration: 10s\nscenarios: { a: { workload: tpcb, clients: 2, jobs: 3 } }')], /scenario a: jobs 3 needs at least 3 clients, the scenario has 2/],
  ['bad -j', ['--scenarios', file('good.yaml', GOOD), '-j', '0'], /--jobs must be an integer/],
  ['more shards than a scenario\'s clients', ['--scenarios', file('good.yaml', GOOD), '--shard', '0/3'], /scenario sleeper: --shards 3 needs at least 3 clients, the scenario has 2/],
  ['--shards without the shard', ['--scenarios', file('good.yaml', GOOD), '--shards', '2'], /--shards 2 needs --shard K\/2 or the environment variable JOB_COMPLETION_INDEX/],
  ['the results database with a shard', ['--scenarios', file('good.yaml', GOOD), '--shard', '0/2', '--store'], /--store goes with whole runs: merge the shards' files/],
  ['a results database without --store', ['--scenarios', file('good.yaml', GOOD), '--results-url', 'postgres://127.0.0.1:1/x'], /--results-url goes with --store/],
  ['a missing file', ['--scenarios', join(dir, 'none.yaml')], /--scenarios: cannot read .*none\.yaml: ENOENT/]
]

for (const [what, args, pattern] of cases) {
  test(`--scenarios, ${what}: one line, exit 1, nothing run`, async () => {
    const out = join(dir, `${what.replace(/\W+/g, '-')}.json`)
    const r = await runCli(['run', ...args, '--url', UNREACHABLE, '--out', out], { timeoutMs: 30_000 })
    assertOneLineError(r, pattern)
    assert.equal(existsSync(out), false, 'no results file')
  })
}
