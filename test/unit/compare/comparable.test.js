// What compare lists as differences between runs: facts of what was tested, not of where the
// embedded server happened to listen.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { runDifferences } from '../../../lib/compare/comparable.js'

const fixture = (name) => JSON.parse(readFileSync(new URL(`../../fixtures/results/${name}`, import.meta.url), 'utf8'))

test('two runs on the embedded server, started on different ports, do not differ in their server', () => {
  const a = fixture('tpcb-a.json')
  const b = fixture('tpcb-a.json')
  a.server = { ...a.server, embedded: true, target: 'postgres://postgres@127.0.0.1:42847/postgres' }
  b.server = { ...b.server, embedded: true, target: 'postgres://postgres@127.0.0.1:36093/postgres' }
  const { informative } = runDifferences([a], [b])
  assert.deepEqual(informative.filter((d) => d.name === 'server target'), [])
})

test('two runs on other servers, or one embedded and one not, differ in their server target', () => {
  const a = fixture('tpcb-a.json')
  const b = fixture('tpcb-a.json')
  a.server = { ...a.server, embedded: false, target: 'postgres://bench@db1:5432/bench' }
  b.server = { ...b.server, embedded: false, target: 'postgres://bench@db2:5432/bench' }
  assert.deepEqual(runDifferences([a], [b]).informative.find((d) => d.name === 'server target'),
    { name: 'server target', a: ['postgres://bench@db1:5432/bench'], b: ['postgres://bench@db2:5432/bench'] })
  b.server = { ...b.server, embedded: true, target: 'postgres://postgres@127.0.0.1:36093/postgres' }
  assert.deepEqual(runDifferences([a], [b]).informative.find((d) => d.name === 'server target').b, ['the embedded server'])
})
