// The wait sampler with a fake connection: rows joined to what each connection's slot said as the
// read was sent and as its reply came, transactions' latencies taken once they end, a tick due
// while the last runs skipped and counted, hidden rows counted apart.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ActivitySlots } from '../../../lib/engine/activity-slots.js'
import { WaitSampler } from '../../../lib/waits/wait-sampler.js'
import { latencyBucket, NO_LATENCY, NO_STATEMENT } from '../../../lib/waits/wait-tally.js'

/**
 * A connection whose reads answer what `rows` returns, after `during` ran (the world moving on
 * meanwhile); it checks that each read comes after a cleared snapshot in an open transaction.
 */
function fakeConnection () {
  const fake = {
    rows: () => [],
    during: () => {},
    reads: [],
    simple: [],
    cleared: 0,
    async prepare () {},
    async simpleQuery (text) { fake.simple.push(text); return { rows: [['f']] } },
    async execute (stmt, values) {
      if (stmt.text.includes('pg_stat_clear_snapshot')) { fake.cleared++; return { rows: [['']] } }
      assert.equal(fake.cleared, fake.reads.length + 1, 'a read follows a cleared snapshot')
      assert.ok(fake.simple.includes('BEGIN'))
      fake.reads.push(values[0])
      await null
      fake.during()
      return { rows: fake.rows() }
    },
    async close () { fake.closed = true }
  }
  return fake
}

async function setUp (pids = [101, 102]) {
  const activity = new ActivitySlots(4)
  const conns = pids.map((pid) => ({ backendPid: pid }))
  for (const c of conns) activity.bind(c)
  const conn = fakeConnection()
  const sampler = new WaitSampler({ openConnection: async () => conn, activity, hz: 50, typeCount: 2 })
  await sampler.start()
  return { activity, conns, conn, sampler }
}

const bucketsOf = (sampler, type, event) => [...sampler.tally.types[type].events.get(event) ?? []]

test('a running transaction\'s samples wait for its end and count with its latency', async () => {
  const { activity, conns, conn, sampler } = await setUp()
  const [a, b] = conns
  activity.begin(a.activityBase, 1)
  activity.ints[a.activityBase + 2] = 3 // statement 3
  conn.rows = () => [['101', 'active', 'Lock', 'transactionid'], ['102', 'idle', 'Client', 'ClientRead']]
  await sampler.tick()
  assert.deepEqual(conn.reads, ['{101,102}'])
  assert.equal(sampler.tally.idle, 1, 'b is between transactions')
  assert.equal(sampler.tally.types[1].samples, 0, 'held until the transaction ends')
  const seq = activity.end(a.activityBase)
  activity.latency(a.activityBase, seq, 30000)
  activity.begin(b.activityBase, 0)
  conn.rows = () => [['101', 'idle', 'Client', 'ClientRead'], ['102', 'active', null, null]]
  await sampler.tick()
  assert.deepEqual(bucketsOf(sampler, 1, 'Lock:transactionid'), [[latencyBucket(30000), 1]])
  assert.deepEqual([...sampler.tally.types[1].statements.get(3)], [['Lock:transactionid', 1]])
  assert.equal(sampler.tally.idle, 2)
  // b's transaction fails: its sample counts without a latency
  activity.end(b.activityBase)
  const { tally } = await sampler.finish()
  assert.deepEqual(bucketsOf(sampler, 0, 'CPU'), [[NO_LATENCY, 1]])
  assert.equal(tally.total, 4)
  // the reads were one transaction: one BEGIN, one COMMIT
  assert.deepEqual(conn.simple.filter((q) => /^(BEGIN|COMMIT|ROLLBACK)$/.test(q)), ['BEGIN', 'COMMIT'])
  assert.equal(conn.closed, true)
})

test('a connection that moves on while read: statement unknown, or not attributed when its backend was idle', async () => {
  const { activity, conns, conn, sampler } = await setUp([101])
  const [a] = conns
  activity.begin(a.activityBase, 0)
  activity.ints[a.activityBase + 2] = 1
  // the statement changes during the read: the transaction is known, the statement not
  conn.during = () => { activity.ints[a.activityBase + 2] = 2 }
  conn.rows = () => [['101', 'active', null, null]]
  await sampler.tick()
  // the transaction ends and another of the same type begins during the read
  conn.during = () => { activity.end(a.activityBase); activity.begin(a.activityBase, 0) }
  await sampler.tick()
  conn.rows = () => [['101', 'idle', 'Client', 'ClientRead']]
  await sampler.tick()
  await sampler.finish()
  const t = sampler.tally.types[0]
  assert.deepEqual([...t.statements.keys()], [NO_STATEMENT])
  assert.equal(t.samples, 2, 'the active rows count for the type')
  assert.equal(sampler.tally.moved, 1, 'the idle one was possibly between transactions')
})

test('a backend idle outside any transaction while the client\'s transaction runs is outside the server', async () => {
  const { activity, conns, conn, sampler } = await setUp([101])
  activity.begin(conns[0].activityBase, 0)
  conn.rows = () => [['101', 'idle', 'Client', 'ClientRead']]
  await sampler.tick()
  await sampler.finish()
  assert.equal(sampler.tally.outside, 1)
  assert.equal(sampler.tally.types[0].samples, 0)
})

