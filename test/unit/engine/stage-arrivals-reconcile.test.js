// Per stage, arrivals reconcile with outcomes: each transaction counts in the stage it arrived
// in, whenever it ends, so arrivals = transactions + failed + skipped + dropped + unfinished +
// outcome unknown in every stage, exactly, through a "restart" mid-stage (failures and lost
// commits) and with worker threads. Transactions last long enough to be in flight at each edge.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { newRunOn } from './test-settings.js'
import { flakyTypes } from './flaky-source.js'
import { fakeConnection } from './fake-run.js'
import { StagedArrivals } from '../../../lib/engine/staged-arrivals.js'
import { stageProfile } from '../../../lib/plan/profile.js'
import { Prng } from '../../../lib/random/prng.js'
import { StageWindows } from '../../../lib/metrics/stage-windows.js'

const SOURCE = new URL('./flaky-source.js', import.meta.url).href
const OUTCOMES = ['transactions', 'failed', 'skipped', 'dropped', 'unfinished', 'outcomeUnknown']
const outcomes = (s) => OUTCOMES.reduce((n, k) => n + s[k], 0)

/** A staged run of 3 x 1 s whose middle stage has a 300 ms restart; its outcome. */
async function stagedRun (jobs) {
  const start = Date.now()
  // the run starts within a few hundred ms of this; the restart lands in the middle stage
  const data = { answerMs: 25, downFromMs: start + 1300, downToMs: start + 1600 }
  let pid = 0
  const run = newRunOn({ name: 'flaky', transactions: flakyTypes(data) }, {
    openConnection: async () => fakeConnection(++pid),
    clients: 24,
    stages: [{ durationS: 1, target: 300, ramp: false }, { durationS: 1, target: 600, ramp: false }, { durationS: 1, target: 200, ramp: false }],
    durationS: 3,
    maxQueue: 50,
    rate: 300,
    intervalS: 0.5,
    seed: 11n
  }, { jobs, source: { module: SOURCE, data } })
  return run.execute()
}

for (const jobs of [1, 2]) {
  test(`-j ${jobs}: in every stage and the run, arrivals = transactions + failed + skipped + dropped + unfinished + outcome unknown`, async () => {
    const outcome = await stagedRun(jobs)
    const st = outcome.stages
    assert.equal(st.length, 3)
    for (const s of st) {
      assert.ok(s.summary.arrivals > 100, `stage ${s.index + 1}: ${s.summary.arrivals} arrivals`)
      assert.equal(s.summary.arrivals, outcomes(s.summary), `stage ${s.index + 1}: ${JSON.stringify(Object.fromEntries(['arrivals', ...OUTCOMES].map((k) => [k, s.summary[k]])))}`)
      assert.equal(s.countedBy, 'arrival')
    }
    assert.equal(outcome.summary.arrivals, outcomes(outcome.summary), 'the run')
    for (const k of ['arrivals', ...OUTCOMES]) assert.equal(st.reduce((n, s) => n + s.summary[k], 0), outcome.summary[k], `the stages' ${k} add up to the run's`)
    assert.ok(outcome.summary.failed > 0, 'the restart failed transactions')
    assert.ok(outcome.summary.errors['57P01'] > 0)
  })
}

test('on a set clock: each arrival is counted in the stage of its scheduled time, taken early, queued or dropped', () => {
  const profile = stageProfile({ stages: [{ durationS: 1, target: 1000, ramp: false }, { durationS: 1, target: 1000, ramp: false }], rate: 1000, maxQueue: 5 })
  const windows = new StageWindows('rate', profile.stages.slice(), ['q'])
  const counted = { arrived: [0, 0], dropped: [0, 0] }
  const recorder = {
    stageAt: (us) => windows.stageAt(us),
    arrived (stage) { counted.arrived[stage]++ },
    dropped (stage) { counted.dropped[stage]++ }
  }
  const a = new StagedArrivals(profile, 1, Prng.fromSeed(9), recorder)
  a.begin(0, 0, 2e6)
  const taken = [0, 0]
  // a terminal takes an arrival every 1.5 ms (slower than they come: the queue fills and drops),
  // sometimes before it is due (held, counted when due)
  for (let now = 0; now < 2.1e6; now += 1500) {
    const t = a.take(now)
    if (t === Infinity) break
    const stage = t < 1e6 ? 0 : 1
    assert.equal(a.lastStage, stage, `arrival at ${t} us`)
    taken[stage]++
  }
  a.end(2e6)
  for (const i of [0, 1]) assert.equal(counted.arrived[i], taken[i] + counted.dropped[i], `stage ${i + 1}: arrivals = taken + dropped`)
  assert.ok(counted.dropped[0] > 0 && counted.dropped[1] > 0, 'both stages dropped some')
})
