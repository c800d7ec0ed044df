import { test } from 'node:test'
import assert from 'node:assert/strict'
import { StatsSampler, summarizeActivity } from '../../../../lib/server/stats/sampler.js'
import { fakeServer, clock } from './fake-stats-server.js'

test('rates per second leave out the sampler\'s own transactions; deltas over the window', async () => {
  const srv = fakeServer()
  const c = clock()
  const sampler = new StatsSampler({ openConnection: async () => srv.conn, tables: ['acc', 'gone'], now: c.now, settleMs: 0 })
  assert.equal(await sampler.start(), true)
  c.ms = 1000
  srv.commits += 500n; srv.reads += 10n; srv.hits += 990n; srv.wal += 250_000n; srv.epoch += 1; srv.ioReads += 10n
  const e1 = await sampler.sample(1)
  assert.deepEqual(e1.ioPerS, { 'client backend': { reads: 10, writes: 0, extends: 0, fsyncs: 0 } })
  assert.equal(e1.xactCommitPerS, 500)
  assert.equal(e1.walBytesPerS, 250000)
  assert.equal(e1.blksReadPerS, 10)
  assert.equal(e1.blksHitPerS, 990)
  assert.deepEqual(e1.backends, { active: 4, idle: 2 })
  assert.deepEqual(e1.waitEvents, { CPU: 3, Lock: 1 })
  assert.equal(e1.lockWaits, 1)
  c.ms = 2500
  srv.commits += 300n; srv.wal += 30_000n; srv.idx += 1600n
  const e2 = await sampler.sample(2)
  assert.equal(e2.xactCommitPerS, 200)
  assert.equal(e2.walBytesPerS, 20000)
  const r = await sampler.finish({ transactions: 800 })
  assert.equal(r.deltas.xactCommit, 800)
  assert.equal(r.deltas.walBytes, 280000)
  assert.equal(r.deltas.blksRead, 10)
  assert.equal(r.deltas.cacheHitRatio, 0.99)
  assert.equal(r.perTransaction.walBytes, 350)
  assert.equal(r.perTransaction.blocks, 1.25)
  assert.equal(r.tables.acc.idxScan, 1600)
  assert.deepEqual(r.io, [{ backendType: 'client backend', object: 'relation', context: 'normal', reads: 10, writes: 0, extends: 0, fsyncs: null }])
  assert.equal(r.tables.acc.nDeadTup, 3)
  assert.equal(r.tables.acc.sizeBytes, 8192)
  assert.equal(r.tables.gone.sizeBytes, null)
  assert.equal(r.series.length, 2)
  assert.deepEqual(r.statements.available, false)
  assert.match(r.statements.reason, /not installed/)
  assert.ok(r.missing.includes('table gone: not found'))
  assert.equal(r.sampler.samples, 2)
  assert.equal(srv.closed, true)
})

test('finish waits for the run\'s backends to exit: their last commits are in the deltas', async () => {
  const srv = fakeServer()
  const sampler = new StatsSampler({ openConnection: async () => srv.conn, settleMs: 0 })
  assert.equal(await sampler.start(), true)
  srv.commits += 100n
  // two backends still exiting; as they go they publish 40 more commits
  srv.alive = new Set([4242, 4243])
  setTimeout(() => { srv.alive.clear(); srv.commits += 40n }, 120)
  const t0 = performance.now()
  const r = await sampler.finish({ transactions: 140, backendPids: [4242, 4243, 0] })
  assert.ok(performance.now() - t0 >= 100, 'it waited')
  assert.equal(r.deltas.xactCommit, 140)
  assert.deepEqual(r.missing, [])
})

