// The run's progress line: terminals by state and the workload's rolling figure on paced runs,
// active connections otherwise, and lines marked as ramp-up before the measured window.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { EventEmitter } from 'node:events'
import { attachProgress } from '../../../lib/output/run-progress.js'

const interval = (n) => ({ count: { 'new-order': n }, failed: 0, skipped: 0, lagMs: { max: 0.5 }, histograms: {} })

// what the progress line reads of the run handle (lib/engine/run-handle.js)
function fakeRun ({ paced, progressText = (sinceStartS) => `tpmC 126.0 (last ${Math.min(60, sinceStartS)} s)` }) {
  const run = new EventEmitter()
  run.settings = { paced, warmupUs: 40e6 }
  run.progressText = (sinceStartS) => progressText ? progressText(sinceStartS) : null
  return run
}
const TERMINALS = { total: 100, keying: 45, thinking: 53, running: 1, waiting: 1, finished: 0 }
const use = (active, waiting) => ({ connections: { size: 10, active, waiting }, terminals: TERMINALS })
const closed = (elapsedS, iv, u) => ({ index: elapsedS - 1, elapsedS, lengthS: 1, final: false, interval: iv, types: {}, ...u })

test('paced: ramp-up lines, then rolling tpmC and the terminals by state instead of active connections', () => {
  const out = []
  const run = fakeRun({ paced: true })
  attachProgress(run, { everyS: 10, stream: { write: (s) => out.push(s) }, isTTY: false, warmupLabel: 'ramp-up' })
  for (let s = 1; s <= 39; s++) run.emit('warmup-tick', { elapsedS: s, warmupS: 40, ...use(0, 0) })
  for (let s = 1; s <= 10; s++) run.emit('interval', closed(s, interval(1), use(0, 0)))
  assert.deepEqual(out, [
    'ramp-up: 10.0 of 40 s, tpmC 126.0 (last 10 s), terminals: 45 keying, 53 thinking, 1 in a transaction, 1 waiting for a connection\n',
    'ramp-up: 20.0 of 40 s, tpmC 126.0 (last 20 s), terminals: 45 keying, 53 thinking, 1 in a transaction, 1 waiting for a connection\n',
    'ramp-up: 30.0 of 40 s, tpmC 126.0 (last 30 s), terminals: 45 keying, 53 thinking, 1 in a transaction, 1 waiting for a connection\n',
    'progress: 10.0 s, 1.0 tps, tpmC 126.0 (last 50 s), lat p50 - ms p99 - ms, 0 failed, lag max 0.500 ms, terminals: 45 keying, 53 thinking, 1 in a transaction, 1 waiting for a connection\n'
  ])
  assert.ok(out.every((l) => !l.includes('active conns')))
})

test('unpaced: active connections as before, no terminal states', () => {
  const out = []
  const run = fakeRun({ paced: false, progressText: null })
  attachProgress(run, { everyS: 1, stream: { write: (s) => out.push(s) }, isTTY: false })
  run.emit('warmup-tick', { elapsedS: 1, warmupS: 5, ...use(8, 2) })
  run.emit('interval', closed(1, interval(500), use(10, 0)))
  assert.deepEqual(out, [
    'warm-up: 1.0 of 5 s, 8 active conns, 2 waiting\n',
    'progress: 1.0 s, 500.0 tps, lat p50 - ms p99 - ms, 0 failed, lag max 0.500 ms, 10 active conns\n'
  ])
})
