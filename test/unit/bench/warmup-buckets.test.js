// The warm-up bench's reading of per-transaction logs: buckets from the first transaction's start,
// throughput relative to the steady state, p99 per bucket, and the throughput lost.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parseTransactionLog, warmupProfile } from '../../../bench/lib/warmup-buckets.js'

// A log of `rate(t)` transactions per second for `seconds`, each of latency `lat(t)` us.
function log (seconds, rate, lat) {
  const lines = []
  const epoch = 1_700_000_000
  let n = 0
  for (let t = 0.001; t < seconds; t += 1 / rate(t)) {
    const end = epoch + t
    const s = Math.floor(end)
    lines.push(`0 ${n++} ${lat(t)} 0 ${s} ${Math.round((end - s) * 1e6)}`)
  }
  return lines.join('\n')
}

test('log lines: completed transactions only (skipped and failed have no latency)', () => {
  const txns = parseTransactionLog('0 1 1500 0 1700000000 250000\n0 2 skipped 0 1700000000 300000\n1 1 failed 0 1700000001 5\n\n1 2 800 0 1700000001 10 0 0\n')
  assert.deepEqual(txns, [{ endS: 1700000000.25, latencyUs: 1500 }, { endS: 1700000001.00001, latencyUs: 800 }])
})

test('a runner at half speed for its first half second loses a quarter second of throughput', () => {
  const p = warmupProfile(parseTransactionLog(log(6, (t) => t < 0.5 ? 500 : 1000, (t) => t < 0.5 ? 4000 : 1000)))
  assert.ok(Math.abs(p.steadyTps - 1000) < 5, String(p.steadyTps))
  assert.equal(p.buckets.length, 8)
  assert.ok(Math.abs(p.buckets[0].relTps - 0.5) < 0.02, String(p.buckets[0].relTps))
  assert.ok(Math.abs(p.buckets[1].relTps - 0.5) < 0.02, String(p.buckets[1].relTps))
  assert.ok(Math.abs(p.buckets[4].relTps - 1) < 0.02, String(p.buckets[4].relTps))
  assert.equal(p.buckets[0].p99Ms, 4)
  assert.equal(p.buckets[3].p99Ms, 1)
  assert.equal(p.steadyP99Ms, 1)
  assert.ok(Math.abs(p.lostS - 0.25) < 0.01, String(p.lostS))
})

test('a steady runner loses nothing; too short a run is refused', () => {
  const p = warmupProfile(parseTransactionLog(log(6, () => 2000, () => 500)))
  assert.ok(Math.abs(p.lostS) < 0.01, String(p.lostS))
  assert.throws(() => warmupProfile(parseTransactionLog(log(3, () => 100, () => 500))), /too short/)
  assert.throws(() => warmupProfile([]), /no completed transaction/)
})
