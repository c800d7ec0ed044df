// The arrivals of --stages (a non-homogeneous Poisson process with a bounded queue) and the
// active terminals of --clients-stages, on a seeded generator and a clock the test sets.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Prng } from '../../../lib/random/prng.js'
import { StagedArrivals } from '../../../lib/engine/staged-arrivals.js'
import { ActiveClients } from '../../../lib/engine/active-clients.js'
import { stageProfile } from '../../../lib/plan/profile.js'

const counter = () => ({ drops: 0, arrivals: 0, dropped () { this.drops++ }, arrived () { this.arrivals++ } })
const stages = (list) => list.map(([durationS, target, ramp = true]) => ({ durationS, target, ramp }))

test('arrivals follow the rate of each stage, ramps included: the counts match its integral', () => {
  // 0 -> 2000 over 2 s (2,000 expected), 2000 held 1 s (2,000), 2000 -> 0 over 1 s (1,000)
  const profile = stageProfile({ stages: stages([[2, 2000], [1, 2000], [1, 0]]), maxQueue: 10 })
  const counts = [0, 0, 0]
  const rounds = 20
  for (let r = 0; r < rounds; r++) {
    const a = new StagedArrivals(profile, 1, Prng.fromSeed(100 + r), counter())
    a.begin(0, 0, 4e6)
    let last = -1
    for (let t = a.take(-1); t !== Infinity; t = a.take(-1)) {
      assert.ok(t >= last, 'in order')
      last = t
      counts[t < 2e6 ? 0 : t < 3e6 ? 1 : 2]++
    }
  }
  // 100,000 arrivals in all: each count within 2 % of its expectation (over 4 standard deviations)
  const expected = [2000, 2000, 1000].map((n) => n * rounds)
  counts.forEach((n, i) => assert.ok(Math.abs(n - expected[i]) / expected[i] < 0.02, `stage ${i + 1}: ${n} arrivals, ${expected[i]} expected`))
})

test('a part takes its share of the rate', () => {
  const profile = stageProfile({ stages: stages([[10, 1000]]), rate: 1000, maxQueue: 10 })
  const a = new StagedArrivals(profile, 0.25, Prng.fromSeed(3), counter())
  a.begin(0, 0, 10e6)
  let n = 0
  while (a.take(-1) !== Infinity) n++
  assert.ok(Math.abs(n - 2500) < 200, `${n} arrivals for a quarter of 10,000`)
})

test('an arrival a free terminal takes before it is due is counted when it is due, not when taken', () => {
  const profile = stageProfile({ stages: stages([[10, 100, false]]), rate: 100, maxQueue: 5 })
  const rec = counter()
  const a = new StagedArrivals(profile, 1, Prng.fromSeed(21), rec)
  a.begin(0, 0, 10e6)
  // three idle terminals reserve the next three arrivals at time 0: none has come yet
  const due = [a.take(0), a.take(0), a.take(0)]
  assert.ok(due[0] > 0 && due[1] >= due[0] && due[2] >= due[1])
  assert.equal(rec.arrivals, 0, 'nothing has arrived at time 0')
  a.settle(due[1])
  assert.equal(rec.arrivals, 2, 'the first two are due by then')
  a.settle(due[2])
  assert.equal(rec.arrivals, 3)
  assert.equal(a.waiting, 0)
})

test('arrivals still waiting when the run ends are dropped, and counted so', () => {
  const profile = stageProfile({ stages: stages([[1, 1000, false]]), rate: 1000, maxQueue: 100 })
  const rec = counter()
  const a = new StagedArrivals(profile, 1, Prng.fromSeed(5), rec)
  a.begin(0, 0, 1e6)
  a.settle(50_000) // about 50 came, no terminal free
  const waiting = a.waiting
  assert.ok(waiting > 20 && waiting <= 100, `${waiting} waiting`)
  assert.equal(a.dropWaiting(), waiting)
  assert.equal(rec.drops, waiting)
  assert.equal(rec.arrivals, waiting, 'every arrival is served or dropped')
})

