import { test } from 'node:test'
import assert from 'node:assert/strict'
import { failoverTimeline } from '../../../lib/failover/timeline.js'
import { commitRows } from '../../../lib/failover/history-check.js'
import { formatFailover } from '../../../lib/output/failover-summary.js'

const interval = (t, tps, failed = 0) => ({ t, lengthS: 1, tps, failed })

test('a failover at 3.4 s: the throughput before, the seconds without commits, the recovery to 95 %, failures by phase', () => {
  const intervals = [interval(1, 100), interval(2, 110), interval(3, 90), { ...interval(4, 20, 4), errors: { '57P01': 3, '08006': 1 } }, interval(5, 0), interval(6, 60), interval(7, 97), { ...interval(8, 100, 1), errors: { 40001: 1 } }]
  const t = failoverTimeline({ firstErrorS: 3.4, reconnects: [{ atS: 1, failedForMs: 10 }, { atS: 5.2, failedForMs: 1600 }], intervals })
  assert.equal(t.tpsBefore, 100) // the whole intervals up to the first error
  assert.equal(t.reconnectedS, 5.2, 'the first reconnect after the first error')
  assert.equal(t.reconnectMs, 1600)
  assert.equal(t.recoveredS, 7) // the first interval started after the error with >= 95 tps
  assert.equal(t.recoveryMs, 3600)
  assert.equal(t.noCommitsS, 1)
  assert.deepEqual(t.failed, { before: 0, during: 4, after: 1 })
  assert.deepEqual(t.errors, { before: {}, during: { '57P01': 3, '08006': 1 }, after: { 40001: 1 } })
})

test('nothing failed: no timeline; never back: recovered null', () => {
  assert.equal(failoverTimeline({ firstErrorS: null, reconnects: [], intervals: [interval(1, 10)] }), null)
  const t = failoverTimeline({ firstErrorS: 1.5, reconnects: [], intervals: [interval(1, 100), interval(2, 10), interval(3, 50)] })
  assert.equal(t.recoveredS, null)
  assert.equal(t.recoveryMs, null)
  assert.equal(t.reconnectedS, null)
})

test('the commits that insert a row: pgbench\'s tpcb-like and simple-update, TPC-C\'s New-Orders less rollbacks; not select-only nor a user\'s script', () => {
  const results = (scripts, transactions) => ({ run: { workload: 'tpcb', options: { scripts } }, transactions })
  assert.deepEqual(commitRows(results([{ kind: 'builtin', name: 'tpcb-like' }, { kind: 'builtin', name: 'select-only' }],
    { 'tpcb-like': { count: 40, outcomeUnknown: 1 }, 'select-only': { count: 500 } })), { table: 'pgbench_history', column: 'mtime', committed: 40, outcomeUnknown: 1 })
  assert.equal(commitRows(results([{ kind: 'file', name: 'mine.sql' }], { 'mine.sql': { count: 3 } })), null)
  assert.deepEqual(commitRows({ run: { workload: 'tpcc', options: {} }, transactions: { 'new-order': { count: 1165, rollbacks: 12, outcomeUnknown: 0 } } }),
    { table: 'orders', column: 'o_entry_d', committed: 1153, outcomeUnknown: 0 })
  assert.equal(commitRows({ run: { workload: 'chbench', options: {} }, transactions: {} }), null)
})

test('the summary\'s failover lines say the outage, the recovery and the RPO check', () => {
  const lines = formatFailover({
    failover: {
      ...{ detected: true, firstErrorS: 3.4, reconnectedS: 5.2, reconnectMs: 1600, tpsBefore: 100, recoveredS: 7, recoveryMs: 3600, noCommitsS: 1 },
      ...{ failed: { before: 0, during: 4, after: 1 }, errors: { before: {}, during: { '08006': 1, '57P01': 3 }, after: {} }, outcomeUnknown: 0, outageMs: 1712, serverCheck: null },
      ...{ lastCommitBefore: '2026-11-28 11:00:03.4', firstCommitAfter: '2026-11-28 11:00:05.1' },
      rpo: { checked: 1234, found: 1234, missing: 0, server: '127.0.0.1:5433' }
    }
  })
  assert.deepEqual(lines, [
    'failover: first error at 3.4 s; reconnected at 5.2 s (re-opening failed for 1,600 ms)',
    'failover: write outage 1,712 ms (last commit before 2026-11-28 11:00:03.4, first after 2026-11-28 11:00:05.1, server time)',
    'failover: throughput back to 95 % of the 100.0 tps before at 7.0 s (3,600 ms after the first error)',
    'failover: failed transactions 0 before, 4 during, 1 after; 0 commits of unknown outcome',
    'failover: failures during it, by SQLSTATE or pgload\'s code: 57P01 3, 08006 1',
    'failover: RPO check on 127.0.0.1:5433: 1,234 acknowledged commits, 1,234 rows found, none missing'
  ])
  assert.deepEqual(formatFailover({ failover: { detected: false } }), ['failover: none seen (no transaction failed and no reconnect was needed)'])
  assert.deepEqual(formatFailover({ failover: { detected: false, outageMs: 16, rpo: { checked: 2680, found: 2680, missing: 0, server: 'db:5432' } } }), [
    'failover: none seen (no transaction failed and no reconnect was needed)',
    'failover: longest gap between two commits 16 ms (server time)',
    'failover: RPO check on db:5432: 2,680 acknowledged commits, 2,680 rows found, none missing'
  ])
})

test('--failover on the embedded server: the timeline, and one line on why there is no RPO check', async () => {
  const { failoverOutput } = await import('../../../lib/failover/failover-output.js')
  const output = failoverOutput({ failover: true }, { env: {} }) // no --url, no PG*: the embedded server
  const results = { run: { workload: 'tpcb', options: { scripts: [{ kind: 'builtin', name: 'tpcb-like' }], warmupS: 0 } }, summary: { outcomeUnknown: 0 }, transactions: { 'tpcb-like': { count: 10 } } }
  await output.finish(results)
  assert.equal(results.failover.detected, false)
  assert.equal(results.failover.rpo, null)
  assert.equal(results.failover.serverCheck, 'the run used the embedded server, which has no standby to fail over to: give the servers with --url')
})
