// What `run` does after loading its tables itself: vacuum, checkpoint, publish the load's counters.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { settleAfterLoad } from '../../../../lib/server/stats/after-load.js'

function fakeConn (refuse = null) {
  const sent = []
  return {
    sent,
    async simpleQuery (text) {
      sent.push(text)
      if (refuse && text === 'CHECKPOINT') {
        const e = new Error(refuse.message)
        e.code = refuse.code
        throw e
      }
      return { rows: [] }
    }
  }
}

test('vacuum analyze of the loaded tables, then CHECKPOINT, then the statistics flush (15+)', async () => {
  const conn = fakeConn()
  let ms = 0
  const r = await settleAfterLoad(conn, ['pgbench_accounts', 'public.pgbench_branches'], { serverVersionNum: 180004, loadS: 2.5, now: () => (ms += 250) })
  assert.deepEqual(conn.sent, [
    'VACUUM (ANALYZE) "pgbench_accounts", "public"."pgbench_branches"',
    'CHECKPOINT',
    'SELECT pg_stat_force_next_flush()'
  ])
  assert.deepEqual(r, { loadS: 2.5, vacuumed: true, checkpointed: true, settleS: 0.25 })
})

test('a refused CHECKPOINT is recorded and the run goes on; other errors are not swallowed', async () => {
  const conn = fakeConn({ code: '42501', message: 'permission denied to execute CHECKPOINT command\nDETAIL: ...' })
  const r = await settleAfterLoad(conn, ['t'], { serverVersionNum: 140000 })
  assert.equal(r.checkpointed, false)
  assert.equal(r.checkpointRefused, 'permission denied to execute CHECKPOINT command')
  assert.deepEqual(conn.sent, ['VACUUM (ANALYZE) "t"', 'CHECKPOINT'], 'no pg_stat_force_next_flush before 15')
  await assert.rejects(settleAfterLoad(fakeConn({ code: '57014', message: 'canceling statement' }), ['t'], { serverVersionNum: 180000 }), /canceling statement/)
})