test('a tick due while the last still runs is skipped and counted', async () => {
  const { conn, sampler } = await setUp([101])
  let release
  conn.execute = (stmt) => stmt.text.includes('pg_stat_clear_snapshot') ? Promise.resolve({ rows: [] }) : new Promise((resolve) => { release = () => resolve({ rows: [] }) })
  const first = sampler.tick()
  assert.equal(sampler.tick(), null)
  await new Promise(setImmediate)
  assert.equal(sampler.tick(), null)
  release()
  await first
  assert.deepEqual(sampler.ticks, { done: 1, skipped: 2, failed: 0 })
})

test('hidden rows and vanished backends are counted apart; a failed read is counted', async () => {
  const { activity, conns, conn, sampler } = await setUp()
  activity.begin(conns[0].activityBase, 0)
  conn.rows = () => [['101', null, null, null]]
  await sampler.tick()
  conn.execute = async () => { throw new Error('canceling statement') }
  await sampler.tick()
  assert.equal(conn.simple.at(-1), 'ROLLBACK', 'the failed transaction is ended; the next read begins another')
  const { tally, error } = await sampler.finish()
  assert.equal(tally.hidden, 1)
  assert.equal(tally.gone, 1)
  assert.deepEqual(sampler.ticks, { done: 1, skipped: 0, failed: 1 })
  assert.match(error.message, /canceling/)
})

test('a connection replaced: the pids read follow the slots', async () => {
  const { activity, conns, conn, sampler } = await setUp()
  await sampler.tick()
  activity.unbind(conns[0])
  activity.bind({ backendPid: 205 })
  await sampler.tick()
  assert.deepEqual(conn.reads, ['{101,102}', '{205,102}'], 'the new connection took the slot freed')
  await sampler.finish()
})

test('pg_wait_sampling installed: detected and said; the source stays pg_stat_activity', async () => {
  const activity = new ActivitySlots(1)
  const conn = fakeConnection()
  conn.simpleQuery = async (text) => ({ rows: [[/pg_wait_sampling/.test(text) ? 't' : '']] })
  const sampler = new WaitSampler({ openConnection: async () => conn, activity, hz: 50, typeCount: 1 })
  await sampler.start()
  assert.equal(sampler.pgWaitSampling, true)
  await sampler.finish()
})

test('no row ever has a connection\'s pid (a pooler\'s keys): sampling stops and its transaction ends', async () => {
  const { conn, sampler } = await setUp([101, 102])
  conn.rows = () => []
  sampler.begin()
  for (let i = 0; i < 5; i++) await sampler.tick()
  assert.equal(sampler.unmatched, true)
  assert.equal(sampler._timer, null)
  assert.equal(conn.simple.at(-1), 'COMMIT')
  await sampler.finish()
})

test('reads that always fail: sampling stops after a few', async () => {
  const { conn, sampler } = await setUp([101])
  conn.execute = async () => { throw new Error('permission denied for view pg_stat_activity') }
  sampler.begin()
  for (let i = 0; i < 5; i++) await sampler.tick()
  assert.equal(sampler._timer, null)
  const { error } = await sampler.finish()
  assert.match(error.message, /permission denied/)
})

test('a few reads without rows after some had them: sampling goes on', async () => {
  const { conn, sampler } = await setUp([101])
  conn.rows = () => [['101', 'idle', 'Client', 'ClientRead']]
  await sampler.tick()
  conn.rows = () => []
  for (let i = 0; i < 6; i++) await sampler.tick()
  assert.equal(sampler.unmatched, false)
  await sampler.finish()
})

test('a lost connection (a restart, a failover) is opened again a moment later; the reads meanwhile are counted as failed', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] })
  const activity = new ActivitySlots(4)
  activity.bind({ backendPid: 101 })
  const first = fakeConnection()
  const second = fakeConnection()
  const opened = [first, second]
  const sampler = new WaitSampler({ openConnection: async () => opened.shift(), activity, hz: 50, typeCount: 2 })
  await sampler.start()
  first.execute = async () => { first.broken = true; throw new Error('Connection terminated unexpectedly') }
  await sampler.tick()
  assert.equal(first.closed, true)
  assert.equal(sampler.conn, null)
  await sampler.tick() // no connection yet
  assert.deepEqual(sampler.ticks, { done: 0, skipped: 0, failed: 2 })
  t.mock.timers.tick(1000)
  for (let i = 0; i < 10 && sampler.conn === null; i++) await null
  assert.equal(sampler.conn, second, 'opened again')
  second.rows = () => [['101', 'idle', 'Client', 'ClientRead']]
  await sampler.tick()
  assert.equal(sampler.ticks.done, 1)
  await sampler.finish()
})

test('keys that are no server pids at all (a pooler\'s negative ones): sampling stops as for unmatched ones', async () => {
  const { conn, sampler, conns } = await setUp([-1234567, -89])
  assert.ok(conns.every((c) => c.activityBase >= 0), 'each connection has its slot, marked as no backend')
  conn.rows = () => []
  sampler.begin()
  for (let i = 0; i < 5; i++) await sampler.tick()
  assert.deepEqual(conn.reads, Array(5).fill('{}'), 'no pid was asked for')
  assert.equal(sampler.unmatched, true)
  await sampler.finish()
})
