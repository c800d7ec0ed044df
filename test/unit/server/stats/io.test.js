import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { parseIoRows, ioRates, ioDeltas, ioByBackendType } from '../../../../lib/server/stats/io.js'
import { formatServerStatsSummary } from '../../../../lib/output/server-summary.js'
import { validateResults } from '../../../../lib/results/schema.js'

const fixture = JSON.parse(readFileSync(new URL('../../../fixtures/server-io/pg18-readings.json', import.meta.url), 'utf8'))
const base = parseIoRows(fixture.fields, fixture.base)
const end = parseIoRows(fixture.fields, fixture.end)

test('parseIoRows keys rows by backend type, object and context; untracked counts stay null', () => {
  const r = end.get('checkpointer|relation|normal')
  assert.equal(r.counts.writes, 1300n)
  assert.equal(r.counts.reads, null)
  assert.equal(r.timesMs.writes, 112.5)
  assert.equal(end.size, 5)
})

test('ioDeltas keeps the rows that moved, largest first, with the times track_io_timing moved', () => {
  const d = ioDeltas(base, end)
  assert.deepEqual(d.map(r => r.backendType + '/' + r.context), ['checkpointer/normal', 'client backend/normal', 'autovacuum worker/vacuum'])
  assert.deepEqual(d[0], { backendType: 'checkpointer', object: 'relation', context: 'normal', reads: null, writes: 1000, extends: null, fsyncs: 20, writeTimeMs: 100, fsyncTimeMs: 1.25 })
  assert.equal(d[1].reads, 60)
  assert.equal(d[1].extends, 10)
  // a row new in the end reading was at zero (the query leaves rows at zero out)
  assert.deepEqual(d[2], { backendType: 'autovacuum worker', object: 'relation', context: 'vacuum', reads: 9, writes: 0, extends: 0, fsyncs: null })
  // a row that went backwards (reset) counts as nothing
  assert.ok(!d.some(r => r.backendType === 'background writer'))
})

test('ioRates sums a backend type over its rows, per second; null without both readings', () => {
  const r = ioRates(base, end, 2)
  assert.deepEqual(r.checkpointer, { reads: 0, writes: 500, extends: 0, fsyncs: 10 })
  assert.deepEqual(r['client backend'], { reads: 30, writes: 2, extends: 5, fsyncs: 0 })
  assert.equal(ioRates(null, end, 2), null)
  assert.equal(ioRates(base, end, 0), null)
})

test('the summary names the two backend types that did the most I/O', () => {
  const io = ioDeltas(base, end)
  assert.deepEqual(ioByBackendType(io).map(s => s.backendType), ['checkpointer', 'client backend', 'autovacuum worker'])
  const text = formatServerStatsSummary({ deltas: {}, io })
  assert.match(text, /I\/O \(pg_stat_io, most first\): checkpointer 1,000 writes, 20 fsyncs; client backend 60 reads, 4 writes, 10 extends/)
  assert.doesNotMatch(formatServerStatsSummary({ deltas: {}, io: null }), /pg_stat_io/)
})

test('the results schema takes the I/O rows and rates, and names a wrong one', () => {
  const doc = JSON.parse(readFileSync(new URL('../../../fixtures/results/recorded-tpcb.json', import.meta.url), 'utf8'))
  doc.serverStats = { ...(doc.serverStats ?? {}), io: ioDeltas(base, end), series: [{ t: 1, ioPerS: ioRates(base, end, 1) }, { t: 2, ioPerS: null }] }
  validateResults(doc)
  doc.serverStats.io[0].writes = -1
  assert.throws(() => validateResults(doc), /serverStats\.io\[0\]\.writes/)
})

test('the summary says which part of a backend type\'s I/O was WAL (PostgreSQL 18 counts it as an object)', () => {
  const row = (object, writes, fsyncs) => ({ backendType: 'client backend', object, context: 'normal', reads: 0, writes, extends: 0, fsyncs })
  const io = [row('relation', 40, 0), row('wal', 300, 120)]
  const [s] = ioByBackendType(io)
  assert.deepEqual(s.wal, { reads: 0, writes: 300, extends: 0, fsyncs: 120 })
  assert.match(formatServerStatsSummary({ deltas: {}, io }), /client backend 340 writes, 120 fsyncs \(of which WAL 300 writes, 120 fsyncs\)$/m)
  assert.doesNotMatch(formatServerStatsSummary({ deltas: {}, io: [row('relation', 40, 0)] }), /of which WAL/)
})
