// The example queries of docs/results-database.md run as printed, against a results database
// filled here (labelled runs, a TPC-C run, a sweep), and each returns rows: the docs cannot rot.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testResultsDatabase } from '../helpers/results-db.js'
import { storeFiles } from '../../lib/store/index.js'
import { makeSweep } from '../fixtures/store/make-sweep.js'

const DOC = new URL('../../docs/results-database.md', import.meta.url)
const dir = mkdtempSync(join(tmpdir(), 'pgload-store-docs-'))
let db

/** The ```sql blocks of a markdown text. */
function sqlBlocks (markdown) {
  return [...markdown.matchAll(/^```sql\n([\s\S]*?)^```$/gm)].map((m) => m[1].trim())
}

before(async () => {
  db = await testResultsDatabase()
  const files = []
  for (let i = 1; i <= 5; i++) {
    const doc = JSON.parse(readFileSync(new URL(`../fixtures/compare/base-${i}.json`, import.meta.url), 'utf8'))
    doc.run.label = 'main'
    doc.run.startTime = `2026-03-0${i}T00:00:00.000Z`
    // the newest run had another work_mem: the settings query has a difference to show
    if (i === 5) doc.serverStats.settings.work_mem = { ...doc.serverStats.settings.work_mem, value: '8192' }
    const file = join(dir, `main-${i}.json`)
    writeFileSync(file, JSON.stringify(doc))
    files.push(file)
  }
  files.push(new URL('../fixtures/results/tpcc.json', import.meta.url).pathname)
  files.push(makeSweep(join(dir, 'sweep')).file)
  const out = await storeFiles(files, { resultsUrl: db.url })
  assert.deepEqual(out.filter((o) => o.error), [])
})

after(async () => {
  await db?.drop()
  rmSync(dir, { recursive: true, force: true })
})

test('every example query of docs/results-database.md runs and returns rows', async () => {
  const blocks = sqlBlocks(readFileSync(DOC, 'utf8'))
  assert.ok(blocks.length >= 9, `expected the documented queries, found ${blocks.length}`)
  for (const sql of blocks) {
    let result
    try {
      result = await db.query(sql)
    } catch (err) {
      assert.fail(`${err.message}\nin:\n${sql}`)
    }
    assert.ok(result.rows.length > 0, `no rows from:\n${sql}`)
  }
})

test('the documented baseline query gives the medians check uses', async () => {
  const sql = sqlBlocks(readFileSync(DOC, 'utf8')).find((s) => s.includes('percentile_cont'))
  const { rows: [[runs, tps]] } = await db.query(sql)
  assert.equal(runs, '5')
  const tpsOfRuns = [1, 2, 3, 4, 5].map((i) => JSON.parse(readFileSync(new URL(`../fixtures/compare/base-${i}.json`, import.meta.url), 'utf8')).summary.tps).sort((a, b) => a - b)
  assert.equal(Number(tps), tpsOfRuns[2])
})

test('the settings query shows the setting that differs', async () => {
  const sql = sqlBlocks(readFileSync(DOC, 'utf8')).find((s) => s.includes('jsonb_each'))
  const { rows } = await db.query(sql)
  assert.deepEqual(rows, [['work_mem', '4096', '8192']])
})
