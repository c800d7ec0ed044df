// The summary's waits block: per type the top three events with their share and the time outside
// the server; the slowest transactions' when they waited on something else; one line when absent.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { formatWaitsSummary } from '../../../lib/output/waits-summary.js'

const ev = (event, samples, share) => ({ event, samples, share })

test('per type: the top three events and the time outside the server', () => {
  const text = formatWaitsSummary({
    available: true,
    source: 'pg_stat_activity',
    pgWaitSampling: false,
    hz: 50,
    ticks: { done: 1500, skipped: 3, failed: 0 },
    types: {
      'tpcb-like': {
        samples: 900,
        events: [ev('Lock:transactionid', 450, 0.5), ev('CPU', 270, 0.3), ev('Client:ClientRead', 90, 0.1), ev('IO:WALSync', 90, 0.1)],
        serverMs: 1.2,
        outsideMs: 0.3,
        outsideMsStderr: 0.05,
        slow: { aboveMs: 12, samples: 20, events: [ev('IO:WALSync', 15, 0.75), ev('CPU', 5, 0.25)] }
      }
    }
  })
  assert.equal(text, [
    'waits: sampled 1,500 times at 50 Hz from pg_stat_activity (3 skipped: the previous read was still running)',
    '  tpcb-like: Lock:transactionid 50%, CPU 30%, Client:ClientRead 10%; outside the server 0.300 ± 0.050 ms of 1.500 ms (900 samples)',
    '    slowest 1% (above 12.0 ms): IO:WALSync 75%, CPU 25%'
  ].join('\n'))
})

test('not sampled: one line with the reason; no section: nothing', () => {
  assert.equal(formatWaitsSummary({ available: false, reason: 'the sampler could not start: permission denied' }), 'waits: not sampled: the sampler could not start: permission denied')
  assert.equal(formatWaitsSummary(undefined), '')
})

test('pg_wait_sampling installed: the headline says its history was not read', () => {
  const text = formatWaitsSummary({ available: true, source: 'pg_stat_activity', pgWaitSampling: true, hz: 20, ticks: { done: 10, skipped: 0, failed: 0 }, types: {} })
  assert.equal(text, 'waits: sampled 10 times at 20 Hz from pg_stat_activity; pg_wait_sampling is installed, its history is not read')
})

test('an estimate below zero prints ~0, and a type with few samples says so', () => {
  const text = formatWaitsSummary({
    available: true,
    source: 'pg_stat_activity',
    pgWaitSampling: false,
    hz: 50,
    ticks: { done: 500, skipped: 0, failed: 0 },
    types: {
      q2: { samples: 1, events: [ev('CPU', 1, 1)], serverMs: 40, outsideMs: -9.38, outsideMsStderr: 54.744 }
    }
  })
  assert.equal(text, [
    'waits: sampled 500 times at 50 Hz from pg_stat_activity',
    '  q2: CPU 100%; outside the server ~0 ± 54.744 ms of 30.620 ms (1 samples)',
    '    only 1 samples: too few to settle these shares or the time outside the server'
  ].join('\n'))
  assert.doesNotMatch(text, /-9\.380/)
})

test('a latency spike that lines up with a lock pile-up ends the block with one line; a calm run has none', () => {
  const series = [1, 2, 3, 4].map((t) => ({ t, lengthS: 1, ticks: 50, samples: t === 3 ? { CPU: 38, Lock: 62 } : { CPU: 50 }, sessions: {}, events: t === 3 ? { 'Lock:transactionid': 62 } : {} }))
  const waits = { available: true, source: 'pg_stat_activity', pgWaitSampling: false, hz: 50, ticks: { done: 200, skipped: 0, failed: 0 }, types: {}, series }
  const doc = (p99s) => ({ waits, intervals: p99s.map((p99, i) => ({ t: i + 1, lengthS: 1, latencyMs: { p99 } })) })
  const text = formatWaitsSummary(waits, doc([12, 11, 48, 12]))
  assert.equal(text.split('\n').at(-1), '  latency spike at 2-3 s (p99 48 ms, 4.0x the median interval) with a lock pile-up; Lock:transactionid 62 % of sampled sessions')
  assert.equal(formatWaitsSummary(waits, doc([12, 11, 13, 12])), 'waits: sampled 200 times at 50 Hz from pg_stat_activity')
})
