// `run.cold` of a results document: checked like every other field, and shown where a run is
// described (the phase line of `pgload run` and ab, the report's header).

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { validateResults } from '../../../lib/results/schema.js'
import { phaseMessage, coldLine } from '../../../lib/output/run-messages.js'
import { runHeaderHtml } from '../../../lib/report/header.js'
import { runDifferences } from '../../../lib/compare/comparable.js'

const FIXTURES = new URL('../../fixtures/', import.meta.url)
const base = () => JSON.parse(readFileSync(new URL('compare/base-1.json', FIXTURES), 'utf8'))
const COLD = { restarted: true, method: 'embedded', restartS: 1.328, pageCacheDropped: true, pageCacheNote: 'dropped after the stop, before the start' }

test('run.cold is accepted as written and refused when damaged, naming the field', () => {
  const doc = base()
  doc.run.cold = { ...COLD }
  assert.equal(validateResults(doc, 'f.json'), doc)
  doc.run.cold = null
  assert.equal(validateResults(doc, 'f.json'), doc, 'null: no cold start recorded')
  for (const [damage, message] of [
    [(c) => { c.restartS = -1 }, /^f\.json: run\.cold\.restartS: expected a number >= 0 or null, got -1$/],
    [(c) => { c.pageCacheDropped = 'yes' }, /^f\.json: run\.cold\.pageCacheDropped: expected true or false, got "yes"$/],
    [(c) => { delete c.restarted }, /^f\.json: run\.cold\.restarted: missing$/],
    [(c) => { c.pageCacheNote = 3 }, /^f\.json: run\.cold\.pageCacheNote: /]
  ]) {
    const d = base()
    d.run.cold = { ...COLD }
    damage(d.run.cold)
    assert.throws(() => validateResults(d, 'f.json'), (err) => { assert.match(err.message, message); return true })
  }
})

test('the cold-start line: how long the restart took and what happened to the page cache', () => {
  assert.equal(phaseMessage('restarting', { method: 'embedded' }), 'pgload: cold start: restarting the embedded server\n')
  assert.equal(phaseMessage('restarting', { method: 'command' }), 'pgload: cold start: restarting the server (--restart-command)\n')
  assert.equal(phaseMessage('cold', COLD), 'pgload: cold start: the server restarted in 1.3 s; OS page cache dropped after the stop, before the start\n')
  assert.equal(coldLine({ ...COLD, pageCacheDropped: false, pageCacheNote: 'not dropped: pgload is not root (uid 1000); dropping the OS page cache needs root' }),
    'cold start: the server restarted in 1.3 s; OS page cache not dropped: pgload is not root (uid 1000); dropping the OS page cache needs root')
})

test('the report header says what the cold start did; compare names a cold run against a warm one', () => {
  const doc = base()
  assert.doesNotMatch(runHeaderHtml(doc, null), /cold start/)
  doc.run.cold = { ...COLD, method: 'command' }
  assert.match(runHeaderHtml(doc, null), /<dt>cold start<\/dt>\s*<dd>restarted by --restart-command in 1\.3 s; OS page cache dropped after the stop, before the start<\/dd>/)
  const diff = runDifferences([base()], [doc])
  assert.deepEqual(diff.informative.filter((d) => /cold|page cache/.test(d.name)).map((d) => [d.name, d.a, d.b]),
    [['cold start', ['false'], ['true']], ['OS page cache dropped', ['false'], ['true']]])
})
