// --staleness's bookkeeping: stamps acknowledged per client, reads compared with them.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Staleness } from '../../../lib/engine/staleness.js'

const tick = () => new Promise((resolve) => setImmediate(resolve))

test('a read that misses its client\'s acknowledged stamps is a violation, counted in stamps and time', async () => {
  let now = 1000
  const st = new Staleness({ typeTargets: [0, 1], terminals: 2, nowUs: () => now, baseSeq: 500 })
  assert.deepEqual([st.writes, st.reads], [[true, false], [false, true]])
  const server = new Map() // what the routed server shows: id -> seq
  const sql = []
  const conn = {
    async simpleQuery (text) {
      sql.push(text)
      const id = Number(/where id = (\d+)/.exec(text)?.[1])
      return { rows: server.has(id) ? [[String(server.get(id))]] : [] }
    }
  }
  const ended = []
  const terminal = (id) => ({ terminalId: id, conn, cancelled: false, context: { measureStartUs: 0 }, endTransaction: (s) => ended.push(s), runOn: () => ended.push('ran'), crash: (e) => { throw e } })
  const t0 = terminal(0)
  st.check(t0, conn) // before any stamp: not checked
  await tick()
  for (let i = 0; i < 3; i++) { now += 1000; st.stamp(t0); await tick() } // stamps 1..3 acknowledged at 2000, 3000, 4000
  assert.match(sql[1], /^insert into pgload_staleness as s values \(0, 501, now\(\)\) on conflict \(id\) do update/)
  server.set(0, 501) // the standby has applied the first stamp only
  now = 10_000
  st.check(t0, conn)
  await tick()
  server.set(0, 503)
  st.check(t0, conn)
  await tick()
  const s = st.section()
  assert.equal(s.stamps, 3)
  assert.equal(s.unchecked, 1)
  assert.equal(s.reads, 2)
  assert.equal(s.violations, 1)
  assert.equal(s.behindStamps.max, 2)
  assert.equal(s.behindMs.max, 7, 'since the first missed stamp (3000 us) was acknowledged')
  assert.equal(ended.filter((e) => e === 'ran').length, 3)
  assert.equal(ended.filter((e) => e !== 'ran').length, 3)
})
