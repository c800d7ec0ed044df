// compare, scenario by scenario: scenario runs compare each scenario they share as a run of its
// own with a verdict per type; a scenario only one side ran is one line; a scenario run against a
// plain run is refused in one line (--force compares the totals).

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { compareRuns } from '../../../lib/compare/verdict.js'
import { formatCompareText, formatCompareMarkdown } from '../../../lib/compare/format.js'

const fixture = (name) => JSON.parse(readFileSync(new URL(`../../fixtures/results/${name}.json`, import.meta.url), 'utf8'))
// a 12 s run of checkout (tpcb-like at 50 tps) and reports (a script, 4..9 s)
const scenarioRun = () => fixture('recorded-scenarios')
const row = (v, id) => v.rows.find((r) => r.id === id)

test('one run per side: each shared scenario gets its tps and each type\'s latency, from its own figures', () => {
  const a = scenarioRun()
  const b = fixture('recorded-scenarios-b')
  const v = compareRuns([a], [b])
  assert.deepEqual(v.scenarios, ['checkout', 'reports'])
  assert.equal(row(v, 'scenario(checkout):tps').a.median, a.scenarios.checkout.summary.tps)
  assert.equal(row(v, 'scenario(reports):sleep.sql:p99').b.median, b.scenarios.reports.transactions['sleep.sql'].latencyMs.p99)
  assert.equal(row(v, 'scenario(reports):sleep.sql:p99').scenario, 'reports')
  // the single-run bootstrap ran over the scenario's own intervals: an interval, not just medians
  assert.ok(row(v, 'scenario(checkout):tpcb-like:p95').change !== null)
  // the totals' types are not repeated beside their scenarios' rows
  assert.equal(v.rows.some((r) => r.txn === 'checkout/tpcb-like'), false)
  assert.match(formatCompareText(v), /^scenario reports p99 ms\s+sleep\.sql\s+[\d.]+/m)
  assert.match(formatCompareMarkdown(v), /^\| scenario checkout tps \| {2}\| [\d.]+/m)
})

test('several runs per side: the scenario whose latency rose is worse, the other is not', () => {
  const runs = (grow) => [0, 1, 2, 3, 4].map((i) => {
    const d = scenarioRun()
    for (const s of Object.values(d.scenarios)) for (const t of Object.values(s.transactions)) t.latencyMs.p99 *= 1 + i / 100
    if (grow) d.scenarios.reports.transactions['sleep.sql'].latencyMs.p99 *= 1.5
    return d
  })
  const v = compareRuns(runs(false), runs(true))
  assert.equal(row(v, 'scenario(reports):sleep.sql:p99').verdict, 'worse')
  assert.equal(row(v, 'scenario(checkout):tpcb-like:p99').verdict, '~')
  assert.equal(v.regressions, 1)
})

test('a scenario only one side ran: one line, the shared ones still compared', () => {
  const b = scenarioRun()
  delete b.scenarios.reports
  const v = compareRuns([scenarioRun()], [b])
  assert.deepEqual(v.scenarios, ['checkout'])
  assert.ok(v.warnings.includes('scenario reports only in A: not compared'), v.warnings.join('\n'))
  assert.equal(v.rows.some((r) => r.scenario === 'reports'), false)
})

test('a scenario whose load differs is refused by name, unless --force', () => {
  const b = scenarioRun()
  b.scenarios.checkout.clients = 8
  assert.throws(() => compareRuns([scenarioRun()], [b]), (err) => err.code === 'NOT_COMPARABLE' && /scenario checkout: clients 4 vs 8/.test(err.message))
  const forced = compareRuns([scenarioRun()], [b], { force: true })
  assert.ok(row(forced, 'scenario(checkout):tps'))
})

test('a scenario run against a plain run: one line; --force compares the totals', () => {
  const plain = fixture('tpcb-a')
  assert.throws(() => compareRuns([scenarioRun()], [plain]), (err) => err.code === 'NOT_COMPARABLE' &&
    err.message === 'runs are not comparable: A has scenario runs and B plain runs: a scenario run (--scenarios) compares only with another, scenario by scenario' &&
    /--force/.test(err.hint))
  const forced = compareRuns([scenarioRun()], [plain], { force: true })
  assert.deepEqual(forced.scenarios, [])
  assert.ok(row(forced, 'tps'))
})
