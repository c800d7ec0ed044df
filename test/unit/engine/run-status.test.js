// The run handle's status on a fake clock (mocked timers and the run's injected clock): stop during
// the warm-up, stop and then the grace, abort, a lost server; the events that say so, in order.

import { test, mock } from 'node:test'
import assert from 'node:assert/strict'
import { newRun } from './test-settings.js'

/** A clock the run reads (nowUs) that moves with the mocked timers. */
function fakeClock (t) {
  mock.timers.enable({ apis: ['setTimeout', 'setInterval'] })
  t.after(() => mock.timers.reset())
  const clock = { ms: 0 }
  clock.nowUs = () => clock.ms * 1000
  /** Move time on by `ms`, a millisecond at a time, letting promises settle in between. */
  clock.advance = async (ms) => {
    for (let i = 0; i < ms; i++) {
      clock.ms++
      mock.timers.tick(1)
      await new Promise(setImmediate)
    }
  }
  return clock
}

/** Connections whose statements answer after `answerMs`, or never while `server.stalled`. */
function fakeServer ({ answerMs = 5 } = {}) {
  const server = { stalled: false, down: false, opened: 0 }
  server.open = async () => {
    if (server.down) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
    server.opened++
    let fail = null
    const conn = {
      backendPid: server.opened,
      broken: false,
      transactionStatus: 'I',
      commitInFlight: false,
      async prepare () {},
      execute () {
        return new Promise((resolve, reject) => {
          fail = reject
          if (server.stalled) return
          setTimeout(() => {
            if (server.down) { conn.broken = true; reject(Object.assign(new Error('lost'), { code: 'CONNECTION_LOST' })) } else resolve({ command: 'SELECT', rowCount: 1, fields: [], rows: [] })
          }, answerMs)
        })
      },
      lose () { conn.broken = true; fail?.(Object.assign(new Error('lost'), { code: 'CONNECTION_LOST' })) },
      async cancel () { conn.lose() },
      destroy () { conn.lose() },
      async simpleQuery () {},
      async close () {}
    }
    return conn
  }
  return server
}

const workload = () => ({ name: 'fake', transactions: [{ name: 'q', weight: 1, async run (ctx) { await ctx.conn.execute() } }] })

/** The run's status changes and the events of the handle, in order. */
function follow (run) {
  const seen = []
  run.on('status', (s) => seen.push(`${s.state}${s.reason ? ':' + s.reason : ''}${s.hurried ? ' hurried' : ''}`))
  for (const name of ['stopping', 'aborting', 'server-lost', 'finished']) run.on(name, () => seen.push(`<${name}>`))
  return seen
}

test('stop during the warm-up: starting, running, stopping (interrupted), finished; nothing measured', async (t) => {
  const clock = fakeClock(t)
  const server = fakeServer()
  const run = newRun(workload(), { openConnection: server.open, clients: 2, durationS: 60, warmupS: 10, seed: 1n, nowUs: clock.nowUs })
  const seen = follow(run)
  assert.equal(run.status.state, 'starting')
  const done = run.execute()
  await clock.advance(2000)
  assert.equal(run.status.state, 'running')
  const startUs = run.status.startUs
  assert.ok(startUs >= 0 && startUs < 10_000, `started at ${startUs} us on the fake clock`)
  run.stop('interrupted')
  run.stop('stopped') // a second stop changes nothing
  await clock.advance(20)
  const outcome = await done
  assert.deepEqual(seen, ['running', '<stopping>', 'stopping:interrupted', 'finished:interrupted', '<finished>'])
  assert.deepEqual({ ...run.status, cancelled: undefined }, { state: 'finished', reason: 'interrupted', stopReason: 'interrupted', abortReason: null, interrupted: true, hurried: false, startUs, cancelled: undefined })
  assert.equal(outcome.interrupted, true)
  assert.equal(outcome.aborted, false)
  assert.equal(outcome.summary.transactions, 0, 'the warm-up is not measured')
})

