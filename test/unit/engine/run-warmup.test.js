// The engine's side of a ramp-up: the workload's staggered first wait, 'warmup-tick' events
// before the measured window, terminals counted by state, nothing of the warm-up recorded.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { newRun } from './test-settings.js'
import { fixedUs } from '../../../lib/options/distribution.js'

function open () {
  const conn = {
    backendPid: 1,
    broken: false,
    closed: false,
    transactionStatus: 'I',
    async prepare () {},
    async execute () { await new Promise((resolve) => setTimeout(resolve, 2)) },
    async simpleQuery () {},
    async close () { conn.closed = true }
  }
  return Promise.resolve(conn)
}

test('paced with a warm-up: first waits from the workload, warm-up ticks with terminal states, only the measured window recorded', async () => {
  const ends = []
  const firstWaits = []
  const workload = {
    name: 'paced',
    terminals: 20,
    transactions: [{ name: 'q', weight: 1, keyingUs: fixedUs(60e3), thinkUs: fixedUs(40e3), async run (ctx) { await ctx.conn.execute() } }],
    firstWaitUs (random) { const w = random.double() * 50e3; firstWaits.push(w); return w },
    onTransactionEnd (ctx, info) { ends.push(info.endEpochUs) }
  }
  const run = newRun(workload, { openConnection: open, connections: 4, durationS: 0.4, warmupS: 0.3, intervalS: 0.05, seed: 9n })
  const warmTicks = []
  let measuringAt = null
  run.on('warmup-tick', (e) => warmTicks.push({ ...e, states: run.terminalStates() }))
  run.on('measuring', () => { measuringAt = performance.timeOrigin * 1000 + run.measureStartUs })
  const startAt = performance.timeOrigin * 1000 + performance.now() * 1000
  const res = await run.execute()

  assert.equal(firstWaits.length, 20, 'every terminal asked the workload for its first wait')
  // no transaction ends before its first wait and keying time
  assert.ok(Math.min(...ends) - startAt >= 60e3, `first end after ${(Math.min(...ends) - startAt) / 1000} ms`)
  assert.ok(warmTicks.length >= 4, `${warmTicks.length} warm-up ticks`)
  for (const t of warmTicks) {
    assert.ok(t.elapsedS > 0 && t.elapsedS < 0.3 + 1e-9 && t.warmupS === 0.3, JSON.stringify(t))
    const s = t.states
    assert.equal(s.keying + s.thinking + s.running + s.waiting + s.finished, 20)
  }
  assert.ok(warmTicks.some((t) => t.states.keying > 0), 'terminals seen keying')
  assert.ok(warmTicks.some((t) => t.states.thinking > 0), 'terminals seen thinking (or in their first wait)')
  // what the recorder holds is what ended inside the measured window
  const measured = ends.filter((e) => e >= measuringAt).length
  assert.ok(ends.length > measured && measured > 0)
  assert.equal(res.summary.transactions, measured)
  assert.deepEqual(run.terminalStates(), { keying: 0, thinking: 0, running: 0, waiting: 0, finished: 20, paused: 0 })
})