test('a failed wait for the backends still gives the final reading', async () => {
  const srv = fakeServer()
  const sampler = new StatsSampler({ openConnection: async () => srv.conn, settleMs: 0 })
  assert.equal(await sampler.start(), true)
  srv.commits += 30n
  srv.failNext = { match: 'WHERE pid IN', message: 'canceling statement due to statement timeout', code: '57014', times: 1 }
  const r = await sampler.finish({ transactions: 30, backendPids: [5] })
  assert.equal(r.deltas.xactCommit, 30)
  assert.ok(r.missing.some(m => /waiting for the run's backends to exit: canceling statement/.test(m)), r.missing.join('; '))
})

test('finish waits for exiting backends only so long, and says so', async () => {
  const srv = fakeServer()
  const sampler = new StatsSampler({ openConnection: async () => srv.conn, settleMs: 0, exitWaitMs: 150 })
  assert.equal(await sampler.start(), true)
  srv.alive = new Set([7, 8])
  const t0 = performance.now()
  const r = await sampler.finish({ transactions: 0, backendPids: [7, 8, 9] })
  const waited = performance.now() - t0
  assert.ok(waited >= 140 && waited < 2000, `waited ${waited} ms`)
  assert.ok(r.missing.some(m => /2 of the run's 3 backends had not exited 0\.15 s after the run/.test(m)), r.missing.join('; '))
  assert.equal(typeof r.deltas.xactCommit, 'number')
})

test('a sample is skipped while the previous one is still running', async () => {
  const srv = fakeServer()
  const sampler = new StatsSampler({ openConnection: async () => srv.conn, now: clock().now, settleMs: 0 })
  await sampler.start()
  let release
  srv.hold = new Promise(resolve => { release = resolve })
  const first = sampler.sample(1)
  assert.equal(await sampler.sample(2), null)
  srv.hold = null
  release()
  assert.notEqual(await first, null)
  const r = await sampler.finish({ transactions: 0 })
  assert.equal(r.sampler.skipped, 1)
  assert.equal(r.series.length, 1)
  assert.deepEqual(r.series.map(e => e.t), [1])
})

test('sample never throws: a lost connection is logged, listed in missing, and retried later', async () => {
  const srv = fakeServer()
  const c = clock()
  const warnings = []
  const log = { warn: (o, m) => warnings.push(m), debug () {}, info () {}, error () {} }
  const sampler = new StatsSampler({ openConnection: async () => srv.conn, now: c.now, log, settleMs: 0 })
  await sampler.start()
  srv.broken = true
  c.ms = 1000
  assert.equal(await sampler.sample(1), null)
  c.ms = 2000
  assert.equal(await sampler.sample(2), null) // too soon to reconnect
  srv.broken = false
  c.ms = 7000
  const e = await sampler.sample(7)
  assert.notEqual(e, null)
  const r = await sampler.finish({ transactions: 1 })
  assert.equal(r.sampler.failed, 2)
  assert.equal(warnings.length, 1, 'one warning for a repeated failure')
  assert.ok(r.missing.some(m => /sample: sampler connection lost \(2 times\)/.test(m)), r.missing.join('; '))
})

test('a view the role may not read is left out and listed; the rest is still sampled', async () => {
  const srv = fakeServer({ refuse: ['pg_control_checkpoint'], superuser: 'f' })
  const c = clock()
  const sampler = new StatsSampler({ openConnection: async () => srv.conn, now: c.now, settleMs: 0 })
  assert.equal(await sampler.start(), true)
  c.ms = 1000
  srv.commits += 10n
  const e = await sampler.sample(1)
  assert.equal(e.xactCommitPerS, 10)
  const r = await sampler.finish({ transactions: 10 })
  assert.ok(r.missing.some(m => m.startsWith('control: permission denied')), r.missing.join('; '))
  assert.ok(r.missing.some(m => /pg_read_all_stats/.test(m)))
  assert.equal(r.deltas.xactCommit, 10)
})

test('start never throws when the server cannot be reached', async () => {
  const sampler = new StatsSampler({ openConnection: async () => { throw new Error('ECONNREFUSED 127.0.0.1:1') } })
  assert.equal(await sampler.start(), false)
  assert.equal(await sampler.sample(1), null)
  const r = await sampler.finish({ transactions: 5 })
  assert.equal(r.deltas.xactCommit, null)
  assert.ok(r.missing.some(m => /ECONNREFUSED/.test(m)))
})

test('measuredFrom: warm-up samples are marked and the deltas count from the first measured sample', async () => {
  const srv = fakeServer({ versionNum: '150004' })
  const c = clock()
  const sampler = new StatsSampler({ openConnection: async () => srv.conn, now: c.now, settleMs: 0 })
  await sampler.start({ measuredFrom: 2 })
  c.ms = 1000; srv.commits += 1000n
  assert.equal((await sampler.sample(1)).warmup, true)
  c.ms = 2000; srv.commits += 1000n
  const e2 = await sampler.sample(2)
  assert.equal(e2.warmup, undefined)
  c.ms = 3000; srv.commits += 70n; srv.wal += 700n
  await sampler.sample(3)
  const r = await sampler.finish({ transactions: 70 })
  assert.equal(r.io, null, 'PostgreSQL 15 has no pg_stat_io')
  assert.ok(r.missing.includes('io: pg_stat_io needs PostgreSQL 16'))
  assert.equal(r.deltas.xactCommit, 70)
  assert.equal(r.deltas.walBytes, 700)
  assert.equal(r.perTransaction.walBytes, 10)
})

test('resetBaseline makes the deltas count from the reset', async () => {
  const srv = fakeServer()
  const sampler = new StatsSampler({ openConnection: async () => srv.conn, now: clock().now, settleMs: 0 })
  await sampler.start()
  srv.commits += 5000n
  await sampler.resetBaseline()
  srv.commits += 42n
  const r = await sampler.finish({ transactions: 42 })
  assert.equal(r.deltas.xactCommit, 42)
})

test('a checkpoint between two samples becomes start and end markers', async () => {
  const srv = fakeServer()
  const c = clock()
  const sampler = new StatsSampler({ openConnection: async () => srv.conn, now: c.now, settleMs: 0 })
  await sampler.start()
  c.ms = 1000; await sampler.sample(1)
  c.ms = 2000; srv.epoch = 300; srv.ckptEpoch = 299.5; srv.ckptLsn = 900n; srv.requested = 1n; srv.buffers = 12n
  await sampler.sample(2)
  const r = await sampler.finish({ transactions: 0 })
  assert.deepEqual(r.events, [
    { t: 1.5, kind: 'checkpoint-start', inferred: true, cause: 'requested' },
    { t: 2, kind: 'checkpoint-end', cause: 'requested' }
  ])
  assert.equal(r.deltas.checkpointsRequested, 1)
  assert.equal(r.deltas.buffersWritten, 12)
})

test('summarizeActivity: hidden sessions, autovacuum workers and a busy checkpointer', () => {
  const a = summarizeActivity([
    [null, null, null, null, 't', '4'],
    [null, null, null, null, 'f', '9'],
    ['autovacuum worker', 'active', null, null, 't', '1'],
    ['checkpointer', null, 'Timeout', 'CheckpointWriteDelay', 'f', '1'],
    ['client backend', 'idle in transaction', 'Client', 'ClientRead', 't', '2'],
    ['client backend', 'active', 'LWLock', 'WALWrite', 't', '3'],
    ['client backend', 'active', null, null, 'f', '7']
  ])
  assert.deepEqual(a.backends, { hidden: 4, 'idle in transaction': 2, active: 3 })
  // idle in a transaction, a backend waits for pgload (ClientRead), not for the server
  assert.deepEqual(a.waitEvents, { LWLock: 3 })
  assert.equal(a.autovacuumWorkers, 1)
  assert.equal(a.checkpointer, 'busy')
  assert.equal(a.lockWaits, 0)
})

test('measuredFrom 0 keeps the start baseline; a warm-up longer than the run is reported', async () => {
  const srv = fakeServer()
  const c = clock()
  const a = new StatsSampler({ openConnection: async () => srv.conn, now: c.now, settleMs: 0 })
  await a.start({ measuredFrom: 0 })
  c.ms = 1000; srv.commits += 30n
  assert.equal((await a.sample(1)).warmup, undefined)
  assert.equal((await a.finish({ transactions: 30 })).deltas.xactCommit, 30)

  const srv2 = fakeServer()
  const b = new StatsSampler({ openConnection: async () => srv2.conn, now: c.now, settleMs: 0 })
  await b.start({ measuredFrom: 10 })
  srv2.commits += 5n
  await b.sample(1)
  const r = await b.finish({ transactions: 5 })
  assert.equal(r.deltas.xactCommit, 5)
  assert.ok(r.missing.some(m => /measured window \(from t=10s\) never started/.test(m)), r.missing.join('; '))
})

test('during the run a statement that times out is tried again; one refused for good is dropped', async () => {
  const srv = fakeServer()
  const c = clock()
  const sampler = new StatsSampler({ openConnection: async () => srv.conn, now: c.now, settleMs: 0 })
  await sampler.start()
  // batch + the single retry both time out: this reading has no WAL position
  srv.failNext = { match: 'pg_current_wal_lsn', code: '57014', message: 'canceling statement due to statement timeout', times: 2 }
  c.ms = 1000; srv.wal += 100n
  const e1 = await sampler.sample(1)
  assert.equal(e1.walBytesPerS, null)
  assert.equal(e1.xactCommitPerS, 0)
  c.ms = 2000; srv.wal += 100n
  assert.equal((await sampler.sample(2)).walBytesPerS, null, 'no rate against a reading without the position')
  srv.failNext = { match: 'pg_control_checkpoint', code: '42501', message: 'permission denied for function pg_control_checkpoint', times: 2 }
  c.ms = 3000; srv.wal += 50n
  assert.equal((await sampler.sample(3)).walBytesPerS, 50, 'the WAL position is read again')
  srv.failNext = null
  const r = await sampler.finish({ transactions: 0 })
  assert.ok(r.missing.includes('walLsn: canceling statement due to statement timeout'), r.missing.join('; '))
  assert.ok(r.missing.includes('control: permission denied for function pg_control_checkpoint'))
  assert.equal(sampler.reader.queries.walLsn !== undefined, true)
  assert.equal(sampler.reader.queries.control, undefined)
  assert.equal(r.deltas.walBytes, 250)
})

// Checkpoint times from the server log: the fixture's lines, 12:41:30 UTC being run time 0.
