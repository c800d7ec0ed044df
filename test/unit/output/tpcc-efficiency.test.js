import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { formatTpcc } from '../../../lib/output/tpcc-summary.js'

const recorded = () => JSON.parse(readFileSync(new URL('../../fixtures/results/recorded-chbench-k1.json', import.meta.url), 'utf8'))

test('an unpaced run has no efficiency in the summary', () => {
  const doc = recorded()
  assert.equal(doc.tpcc.paced, false)
  const out = formatTpcc(doc)
  assert.match(out, /^efficiency = n\/a \(unpaced: --no-wait\)$/m)
  assert.doesNotMatch(out, /88342/)
})

test('a paced run keeps its efficiency in the summary', () => {
  const doc = recorded()
  doc.tpcc.paced = true
  assert.match(formatTpcc(doc), /^efficiency = 88342\.3%/m)
})
