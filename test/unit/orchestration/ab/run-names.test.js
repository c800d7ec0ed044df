// An A/B run is named in reports as its file is named ("04-A"), and ab's progress lines say only
// what is true: an A/A test changes and verifies nothing.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { abRunName, abSequence } from '../../../../lib/orchestration/ab/runner.js'
import { labelRuns } from '../../../../lib/report/render-report.js'
import { reportAbEvent } from '../../../../lib/cli/ab.js'

const fixture = (name) => JSON.parse(readFileSync(new URL(`../../../fixtures/${name}`, import.meta.url), 'utf8'))

test('the runs of an A/A report carry the names of their files, A runs first as ab reports them', () => {
  const sequence = abSequence(4, 'abba', 1) // A B B A A B B A
  const runs = sequence.map((side, i) => ({ side, name: abRunName(i, side) }))
  const ordered = [...runs.filter((r) => r.side === 'A'), ...runs.filter((r) => r.side === 'B')]
  const docs = ordered.map((r) => {
    const d = fixture('results/tpcb-a.json')
    d.run.label = r.name // --aa: no settings after the name
    return d
  })
  const labels = labelRuns(docs).runs.map((r) => r.label)
  assert.deepEqual(labels, ordered.map((r) => r.name))
  assert.equal(abRunName(3, 'A'), '04-A')
  assert.ok(labels.includes('04-A') && labels.includes('02-B'))
})

test('ab --aa progress: the plan says nothing changes and no run claims a SHOW check', () => {
  let text = ''
  const err = { write: (s) => { text += s } }
  reportAbEvent(err, 'plan', { servers: [{ label: 'A and B', embedded: true, plan: [], originals: {} }], sequence: ['A', 'B'] })
  reportAbEvent(err, 'verified', { side: 'A', index: 0, settings: {} })
  assert.match(text, /^pgload ab: server A and B \(embedded\): its settings as they are, none changed$/m)
  assert.doesNotMatch(text, /verified with SHOW|\(embedded\):\n(?! {2})pgload ab: order/)
  assert.match(text, /^pgload ab: A: the server's settings as they are \(none set, none to verify\)$/m)
  text = ''
  reportAbEvent(err, 'verified', { side: 'B', index: 1, settings: { work_mem: '8MB' } })
  assert.equal(text, 'pgload ab: B: work_mem=8MB verified with SHOW\n')
})
