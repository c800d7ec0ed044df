// Storing results files: the stored rows equal the files (counts, percentiles from the
// histograms, the series), the same file stored twice is one run, a bad file stops only itself,
// and one import is one transaction.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { testResultsDatabase } from '../helpers/results-db.js'
import { storeFiles, openResultsStore, storeRunDocument, STORE_VERSION } from '../../lib/store/index.js'
import { readResults } from '../../lib/results/read.js'
import { decodeHistogram, percentileMs } from '../../lib/metrics/histogram.js'

const fixture = (name) => new URL(`../fixtures/results/${name}`, import.meta.url).pathname
const dir = mkdtempSync(join(tmpdir(), 'pgload-store-import-'))
let db

before(async () => { db = await testResultsDatabase() })
after(async () => {
  await db?.drop()
  rmSync(dir, { recursive: true, force: true })
})

const rowsOf = async (sql, values) => (await db.query(sql, values)).rows

test('the stored rows equal the results files', async () => {
  const files = ['tpcb-a.json', 'tpcc.json'].map(fixture)
  const out = await storeFiles(files, { resultsUrl: db.url })
  assert.deepEqual(out.map((o) => o.status), ['stored', 'stored'])
  for (const [i, file] of files.entries()) {
    const doc = await readResults(file)
    const runId = out[i].runId
    const [run] = await rowsOf('select transactions, tps, p99_ms, max_ms, workload, server_version, source_file, jsonb_typeof(server_settings), options->>\'clients\' from pgload.runs where run_id = $1', [runId])
    assert.deepEqual(run.slice(0, 6).map(String), [doc.summary.transactions, doc.summary.tps, doc.summary.latencyMs.p99, doc.summary.latencyMs.max, doc.run.workload, doc.server.version].map(String))
    assert.equal(run[6], file)
    assert.equal(run[7], 'object')
    const types = await rowsOf('select txn_type, count, p50_ms, p90_ms, p99_ms, p999_ms, histogram from pgload.run_types where run_id = $1 order by position', [runId])
    assert.deepEqual(types.map((t) => t[0]), Object.keys(doc.transactions))
    for (const t of types) {
      const tx = doc.transactions[t[0]]
      assert.equal(Number(t[1]), tx.count)
      const h = decodeHistogram(tx.histogram)
      // percentiles as the histogram reads them (never above the exact max)
      const fromHistogram = [50, 90, 99, 99.9].map((p) => Math.min(percentileMs(h, p), tx.latencyMs.max))
      assert.deepEqual(t.slice(2, 6).map(Number), fromHistogram, t[0])
      assert.equal(t[6], tx.histogram)
    }
    const [series] = await rowsOf('select count(*), sum(transactions), max(seq) from pgload.run_intervals where run_id = $1', [runId])
    assert.equal(Number(series[0]), doc.intervals.length)
    assert.equal(Number(series[1]), doc.intervals.reduce((n, iv) => n + Object.values(iv.count).reduce((a, b) => a + b, 0), 0))
    assert.equal(Number(series[2]), doc.intervals.length - 1)
  }
})

test('the same results stored again, also re-indented or gzipped, are one run', async () => {
  const doc = JSON.parse(readFileSync(fixture('tpcb-b.json'), 'utf8'))
  const indented = join(dir, 'b-indented.json')
  const gzipped = join(dir, 'b.json.gz')
  writeFileSync(indented, JSON.stringify(doc, null, 8))
  writeFileSync(gzipped, gzipSync(JSON.stringify(doc)))
  const out = await storeFiles([fixture('tpcb-b.json'), fixture('tpcb-b.json'), indented, gzipped], { resultsUrl: db.url })
  assert.deepEqual(out.map((o) => o.status), ['stored', 'already stored', 'already stored', 'already stored'])
  assert.equal(new Set(out.map((o) => o.runId)).size, 1)
  const [[n]] = await rowsOf('select count(*) from pgload.runs where run_id = $1', [out[0].runId])
  assert.equal(n, '1')
  const [[types]] = await rowsOf('select count(*) from pgload.run_types where run_id = $1', [out[0].runId])
  assert.equal(Number(types), Object.keys(doc.transactions).length)
})

test('bad files: an error each, the others still stored', async () => {
  const broken = join(dir, 'broken.json')
  writeFileSync(broken, '{"schemaVersion": 1, "run": ')
  const good = join(dir, 'recorded.json')
  writeFileSync(good, readFileSync(fixture('recorded-tpcb.json')))
  const out = await storeFiles([broken, join(dir, 'missing.json'), good], { resultsUrl: db.url })
  assert.match(out[0].error.message, /broken\.json: not a JSON document/)
  assert.match(out[1].error.message, /missing\.json: cannot read results file: no such file/)
  assert.equal(out[2].status, 'stored')
})

test('one import is one transaction: a failure leaves no row of that run', async () => {
  const store = await openResultsStore({ resultsUrl: db.url })
  try {
    const doc = JSON.parse(readFileSync(fixture('tpcb-a.json'), 'utf8'))
    doc.run.seed = 'another run'
    doc.intervals[3].t = 'not a number' // passes no reader's check: fails in the database, after the runs row
    const [[before]] = (await store.conn.simpleQuery('select count(*) from pgload.runs')).rows.map((r) => r)
    await assert.rejects(storeRunDocument(store.conn, doc), /invalid input syntax for type double precision/)
    const after = (await store.conn.simpleQuery('select count(*) from pgload.runs')).rows[0][0]
    assert.equal(after, before)
  } finally {
    await store.release()
  }
})

test('the schema is created once and versioned', async () => {
  const rows = await rowsOf('select version from pgload.schema_version order by version')
  // every migration once, in order
  assert.deepEqual(rows.map((r) => Number(r[0])), Array.from({ length: STORE_VERSION }, (_, i) => i + 1))
  // opening again changes nothing
  const store = await openResultsStore({ resultsUrl: db.url })
  await store.release()
  assert.equal((await rowsOf('select count(*) from pgload.schema_version'))[0][0], String(STORE_VERSION))
})

test('a results database of a newer schema version is refused, not written', async () => {
  await db.query('insert into pgload.schema_version (version) values (99)')
  try {
    await assert.rejects(openResultsStore({ resultsUrl: db.url }), (err) => {
      assert.equal(err.code, 'STORE_VERSION')
      assert.equal(err.message, `the results database has schema version 99, newer than this pgload's (${STORE_VERSION})`)
      return true
    })
  } finally {
    await db.query('delete from pgload.schema_version where version = 99')
  }
})
