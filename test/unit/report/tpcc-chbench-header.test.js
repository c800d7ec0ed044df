// The report header's TPC-C and CH-benCHmark figures: no efficiency for an unpaced run, and
// the analytic streams' figures in a section of their own.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { runHeaderHtml, summaryTable } from '../../../lib/report/header.js'

const recorded = () => JSON.parse(readFileSync(new URL('../../fixtures/results/recorded-chbench-k1.json', import.meta.url), 'utf8'))

test('an unpaced run has no efficiency in the report header', () => {
  const html = runHeaderHtml(recorded())
  assert.match(html, /<dt>efficiency<\/dt><dd>n&#47;a \(unpaced: --no-wait\)<\/dd>/)
  assert.doesNotMatch(html, /88[,.]?342/)
})

test('a CH-benCHmark run has its own section in the report header', () => {
  const html = runHeaderHtml(recorded())
  assert.match(html, /<h3>CH-benCHmark<\/h3>/)
  assert.match(html, /<dt>queries per hour<\/dt><dd>7,453\.4 \(11 queries\)<\/dd>/)
  assert.match(html, /<dt>geometric mean of the 22 analytic queries<\/dt><dd>– \(not every query ran/)
  assert.match(html, /<dt>complete sets of 22<\/dt><dd>stream 1: 0<\/dd>/)
})

test('a CH-benCHmark run\'s summary table has no "all" row: its transactions and queries are no one population', () => {
  const doc = JSON.parse(readFileSync(new URL('../../fixtures/results/recorded-chbench-k1.json', import.meta.url), 'utf8'))
  assert.doesNotMatch(summaryTable(doc), />all</)
  doc.chbench.streams = 0
  assert.match(summaryTable(doc), /<th scope="row">all<\/th>/)
})
