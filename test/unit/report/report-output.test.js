import { test } from 'node:test'
import assert from 'node:assert/strict'
import { htmlBeside } from '../../../lib/report/report-output.js'

test('the run report is named after its results file, whatever that file\'s extension', () => {
  assert.equal(htmlBeside('pgload-results/run.json'), 'pgload-results/run.html')
  assert.equal(htmlBeside('out/run.json.gz'), 'out/run.html')
  assert.equal(htmlBeside('x.txt'), 'x.html')
  assert.equal(htmlBeside('results'), 'results.html')
  assert.equal(htmlBeside('dir.v2/run'), 'dir.v2/run.html')
})
