import { test } from 'node:test'
import assert from 'node:assert/strict'
import { PoolerSampler } from '../../../../lib/server/pooler/sampler.js'
import { POOLS_1_18, STATS_1_18, DATABASES_1_18, CONFIG_1_18 } from './recorded.js'

/** An admin console whose counters grow by `step` transactions at every SHOW STATS; answers may be held back. */
function fakeConsole ({ step = 1000 } = {}) {
  let transactions = 0
  const held = []
  const console = {
    queries: [],
    hold: false,
    release () { for (const r of held.splice(0)) r() },
    async simpleQuery (sql) {
      console.queries.push(sql)
      if (console.hold) await new Promise((resolve) => held.push(resolve))
      if (sql === 'SHOW POOLS') return POOLS_1_18
      if (sql === 'SHOW DATABASES') return DATABASES_1_18
      if (sql === 'SHOW CONFIG') return CONFIG_1_18
      if (sql === 'SHOW STATS') {
        transactions += step
        return { fields: STATS_1_18.fields, rows: [STATS_1_18.rows[1].map((v, i) => i === 1 ? String(transactions) : i === 7 ? String(transactions * 4000) : v)] }
      }
      throw new Error(`unexpected ${sql}`)
    },
    async close () { console.closed = true },
    destroy () { console.destroyed = true }
  }
  return console
}

const settle = () => new Promise((resolve) => setImmediate(resolve))

test('one entry per interval read, counted from the opening of the measured window', async () => {
  const conn = fakeConsole()
  let ms = 0
  const sampler = new PoolerSampler({ conn, version: '1.18.0', found: 'detected', pool: { database: 'postgres', user: 'postgres' }, now: () => ms })
  await sampler.start()
  assert.deepEqual(sampler.settings, { poolSize: 2, poolMode: 'transaction', maxPreparedStatements: null })
  ms = 500
  sampler.rebase()
  await settle()
  for (const t of [1, 2]) {
    ms += 1000
    sampler.sample(t)
    await settle()
  }
  const section = await sampler.finish()
  assert.equal(section.series.length, 2)
  assert.deepEqual(section.series.map((e) => [e.t, e.lengthS, e.tps, e.clientsWaiting, e.serversActive, e.waitMs]), [[1, 1, 1000, 7, 2, 4], [2, 1, 1000, 7, 2, 4]])
  assert.equal(section.poolMode, 'transaction')
  assert.equal(section.poolSize, 2)
  assert.equal(section.maxClientsWaiting, 7)
  assert.equal(section.waitingIntervals, 2)
  assert.equal(section.longestWaitMs, 17.579)
  await sampler.close()
  assert.equal(conn.closed, true)
})

test('readings never overlap: an interval that closes during one is left to the next, and finish waits for it', async () => {
  const conn = fakeConsole()
  let ms = 0
  const sampler = new PoolerSampler({ conn, version: '1.18.0', found: 'named', pool: { database: 'postgres', user: 'postgres' }, now: () => ms })
  await sampler.start()
  conn.hold = true
  ms = 1000
  sampler.sample(1)
  ms = 2000
  sampler.sample(2) // the reading of t = 1 is still on its way
  await settle()
  assert.equal(conn.queries.filter((q) => q === 'SHOW POOLS').length, 2, 'the start\'s and t = 1\'s, not t = 2\'s')
  const finishing = sampler.finish()
  conn.hold = false
  conn.release()
  await settle()
  conn.release()
  const section = await finishing
  assert.deepEqual(section.series.map((e) => e.t), [1])
  assert.equal(section.found, 'named')
})

test('a console that stops answering: finish gives what was read, and close does not wait on it', async () => {
  const conn = fakeConsole()
  let ms = 0
  const sampler = new PoolerSampler({ conn, version: '1.18.0', found: 'detected', pool: { database: 'postgres', user: 'postgres' }, now: () => ms, finishWaitMs: 10 })
  await sampler.start()
  ms = 1000
  sampler.sample(1)
  await settle()
  conn.hold = true
  ms = 2000
  sampler.sample(2) // never answered
  const section = await sampler.finish()
  assert.deepEqual(section.series.map((e) => e.t), [1])
  await sampler.close()
  assert.equal(conn.destroyed, true)
  assert.equal(conn.closed, undefined)
})