test('the duration ends, a transaction stalls past the grace: stopping (duration), cancelled after the grace, finished', async (t) => {
  const clock = fakeClock(t)
  const server = fakeServer()
  const run = newRun(workload(), { openConnection: server.open, clients: 2, durationS: 1, graceS: 3, seed: 2n, nowUs: clock.nowUs })
  const seen = follow(run)
  const done = run.execute()
  await clock.advance(500)
  server.stalled = true
  await clock.advance(600)
  assert.equal(run.status.state, 'stopping')
  assert.equal(run.status.reason, 'duration')
  run.stop('interrupted') // Ctrl-C once during the grace: already stopping
  assert.equal(run.status.interrupted, false)
  await clock.advance(3100)
  const outcome = await done
  assert.deepEqual(seen, ['running', '<stopping>', 'stopping:duration', 'finished:duration', '<finished>'])
  assert.equal(run.status.cancelled.grace, 2)
  assert.equal(outcome.summary.unfinished, 2)
  assert.equal(outcome.interrupted, false)
})

test('Ctrl-C twice during the grace: hurried and aborting, marked interrupted, what is in flight cancelled', async (t) => {
  const clock = fakeClock(t)
  const server = fakeServer()
  const run = newRun(workload(), { openConnection: server.open, clients: 2, durationS: 1, graceS: 30, seed: 3n, nowUs: clock.nowUs })
  const seen = follow(run)
  const done = run.execute()
  await clock.advance(500)
  server.stalled = true
  await clock.advance(600)
  run.abort('interrupted')
  await clock.advance(10)
  const outcome = await done
  assert.deepEqual(seen, ['running', '<stopping>', 'stopping:duration', 'stopping:duration hurried', '<aborting>', 'aborting:interrupted hurried', 'finished:interrupted hurried', '<finished>'])
  assert.equal(run.status.stopReason, 'duration')
  assert.equal(run.status.cancelled.abort, 2)
  assert.equal(outcome.interrupted, true)
  assert.equal(outcome.aborted, false)
})

test('abort while running (--exit-on-abort): stopping, aborting, finished, the run counted as aborted', async (t) => {
  const clock = fakeClock(t)
  const server = fakeServer()
  const run = newRun(workload(), { openConnection: server.open, clients: 2, durationS: 60, seed: 4n, nowUs: clock.nowUs })
  const seen = follow(run)
  const done = run.execute()
  await clock.advance(300)
  run.abort('exit-on-abort')
  await clock.advance(20)
  const outcome = await done
  assert.deepEqual(seen, ['running', '<stopping>', 'stopping:exit-on-abort', '<aborting>', 'aborting:exit-on-abort', 'finished:exit-on-abort', '<finished>'])
  assert.equal(outcome.aborted, true)
  assert.equal(outcome.abortReason, 'exit-on-abort')
  assert.ok(outcome.summary.transactions > 0)
})

test('the server is lost: server-lost, then aborting (connection-lost), finished', async (t) => {
  const clock = fakeClock(t)
  const server = fakeServer()
  const run = newRun(workload(), { openConnection: server.open, clients: 2, durationS: 60, seed: 5n, reconnectWindowS: 0, nowUs: clock.nowUs })
  const seen = follow(run)
  const lost = []
  run.on('server-lost', (e) => lost.push(e.serverLostS))
  const done = run.execute()
  await clock.advance(300)
  server.down = true
  await clock.advance(50)
  const outcome = await done
  assert.deepEqual(seen, ['running', '<server-lost>', '<stopping>', 'stopping:connection-lost', '<aborting>', 'aborting:connection-lost', 'finished:connection-lost', '<finished>'])
  assert.deepEqual(lost, [0])
  assert.equal(outcome.abortReason, 'connection-lost')
  assert.equal(outcome.aborted, true)
})
