// The compiled tpcb-like script run directly (no engine) against a real PostgreSQL, under each
// protocol: every transaction moves the same delta through accounts, tellers, branches and history.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { getTestServer } from '../helpers/server.js'
import { openConnection } from '../../lib/db/connection.js'
import { compileScript, findBuiltin, scriptWorkload } from '../../lib/script/index.js'

let server
let admin

before(async () => {
  server = await getTestServer()
  admin = await openConnection(server.target, { protocol: 'simple' })
  await admin.simpleQuery(`
    drop table if exists pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers;
    create table pgbench_history (tid int, bid int, aid int, delta int, mtime timestamp, filler char(22));
    create table pgbench_tellers (tid int not null primary key, bid int, tbalance int, filler char(84));
    create table pgbench_accounts (aid int not null primary key, bid int, abalance int, filler char(84));
    create table pgbench_branches (bid int not null primary key, bbalance int, filler char(88));
    insert into pgbench_branches select b, 0 from generate_series(1, 2) b;
    insert into pgbench_tellers select t, (t - 1) / 10 + 1, 0 from generate_series(1, 20) t;
    insert into pgbench_accounts select a, (a - 1) / 100000 + 1, 0, '' from generate_series(1, 200000) a;`)
})

after(async () => { await admin?.close() })

async function sums () {
  const r = await admin.simpleQuery(`select (select count(*) from pgbench_history),
    (select coalesce(sum(delta), 0) from pgbench_history), (select sum(abalance) from pgbench_accounts),
    (select sum(tbalance) from pgbench_tellers), (select sum(bbalance) from pgbench_branches)`)
  return r.rows[0].map(Number)
}

for (const protocol of ['simple', 'extended', 'prepared']) {
  test(`tpcb-like under -M ${protocol}: balances move consistently`, async () => {
    const b = findBuiltin('tpcb-like')
    const compiled = compileScript({ name: b.name, text: b.script, desc: b.desc }, { protocol })
    const workload = scriptWorkload([compiled], { randomSeed: 42n, clients: 1, scale: 2, noVacuum: true })
    const conn = await openConnection(server.target, { protocol })
    try {
      const ctx = {
        terminalId: 0,
        random: workload.seeds.clientPrngs[0],
        state: workload.createTerminalState(0),
        conn,
        nowUs: () => performance.now() * 1000,
        sleepUs: async () => {}
      }
      const [count0] = await sums()
      const n = 150
      for (let i = 0; i < n; i++) await workload.transactions[workload.choose(ctx)].run(ctx)
      const [count, deltas, a, t, br] = await sums()
      assert.equal(count - count0, n)
      assert.equal(a, deltas)
      assert.equal(t, deltas)
      assert.equal(br, deltas)
      // the variables the last transaction used are the ones the server saw
      const vars = ctx.state.vars
      const aid = vars.getString(vars.registry.find('aid'))
      const last = await admin.simpleQuery('select aid, delta from pgbench_history order by mtime desc, ctid desc limit 1')
      assert.equal(last.rows[0][0], aid)
      assert.equal(last.rows[0][1], vars.getString(vars.registry.find('delta')))
      assert.ok(Number(aid) >= 1 && Number(aid) <= 200000)
      assert.equal(conn.transactionStatus, 'I')
    } finally {
      await conn.close()
    }
  })
}

test('the same seed gives the same parameters whatever the protocol', async () => {
  const b = findBuiltin('select-only')
  const seen = []
  for (const protocol of ['simple', 'prepared']) {
    const workload = scriptWorkload([compileScript({ name: b.name, text: b.script }, { protocol })], { randomSeed: 7n, scale: 2, noVacuum: true })
    const conn = await openConnection(server.target, { protocol })
    const ctx = { terminalId: 0, random: workload.seeds.clientPrngs[0], state: workload.createTerminalState(0), conn, nowUs: () => 0, sleepUs: async () => {} }
    const aids = []
    for (let i = 0; i < 5; i++) {
      await workload.transactions[0].run(ctx)
      aids.push(ctx.state.vars.getString(ctx.state.vars.registry.find('aid')))
    }
    await conn.close()
    seen.push(aids)
  }
  assert.deepEqual(seen[0], seen[1])
})
