import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readsOnly, statementWrites, readOnlyWritesText } from '../../../../lib/server/stats/read-only-writes.js'
import { statementDeltas } from '../../../../lib/server/stats/statements-top.js'
import { formatServerStatsSummary } from '../../../../lib/output/server-summary.js'

test('readsOnly: plain reads are reads; DML, row locks, sequences and utility are not; transaction control is neither', () => {
  assert.equal(readsOnly('SELECT abalance FROM pgbench_accounts WHERE aid = $1'), true)
  assert.equal(readsOnly('with t as (select 1) select * from t'), true)
  assert.equal(readsOnly('UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2'), false)
  assert.equal(readsOnly('WITH d AS (DELETE FROM t RETURNING *) SELECT count(*) FROM d'), false)
  assert.equal(readsOnly('SELECT * FROM t WHERE id = $1 FOR UPDATE'), false)
  assert.equal(readsOnly("SELECT nextval('s')"), false)
  assert.equal(readsOnly('vacuum pgbench_branches'), false)
  assert.equal(readsOnly(null), false)
  for (const q of ['BEGIN', 'END', 'commit', 'SET application_name = $1', 'ROLLBACK']) assert.equal(readsOnly(q), null, q)
})

const reading = (over) => ({ query: 'SELECT abalance FROM pgbench_accounts WHERE aid = $1', calls: 1000, totalMs: 50, rows: 1000, blksDirtied: 0, walFpi: 0, ...over })

test('statementDeltas and statementWrites: a read-only window that dirtied blocks after a load', () => {
  const base = new Map([['10/1/t', reading({ calls: 10, blksDirtied: 5, walFpi: 1 })]])
  const end = new Map([
    ['10/1/t', reading({ calls: 1010, blksDirtied: 1645, walFpi: 41 })],
    ['10/2/t', reading({ query: 'BEGIN', blksDirtied: 0, walFpi: 0 })]
  ])
  const w = statementWrites(statementDeltas(base, end))
  assert.deepEqual(w, { statements: 2, readOnly: true, blksDirtied: 1640, walFpi: 40 })
  assert.equal(readOnlyWritesText(w),
    'note: this workload only reads, yet its statements dirtied 1,640 blocks and wrote 40 WAL full-page images (setting hint bits or pruning after a load): VACUUM the tables first')
  assert.match(formatServerStatsSummary({ deltas: {}, statements: { available: true, top: [], writes: w } }), /^ {8}note: this workload only reads, yet its statements dirtied 1,640 blocks/m)
})

test('no line for a workload that writes, one that dirtied nothing, or an extension without the columns', () => {
  const write = statementWrites([reading({ blksDirtied: 100 }), reading({ query: 'UPDATE t SET v = 1', blksDirtied: 100 })])
  assert.equal(write.readOnly, false)
  assert.equal(readOnlyWritesText(write), null)
  assert.equal(readOnlyWritesText(statementWrites([reading()])), null)
  const old = statementWrites([reading({ blksDirtied: null, walFpi: null })])
  assert.deepEqual(old, { statements: 1, readOnly: true, blksDirtied: null, walFpi: null })
  assert.equal(readOnlyWritesText(old), null)
  assert.equal(readOnlyWritesText(statementWrites([])), null, 'nothing ran: not a read-only workload')
  assert.equal(readOnlyWritesText(undefined), null)
})
