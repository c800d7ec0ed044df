import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { validateResults } from '../../../lib/results/read.js'

const base = JSON.parse(readFileSync(new URL('../../fixtures/compare/base-1.json', import.meta.url), 'utf8'))

/** base-1 as a scenario run of one scenario `a`: its types under `a/` in the totals. */
function scenarioDoc () {
  const doc = structuredClone(base)
  const own = structuredClone(base)
  const rename = (map) => Object.fromEntries(Object.entries(map).map(([k, v]) => [`a/${k}`, v]))
  doc.transactions = rename(doc.transactions)
  doc.intervals = doc.intervals.map((iv) => ({ ...iv, count: rename(iv.count), histograms: rename(iv.histograms ?? {}) }))
  doc.scenarios = { a: { workload: 'tpcb', startS: 0, endS: own.run.durationS, tags: { team: 'x' }, options: {}, summary: own.summary, transactions: own.transactions, intervals: own.intervals } }
  return doc
}

test('a scenario run\'s document is valid; its scenarios are checked against the totals', () => {
  assert.doesNotThrow(() => validateResults(scenarioDoc()))
  const wrongCount = scenarioDoc()
  const [type] = Object.keys(wrongCount.scenarios.a.transactions)
  wrongCount.scenarios.a.transactions[type].count += 1
  assert.throws(() => validateResults(wrongCount), /scenarios\.a/)
  const missing = scenarioDoc()
  delete missing.transactions[`a/${type}`]
  assert.throws(() => validateResults(missing), /RESULTS_INVALID|transactions|a\//)
  const backwards = scenarioDoc()
  backwards.scenarios.a.startS = backwards.scenarios.a.endS + 1
  assert.throws(() => validateResults(backwards), /scenarios\.a: endS is .* before startS/)
  const noSummary = scenarioDoc()
  delete noSummary.scenarios.a.summary
  assert.throws(() => validateResults(noSummary), /scenarios\.a\.summary/)
})
