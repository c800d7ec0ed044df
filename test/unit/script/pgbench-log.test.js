import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PgbenchLogWriter } from '../../../lib/script/index.js'
import { Prng } from '../../../lib/random/prng.js'
import { makeRun } from './fake.js'

const T0 = 1700000000 * 1e6
const tx = (status, latencyUs, endEpochUs, extra = {}) => ({ status, latencyUs, lagUs: 0, tries: 1, sqlstate: null, endEpochUs, ...extra })

test('per-transaction lines: client, number, latency or status, script, epoch s and us, lag, retries', () => {
  const lines = []
  const w = new PgbenchLogWriter({ write: (l) => lines.push(l) })
  w.transaction(0, 1, 0, tx('ok', 1234.5, T0 + 42))
  w.transaction(1, 2, 1, tx('failed', 0, T0 + 1000000, { sqlstate: '40001' }))
  w.transaction(1, 3, 1, tx('skipped', 0, T0 + 1000001))
  assert.deepEqual(lines, ['0 1 1234 0 1700000000 42\n', '1 2 failed 1 1700000001 0\n', '1 3 skipped 1 1700000001 1\n'])

  const detailed = []
  const d = new PgbenchLogWriter({ write: (l) => detailed.push(l), throttled: true, maxTries: 3, failuresDetailed: true })
  d.transaction(0, 1, 0, tx('failed', 0, T0, { sqlstate: '40P01', tries: 3, lagUs: 7 }))
  d.transaction(0, 2, 0, tx('ok', 10, T0, { lagUs: 2.5, tries: 2 }))
  assert.deepEqual(detailed, ['0 1 deadlock 0 1700000000 0 7 2\n', '0 2 10 0 1700000000 0 2 1\n'])
})

test('aggregated lines: 15 fields per whole interval, empty intervals written, the last one not', () => {
  const lines = []
  const w = new PgbenchLogWriter({ write: (l) => lines.push(l), aggregateIntervalS: 1, maxTries: 2, failuresDetailed: true, latencyLimited: true })
  w.transaction(0, 1, 0, tx('ok', 100, T0 + 300000))
  w.transaction(0, 2, 0, tx('ok', 300, T0 + 600000, { tries: 2 }))
  w.transaction(0, 3, 0, tx('failed', 0, T0 + 700000, { sqlstate: '40001', tries: 2 }))
  w.transaction(0, 4, 0, tx('skipped', 0, T0 + 800000))
  w.transaction(0, 5, 0, tx('ok', 50, T0 + 3100000))
  w.close()
  assert.deepEqual(lines, [
    '1700000000 2 400 100000 100 300 0 0 0 0 1 2 2 1 0\n',
    '1700000001 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n',
    '1700000002 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n'
  ])
})

test('sampling draws from the sample generator; the file is PREFIX.PID', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pgload-log-'))
  try {
    const w = new PgbenchLogWriter({ prefix: join(dir, 'pl'), pid: 123, samplingRate: 0.5, sample: Prng.fromSeed(1) })
    for (let i = 1; i <= 1000; i++) w.transaction(0, i, 0, tx('ok', 5, T0))
    w.close()
    const n = readFileSync(join(dir, 'pl.123'), 'utf8').trim().split('\n').length
    assert.ok(n > 430 && n < 570, String(n))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('the workload feeds the log with per-client transaction numbers and script indexes', async () => {
  const lines = []
  const { workload, ctx } = makeRun([{ name: 'a.sql', text: 'select 1;' }, { name: 'b.sql', text: 'select 2;' }],
    { pgbenchLog: { write: (l) => lines.push(l) }, terminalId: 0 })
  workload.onTransactionEnd(ctx, tx('ok', 10, T0, { type: 'b.sql' }))
  workload.onTransactionEnd(ctx, tx('ok', 20, T0, { type: 'a.sql' }))
  assert.deepEqual(lines, ['0 1 10 1 1700000000 0\n', '0 2 20 0 1700000000 0\n'])
})

test('pgbench\'s own log-file checks: sampled lines of 2 clients x 50, and 10 numbered lines', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pgload-log-'))
  try {
    for (const [clients, txns, rate, name] of [[2, 50, 0.5, 'l2'], [1, 10, undefined, 'l3']]) {
      const { workload, conn } = makeRun([{ name: 'select-only', text: '\\set aid random(1, 100000)\nselect :aid;' }],
        { clients, pgbenchLog: { prefix: join(dir, name), pid: 1, samplingRate: rate } })
      for (let id = 0; id < clients; id++) {
        const ctx = { terminalId: id, random: workload.seeds.clientPrngs[id], state: workload.createTerminalState(id), conn, nowUs: () => 0, sleepUs: async () => {} }
        for (let t = 0; t < txns; t++) {
          await workload.transactions[0].run(ctx)
          workload.onTransactionEnd(ctx, tx('ok', 800 + t, Date.now() * 1000, { type: 'select-only' }))
        }
      }
      await workload.afterRun()
      const lines = readFileSync(join(dir, `${name}.1`), 'utf8').trimEnd().split('\n')
      if (rate) {
        assert.ok(lines.length >= 8 && lines.length <= 92, String(lines.length))
        for (const l of lines) assert.match(l, /^[01] \d{1,2} \d+ \d \d+ \d+$/)
      } else {
        assert.equal(lines.length, 10)
        lines.forEach((l, i) => assert.match(l, new RegExp(`^0 ${i + 1} \\d+ 0 \\d+ \\d+$`)))
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
