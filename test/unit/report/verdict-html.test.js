// ab's report opens with its verdict (which side is faster, by how much, p), then the runs.

import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compareRuns } from '../../../lib/compare/verdict.js'
import { verdictHtml, verdictHeadline } from '../../../lib/report/verdict-html.js'
import { writeHtmlReport } from '../../../lib/report/index.js'

const dir = mkdtempSync(join(tmpdir(), 'pgload-verdict-html-'))
after(() => rmSync(dir, { recursive: true, force: true }))
const load = (name) => JSON.parse(readFileSync(new URL(`../../fixtures/compare/${name}.json`, import.meta.url), 'utf8'))
const side = (prefix) => [1, 2, 3, 4, 5].map((i) => load(`${prefix}-${i}`))

test('the headline says which side is faster, by how much, with p; or that neither is', () => {
  const shifted = compareRuns(side('base'), side('shift'), { force: true })
  const tps = shifted.rows.find((r) => r.metric === 'tps')
  const words = { better: /^B is faster than A by \d+\.\d %: .* tps \(A\) against .* tps \(B\), .*, p /, worse: /^B is slower than A by \d+\.\d %: .*, p /, '~': /^Neither side is faster beyond the noise band/ }
  assert.match(verdictHeadline(shifted), words[tps.verdict])
  assert.match(verdictHeadline(compareRuns(side('base'), side('same'), { force: true })), /^(Neither side is faster|B is (faster|slower) than A)/)
})

test('ab --report: the verdict comes before the runs', async () => {
  const as = side('base').slice(0, 2)
  const bs = side('shift').slice(0, 2)
  const v = compareRuns(as, bs, { force: true })
  const intro = verdictHtml(v, { a: 'work_mem=4MB', b: 'work_mem=64MB' })
  const file = await writeHtmlReport([...as, ...bs], join(dir, 'report.html'), { names: ['A1', 'A2', 'B1', 'B2'], intro, title: 'pgload ab: B against A' })
  const html = readFileSync(file, 'utf8')
  const verdictAt = html.indexOf('<h2>Verdict: B against A</h2>')
  assert.ok(verdictAt > 0, 'a verdict section')
  assert.ok(verdictAt < html.indexOf('<h2>Run A1'), 'before the first run')
  assert.match(html, /<title>pgload ab: B against A<\/title>/)
  assert.match(html, /A: work_mem=4MB; B: work_mem=64MB/)
  assert.match(html, /too few runs to ever reach significance/)
})
