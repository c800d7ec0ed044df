// Merging the shards of a scenario run: `scenarios` merged scenario by scenario (counts,
// histograms, intervals, clients) beside the totals, the merged document valid with every derived
// check; shards that ran different scenarios are refused in one line.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { scenarioResults } from '../../../lib/scenarios/scenario-results.js'
import { mergeResults } from '../../../lib/results/merge.js'
import { decodeHistogram } from '../../../lib/metrics/histogram.js'

const fixture = (name) => JSON.parse(readFileSync(new URL(`../../fixtures/results/${name}`, import.meta.url), 'utf8'))
const START = Date.parse('2026-01-01T10:00:00.000Z')

/** Shard `index` of 2 of a scenario run of two recorded runs, `checkout` and `reports`. */
function shardDoc (index, { names = ['checkout', 'reports'] } = {}) {
  const parts = [fixture('tpcb-a.json'), fixture('tpcb-b.json')].map((d) => {
    d.run.startTime = new Date(START + index * 40).toISOString()
    d.run.shard = { runId: 'run-1', index, count: 2, serverStats: false, clockOffsetMs: 0, clockRttMs: 0.1, scheduledStart: new Date(START).toISOString(), startedLateMs: index * 40, waitedMs: 10 }
    return d
  })
  const doc = scenarioResults({ seed: '1', durationS: parts[0].run.durationS, warmupS: 0, intervalS: 1, file: 's.yaml' },
    parts.map((results, i) => ({ scenario: { name: names[i], startS: 0, tags: {} }, results })))
  doc.run.shard = { ...parts[0].run.shard, serverStats: index === 0 }
  return doc
}

const histCount = (encoded) => decodeHistogram(encoded).totalCount
const intervalCount = (intervals) => intervals.reduce((a, iv) => a + Object.values(iv.count).reduce((x, y) => x + y, 0), 0)

test('two shards of a scenario run merge scenario by scenario, exactly', () => {
  const shards = [shardDoc(0), shardDoc(1)]
  const merged = mergeResults([shards[1], shards[0]])
  assert.deepEqual(Object.keys(merged.scenarios), ['checkout', 'reports'])
  assert.equal(merged.run.shards.count, 2)
  for (const name of ['checkout', 'reports']) {
    const s = merged.scenarios[name]
    const [a, b] = shards.map((d) => d.scenarios[name])
    assert.equal(s.summary.transactions, a.summary.transactions + b.summary.transactions)
    assert.equal(s.clients, a.clients + b.clients)
    assert.equal(intervalCount(s.intervals), intervalCount(a.intervals) + intervalCount(b.intervals))
    for (const [type, t] of Object.entries(s.transactions)) {
      assert.equal(t.count, a.transactions[type].count + b.transactions[type].count)
      assert.equal(histCount(t.histogram), histCount(a.transactions[type].histogram) + histCount(b.transactions[type].histogram))
      assert.equal(merged.transactions[`${name}/${type}`].count, t.count)
    }
    assert.equal(s.startS, a.startS)
    assert.equal(s.endS, a.endS)
    assert.equal(s.options.shard, undefined, 'no one shard\'s mark in the merged options')
  }
})

test('shards that ran different scenarios are refused in one line', () => {
  assert.throws(() => mergeResults([shardDoc(0), shardDoc(1, { names: ['checkout', 'olap'] })], { sources: ['a.json', 'b.json'] }),
    { code: 'RESULTS_MISMATCH', message: /^cannot merge/ })
})