test('arrivals no terminal took wait in a FIFO of --max-queue; past it they are dropped and counted', () => {
  const profile = stageProfile({ stages: stages([[1, 1000]]), rate: 1000, maxQueue: 5 })
  const rec = counter()
  const a = new StagedArrivals(profile, 1, Prng.fromSeed(9), rec)
  a.begin(0, 0, 1e6)
  assert.equal(a.capacity, 5)
  // no terminal free for half a second: some 500 arrivals came, 5 wait, the rest are dropped
  a.settle(500_000)
  assert.equal(a.waiting, 5)
  assert.equal(rec.drops, rec.arrivals - 5)
  assert.ok(rec.arrivals > 400 && rec.arrivals < 600, `${rec.arrivals} arrivals`)
  // a free terminal takes the oldest waiting one, scheduled in the past: its wait counts
  const first = a.take(500_000)
  assert.ok(first < 500_000)
  const second = a.take(500_000)
  assert.ok(second >= first)
  assert.equal(a.waiting, 3)
})

test('--max-queue 0 drops every arrival that finds no terminal free', () => {
  const profile = stageProfile({ stages: stages([[1, 1000]]), rate: 1000, maxQueue: 0 })
  const rec = counter()
  const a = new StagedArrivals(profile, 1, Prng.fromSeed(9), rec)
  a.begin(0, 0, 1e6)
  a.settle(100_000)
  assert.equal(a.waiting, 0)
  assert.equal(rec.drops, rec.arrivals)
  assert.ok(a.take(100_000) > 100_000, 'the next one to come')
})

test('--clients-stages: terminal i runs while more than i are active; a ramp lets them in one by one', () => {
  // 2 from the start, then 2 -> 6 over 4 s, then 1
  const active = new ActiveClients(stageProfile({ clientsStages: stages([[2, 2, false], [4, 6, true], [2, 1, false]]) }))
  active.begin(1_000_000, 9_000_000)
  assert.equal(active.runnableAtUs(0, 1_000_000), 1_000_000)
  assert.equal(active.runnableAtUs(1, 1_500_000), 1_500_000)
  // terminal 2 needs 3 active: a quarter into the ramp (2 s + 1 s), on the measured clock
  assert.equal(active.runnableAtUs(2, 1_000_000), 1_000_000 + 3_000_000)
  assert.equal(active.runnableAtUs(4, 1_000_000), 1_000_000 + 5_000_000)
  // the ramp reaches 6 only as it ends, where the next stage steps down to 1: terminal 5 never runs
  assert.equal(active.runnableAtUs(5, 1_000_000), Infinity)
  // in the last stage only terminal 0 runs; terminal 1 never again before the end
  assert.equal(active.runnableAtUs(0, 8_000_000), 8_000_000)
  assert.equal(active.runnableAtUs(1, 7_500_000), Infinity)
  // during a warm-up: the first stage's number
  assert.equal(active.runnableAtUs(1, 0), 0)
  assert.equal(active.runnableAtUs(3, 0), 1_000_000 + 4_000_000)
})

test('changeRate: the arrivals after the change follow the new rate; dropWaiting drops the backlog and counts it', () => {
  const profile = stageProfile({ stages: stages([[10, 1000]]), rate: 1000, maxQueue: 100000 })
  const rec = counter()
  const a = new StagedArrivals(profile, 1, Prng.fromSeed(11), rec)
  a.begin(0, 0, 10e6)
  a.settle(2e6) // no terminal took any: 2 s of arrivals at 1000/s wait
  const waiting = a.waiting
  assert.ok(Math.abs(waiting - 2000) < 250, `${waiting} waiting`)
  a.changeRate(2e6, 100)
  assert.equal(a.dropWaiting(), waiting)
  assert.equal(rec.drops, waiting)
  assert.equal(a.waiting, 0)
  const before = rec.arrivals
  a.settle(10e6)
  const after = rec.arrivals - before
  assert.ok(Math.abs(after - 800) < 5 * Math.sqrt(800), `${after} arrivals in 8 s at 100/s`)
})

test('--clients-stages: an active terminal is runnable at the clock reading itself, fractional microseconds included', () => {
  // the monotonic clock reads fractional microseconds; a time rounded up past the reading put the
  // terminal to sleep for under a microsecond again and again instead of running it
  const active = new ActiveClients(stageProfile({ clientsStages: stages([[2, 2, false], [2, 4, true]]) }))
  active.begin(1_000_000.25, 5_000_000.25)
  for (const now of [1_000_000.5, 1_700_123.875, 3_000_000.125]) assert.equal(active.runnableAtUs(0, now), now)
  // a later start is still a whole microsecond on or after the moment the ramp reaches it
  // (terminal 2 needs 3 active: half-way through the 2 -> 4 ramp, 3 s into the window)
  const at = active.runnableAtUs(2, 1_000_000.5)
  assert.ok(at >= 1_000_000.25 + 3_000_000 && at < 1_000_000.25 + 3_000_001, String(at))
})
