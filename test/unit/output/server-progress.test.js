import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ServerPeriod, formatServerProgress } from '../../../lib/output/server-progress.js'
import { summarizeActivity } from '../../../lib/server/stats/reader.js'

test('a period\'s rates are the readings\' means weighted by their spans; gauges from the last reading', () => {
  const p = new ServerPeriod()
  p.add({ t: 1, xactCommitPerS: 100, xactRollbackPerS: 0, walBytesPerS: 2e6, blksReadPerS: 10, blksHitPerS: 990, backends: { active: 1 }, waitEvents: { CPU: 1 } })
  p.add({ t: 3, xactCommitPerS: 400, xactRollbackPerS: 3, walBytesPerS: 1e6, blksReadPerS: 0, blksHitPerS: 1000, backends: { active: 5, idle: 2 }, waitEvents: { CPU: 2, Lock: 2, LWLock: 1, IO: 1 }, autovacuumWorkers: 1 })
  const { line, unknown } = formatServerProgress(p, { checkpoint: true })
  assert.equal(line, 'server: 300.0 commits/s, 2.0 rollbacks/s, WAL 1.27 MB/s, 3 blocks read/s, cache hit 99.7 %, backends 5 active, 4 waiting (Lock 2, LWLock 1), checkpoint, autovacuum 1')
  assert.equal(unknown, false)
})

test('backends idle in a transaction are said apart, not counted as waiting', () => {
  const p = new ServerPeriod()
  const reading = summarizeActivity([
    ['client backend', 'active', null, null, 't', '1'],
    ['client backend', 'active', 'Lock', 'transactionid', 't', '2'],
    ['client backend', 'idle in transaction', 'Client', 'ClientRead', 't', '3'],
    ['client backend', 'idle in transaction (aborted)', 'Client', 'ClientRead', 't', '1']
  ])
  p.add({ t: 1, xactCommitPerS: 10, xactRollbackPerS: 0, walBytesPerS: 0, blksReadPerS: 0, blksHitPerS: 10, ...reading })
  assert.match(formatServerProgress(p).line, /, backends 3 active, 2 waiting \(Lock 2\), 4 idle in transaction$/)
})

test('a figure the server refused is -, and says so', () => {
  const p = new ServerPeriod()
  p.add({ t: 1, xactCommitPerS: 5, xactRollbackPerS: null, walBytesPerS: null, blksReadPerS: 0, blksHitPerS: 0, backends: null })
  const { line, unknown } = formatServerProgress(p)
  assert.equal(line, 'server: 5.0 commits/s, - rollbacks/s, WAL - MB/s, 0 blocks read/s, cache hit n/a, backends -')
  assert.equal(unknown, true)
})
