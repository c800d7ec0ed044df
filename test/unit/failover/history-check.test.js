import { test } from 'node:test'
import assert from 'node:assert/strict'
import { missingCommits } from '../../../lib/failover/history-check.js'
import { CommitLog } from '../../../lib/script/commit-log.js'
import { OrderLog } from '../../../workloads/tpcc/order-log.js'
import { formatFailover } from '../../../lib/output/failover-summary.js'

/** Variables as a terminal has them after a commit: tid, bid, aid, delta in slots 0..3. */
const vars = (values) => ({ getParam: (slot) => values[slot] })

test('the acknowledged commits without a row are listed in commit order, duplicates matched one for one', async () => {
  const log = new CommitLog([0, 1, 2, 3])
  const commits = [[1, 1, 10, 5], [2, 1, 20, -7], [1, 1, 10, 5], [3, 1, 30, 0], [1, 1, 10, 5]]
  for (const c of commits) log.add(vars(c))
  for (let i = 0; i < 2000; i++) log.add(vars([4, 1, 1000 + i, 1])) // grows past its first array
  const conn = {
    async simpleQuery (sql) {
      assert.match(sql, /from pgbench_history where mtime >= '2026-01-01 00:00:00'::timestamp group by/)
      // the server kept one of the three (1,1,10,5) and the 2,000 later ones less the last
      return { rows: [['1', '1', '10', '5', '1'], ['2', '1', '20', '-7', '1'], ...Array.from({ length: 1999 }, (_, i) => ['4', '1', String(1000 + i), '1', '1'])] }
    }
  }
  const m = await missingCommits(conn, log, '2026-01-01 00:00:00')
  assert.equal(m.count, 4)
  assert.deepEqual(m.first, [
    { tid: 1, bid: 1, aid: 10, delta: 5 },
    { tid: 3, bid: 1, aid: 30, delta: 0 },
    { tid: 1, bid: 1, aid: 10, delta: 5 },
    { tid: 4, bid: 1, aid: 2999, delta: 1 }
  ])
})

test('TPC-C: the committed New-Orders without an orders row are listed by their key, in commit order', async () => {
  const log = new OrderLog()
  for (let o = 3001; o <= 4500; o++) log.add(1, 1 + (o % 10), o) // grows past its first array
  const conn = {
    async simpleQuery (sql) {
      assert.match(sql, /select o_w_id, o_d_id, o_id, count\(\*\) from orders where o_entry_d >= '2026-01-01 00:00:00'::timestamp group by 1, 2, 3/)
      // the new primary lacks the last two orders
      return { rows: Array.from({ length: 1498 }, (_, i) => ['1', String(1 + ((3001 + i) % 10)), String(3001 + i), '1']) }
    }
  }
  const m = await missingCommits(conn, log, '2026-01-01 00:00:00')
  assert.deepEqual(m, { count: 2, first: [{ w: 1, d: 10, oId: 4499 }, { w: 1, d: 1, oId: 4500 }] })
  assert.match(formatFailover({ failover: { detected: false, rpo: { checked: 1500, found: 1498, missing: 2, server: 's', missingCommits: m } } }).join('\n'),
    /failover: missing New-Orders by their orders key: \(w 1, d 10, o_id 4499\), \(w 1, d 1, o_id 4500\)/)
})
