// `pgload compare` on scenario runs: scenario by scenario in text, markdown and JSON; a scenario
// run against a plain run: one line, exit 1.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { runCli, assertOneLineError } from '../helpers/cli.js'

const F = (n) => fileURLToPath(new URL(`../fixtures/results/${n}.json`, import.meta.url))

test('compare two scenario runs: each scenario\'s rows, in every format', async () => {
  const json = await runCli(['compare', F('recorded-scenarios'), F('recorded-scenarios-b'), '--json'])
  assert.equal(json.code, 0, json.stderr)
  const v = JSON.parse(json.stdout)
  assert.deepEqual(v.scenarios, ['checkout', 'reports'])
  assert.deepEqual([...new Set(v.rows.filter((r) => r.scenario).map((r) => `${r.scenario}:${r.txn ?? ''}`))], ['checkout:', 'checkout:tpcb-like', 'reports:', 'reports:sleep.sql'])
  const text = await runCli(['compare', F('recorded-scenarios'), F('recorded-scenarios-b')])
  assert.equal(text.code, 0, text.stderr)
  assert.match(text.stdout, /^scenario checkout p99 ms\s+tpcb-like\s/m)
  const md = await runCli(['compare', F('recorded-scenarios'), F('recorded-scenarios-b'), '--markdown'])
  assert.match(md.stdout, /^\| scenario reports p99 ms \| sleep\.sql \|/m)
})

test('compare a scenario run with a plain run: one line, exit 1', async () => {
  const r = await runCli(['compare', F('recorded-scenarios'), F('tpcb-a')])
  assert.equal(r.code, 1)
  assertOneLineError(r, /^pgload: runs are not comparable: A has scenario runs and B plain runs/)
})
