// The sampler with the server's log: checkpoints from its lines, and what the samples alone show.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { StatsSampler } from '../../../../lib/server/stats/sampler.js'
import { formatServerStatsSummary } from '../../../../lib/output/server-summary.js'
import { fakeServer, clock } from './fake-stats-server.js'
const LOG_LINES = readFileSync(new URL('../../../fixtures/server-log/checkpoints.txt', import.meta.url), 'utf8').split('\n')
const ZERO_EPOCH = Date.UTC(2026, 10, 25, 12, 41, 30) / 1000

test('with the server log, checkpoints come from its lines: one running before the window drawn from 0, one inside, one open', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pgload-log-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'server.log')
  writeFileSync(file, LOG_LINES[0] + '\n') // the timed checkpoint began 39.9 s before the run
  const srv = fakeServer()
  const c = clock()
  const sampler = new StatsSampler({ openConnection: async () => srv.conn, now: c.now, settleMs: 0, serverLog: file })
  srv.epoch = ZERO_EPOCH - 0.2
  await sampler.start()
  appendFileSync(file, LOG_LINES.slice(1, 3).join('\n') + '\n')
  c.ms = 1000; srv.epoch = ZERO_EPOCH + 1.004; srv.ckptLsn = 600n; srv.ckptEpoch = ZERO_EPOCH - 40
  await sampler.sample(1)
  appendFileSync(file, LOG_LINES.slice(3).join('\n'))
  c.ms = 11000; srv.epoch = ZERO_EPOCH + 11.02; srv.ckptLsn = 700n; srv.ckptEpoch = ZERO_EPOCH + 10; srv.requested = 1n
  await sampler.sample(11)
  const r = await sampler.finish({ transactions: 0, durationS: 30 })
  assert.equal(r.checkpointSource, 'log')
  // run time 0 is the server's clock minus t at the fastest reading (1.004 - 1): 4 ms off
  assert.deepEqual(r.events, [
    { t: 0, kind: 'checkpoint-start', cause: 'timed', inProgressAtStart: true, beganS: -39.904 },
    { t: 1.041, kind: 'checkpoint-end', cause: 'timed' },
    { t: 10.246, kind: 'checkpoint-start', cause: 'requested' },
    { t: 10.258, kind: 'checkpoint-end', cause: 'requested' },
    { t: 24.996, kind: 'checkpoint-start', cause: 'requested' }
  ])
  assert.match(formatServerStatsSummary(r), /checkpoints: 3 in the run \(timed, in progress when the run started \(began 39\.90 s before\), ended at 1\.04 s; requested, 10\.25 s to 10\.26 s; requested, from 25\.00 s, still running at the end; times from the server log\)/)
})

test('without log_checkpoints, or when the log lacks an end the samples saw, the samples\' markers stay and the reason is listed', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pgload-log-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'server.log')
  writeFileSync(file, '')
  const off = fakeServer({ logCheckpoints: 'off' })
  const s1 = new StatsSampler({ openConnection: async () => off.conn, now: clock().now, settleMs: 0, serverLog: file })
  await s1.start()
  const r1 = await s1.finish({ transactions: 0, durationS: 1 })
  assert.equal(r1.checkpointSource, 'samples')
  assert.ok(r1.missing.includes('checkpoint times from samples only: log_checkpoints is off'), r1.missing.join('; '))

  const srv = fakeServer()
  const c = clock()
  const s2 = new StatsSampler({ openConnection: async () => srv.conn, now: c.now, settleMs: 0, serverLog: file })
  await s2.start()
  c.ms = 1000; srv.epoch += 1; srv.ckptLsn = 900n; srv.ckptEpoch = srv.epoch - 0.5; srv.requested = 1n
  await s2.sample(1)
  const r2 = await s2.finish({ transactions: 0, durationS: 2 })
  assert.equal(r2.checkpointSource, 'samples')
  assert.deepEqual(r2.events.map(e => e.kind), ['checkpoint-start', 'checkpoint-end'])
  assert.ok(r2.missing.some(m => /server log: it shows 0 checkpoint ends where the samples saw 1/.test(m)), r2.missing.join('; '))
})

test('a checkpoint running at the baseline is marked from 0, not from the second sample (no log)', async () => {
  const srv = fakeServer()
  srv.activity = [['checkpointer', null, 'Timeout', 'CheckpointWriteDelay', 'f', '1']]
  const c = clock()
  const sampler = new StatsSampler({ openConnection: async () => srv.conn, now: c.now, settleMs: 0 })
  await sampler.start()
  c.ms = 1000; srv.epoch += 1; srv.buffers += 10n
  await sampler.sample(1)
  c.ms = 2000; srv.epoch += 1; srv.buffers += 10n
  await sampler.sample(2)
  const r = await sampler.finish({ transactions: 0, durationS: 3 })
  assert.equal(r.checkpointSource, 'samples')
  assert.deepEqual(r.events, [{ t: 0, kind: 'checkpoint-start', inProgressAtStart: true }])
  assert.doesNotMatch(formatServerStatsSummary(r), /started at/)
  assert.match(formatServerStatsSummary(r), /checkpoints: 1 in the run \(in progress when the run started, still running at the end; times to the sample\); server counters in the window: 0 timed, 0 requested, 0 done/)
})

test('a reading whose connection is lost in flight: the warning says so, not that a commit\'s outcome is unknown', async () => {
  const srv = fakeServer()
  const c = clock()
  const warnings = []
  const log = { warn: (o, m) => warnings.push(`${m}: ${o.err?.message}`), debug () {}, info () {}, error () {} }
  const sampler = new StatsSampler({ openConnection: async () => srv.conn, now: c.now, log, settleMs: 0 })
  await sampler.start()
  // what the driver throws for a statement sent outside a transaction block and never answered
  srv.conn.simpleQuery = async () => {
    const e = new Error('connection to server lost: read ECONNRESET (a commit was sent and not answered: outcome unknown)')
    Object.assign(e, { code: 'CONNECTION_LOST', outcomeUnknown: true, cause: new Error('read ECONNRESET') })
    throw e
  }
  c.ms = 1000
  assert.equal(await sampler.sample(1), null)
  const r = await sampler.finish({ transactions: 1 })
  const said = [...warnings, ...r.missing].join('\n')
  assert.match(said, /sample: connection to server lost: read ECONNRESET \(a statistics query was not answered\)/)
  assert.doesNotMatch(said, /commit|outcome unknown/)
})
