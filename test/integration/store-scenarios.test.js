// A scenario run in the results database: one row per scenario with its own figures, its types'
// rows marked with their scenario, `history --scenario` and a stored baseline of one scenario; and
// a database of the first schema version migrated with its stored rows kept.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { testResultsDatabase } from '../helpers/results-db.js'
import { openResultsStore, storeRunDocument, queryHistory, STORE_VERSION } from '../../lib/store/index.js'
import { loadStoredBaseline } from '../../lib/store/baseline.js'
import { scenarioResults } from '../../lib/scenarios/scenario-results.js'
import { validateResults } from '../../lib/results/read.js'
import { evaluateThresholds } from '../../lib/compare/thresholds/evaluate.js'

const fixture = (name) => JSON.parse(readFileSync(new URL(`../fixtures/results/${name}`, import.meta.url), 'utf8'))
let db

before(async () => { db = await testResultsDatabase() })
after(async () => { await db?.drop() })

/** A scenario run's document made of two recorded runs: `checkout` and `reports`, from 0 s. */
function scenarioDoc (seed) {
  const a = fixture('tpcb-a.json')
  const b = fixture('tpcb-b.json')
  b.run.startTime = a.run.startTime
  const doc = scenarioResults({ seed, durationS: a.run.durationS, warmupS: 0, intervalS: 1, file: 'scenarios.yaml', label: 'nightly' }, [
    { scenario: { name: 'checkout', startS: 0, tags: { team: 'shop' } }, results: a },
    { scenario: { name: 'reports', startS: 0, tags: {} }, results: b }
  ])
  return validateResults(doc, 'scenario run')
}

const rowsOf = async (sql, values) => (await db.query(sql, values)).rows

test('a scenario run stored: a row per scenario, its types marked, history and baseline of one scenario', async () => {
  const doc = scenarioDoc('1')
  const store = await openResultsStore({ resultsUrl: db.url })
  let runId
  try {
    ({ runId } = await storeRunDocument(store.conn, doc))
    const rows = await rowsOf(`select scenario, position, workload, transactions, tps, p99_ms, start_s, end_s, tags::text
      from pgload.run_scenarios where run_id = ${runId} order by position`)
    assert.deepEqual(rows.map((r) => r[0]), ['checkout', 'reports'])
    for (const [name, position, workload, transactions, tps, p99, startS, endS, tags] of rows) {
      const s = doc.scenarios[name]
      assert.equal(Number(position), Object.keys(doc.scenarios).indexOf(name))
      assert.equal(workload, s.workload)
      assert.equal(Number(transactions), s.summary.transactions)
      assert.equal(Number(tps), s.summary.tps)
      assert.equal(Number(p99), s.summary.latencyMs.p99)
      assert.deepEqual([Number(startS), Number(endS)], [s.startS, s.endS])
      assert.deepEqual(JSON.parse(tags), s.tags)
    }
    const types = await rowsOf(`select txn_type, scenario from pgload.run_types where run_id = ${runId} order by position`)
    assert.deepEqual(types, Object.keys(doc.transactions).map((t) => [t, t.split('/')[0]]))

    const history = await queryHistory(store.conn, { label: 'nightly', scenario: 'reports', metric: 'p99' })
    assert.equal(history.length, 1)
    assert.equal(history[0].tps, doc.scenarios.reports.summary.tps)
    assert.equal(history[0].value, doc.scenarios.reports.summary.latencyMs.p99)
    assert.equal(history[0].scenario, 'reports')
    assert.deepEqual(await queryHistory(store.conn, { label: 'nightly', scenario: 'olap' }), [])

    const baseline = await loadStoredBaseline(store.conn, { label: 'nightly', count: 5 })
    assert.deepEqual(Object.keys(baseline.doc.scenarios), ['checkout', 'reports'])
    assert.equal(baseline.doc.scenarios.reports.summary.tps, doc.scenarios.reports.summary.tps)
    assert.deepEqual(Object.keys(baseline.doc.scenarios.reports.transactions), Object.keys(doc.scenarios.reports.transactions))
    // a threshold on one scenario against the stored baseline reads that scenario's medians
    const [verdict] = evaluateThresholds(doc, ['scenario(reports): p(99) < +10%'], { baseline: baseline.doc })
    assert.equal(verdict.pass, true)
    assert.equal(verdict.actual, doc.scenarios.reports.summary.latencyMs.p99)
  } finally {
    await store.release()
  }
})

test('a database of schema version 1 is migrated: its rows kept, its scenario runs\' types marked', async () => {
  const doc = scenarioDoc('2')
  const store = await openResultsStore({ resultsUrl: db.url })
  let runId
  try {
    ({ runId } = await storeRunDocument(store.conn, doc))
  } finally {
    await store.release()
  }
  // back to version 1's tables, as a database written by an older pgload has them
  await db.query('drop table pgload.run_scenarios; alter table pgload.run_types drop column scenario; delete from pgload.schema_version where version > 1')
  const before = await rowsOf('select count(*) from pgload.runs')
  const reopened = await openResultsStore({ resultsUrl: db.url })
  await reopened.release()
  assert.deepEqual(await rowsOf('select count(*) from pgload.runs'), before)
  assert.deepEqual((await rowsOf('select max(version) from pgload.schema_version'))[0], [String(STORE_VERSION)])
  const types = await rowsOf(`select txn_type, scenario from pgload.run_types where run_id = ${runId} order by position`)
  assert.deepEqual(types, Object.keys(doc.transactions).map((t) => [t, t.split('/')[0]]))
})
