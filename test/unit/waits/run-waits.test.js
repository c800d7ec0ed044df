// A run's wait sampling: off gives nothing; a server that shows none of the run's rows gives the
// part as absent with one reason; a sampler that cannot start costs the run nothing.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { openWaitSampling, WaitSampling } from '../../../lib/waits/run-waits.js'
import { WaitTally } from '../../../lib/waits/wait-tally.js'

const settings = { connections: 2, range: { count: 2 } }
const workload = { transactions: [{ name: 'a' }] }
const log = { warn () {} }

test('off: no sampling at all', async () => {
  assert.equal(await openWaitSampling({ hz: 0, jobs: 1, settings, workload, target: {}, open: async () => { throw new Error('not called') }, log }), null)
})

test('a sampler that cannot connect: the run goes on, the section says why in one line', async () => {
  const waits = await openWaitSampling({ hz: 50, jobs: 1, settings, workload, target: {}, open: async () => { throw new Error('permission denied for database') }, log })
  assert.equal(waits.activity, undefined, 'the run keeps no slots')
  const results = { transactions: {} }
  await waits.addTo(results)
  assert.deepEqual(results.waits, { available: false, reason: 'the sampler could not start: permission denied for database' })
})

test('rows the server hides, every one: absent, with the reason', async () => {
  const tally = new WaitTally(1)
  tally.hidden = 40
  const sampler = { hz: 50, ticks: { done: 40, skipped: 0, failed: 0 }, windowMs: 800, pgWaitSampling: false, finish: async () => ({ tally, error: null }) }
  const waits = new WaitSampling(null, /** @type {any} */ (sampler), { workload })
  const results = { transactions: { a: { count: 10 } } }
  await waits.addTo(results)
  assert.equal(results.waits.available, false)
  assert.match(results.waits.reason, /showed no wait events of the run's backends/)
})

test('no row had the connections\' pids: absent, naming the likely pooler', async () => {
  const tally = new WaitTally(1)
  tally.gone = 10
  const sampler = { hz: 50, unmatched: true, ticks: { done: 5, skipped: 0, failed: 0 }, windowMs: 100, pgWaitSampling: false, finish: async () => ({ tally, error: null }) }
  const waits = new WaitSampling(null, /** @type {any} */ (sampler), { workload })
  const results = { transactions: { a: { count: 10 } } }
  await waits.addTo(results)
  assert.equal(results.waits.available, false)
  assert.match(results.waits.reason, /pooler \(PgBouncer\)/)
})

test('past the bound of the reads after the run the sampler is abandoned, its counts so far make the section', async () => {
  const tally = new WaitTally(1)
  let abandoned = 0
  const sampler = {
    hz: 50,
    ticks: { done: 4, skipped: 0, failed: 0 },
    windowMs: 80,
    pgWaitSampling: false,
    finish: () => new Promise(() => {}), // a server that stopped answering: never settles
    counted: () => { tally.idle = 4; return { tally, error: null } },
    abandon: () => { abandoned++ }
  }
  const waits = new WaitSampling(null, /** @type {any} */ (sampler), { workload })
  const late = { within: async (promise, onLate) => { onLate(); return null } }
  await waits.finish(late)
  assert.equal(abandoned, 1)
  const results = { transactions: { a: { count: 10 } } }
  await waits.addTo(results)
  assert.equal(results.waits.available, true)
  assert.equal(results.waits.samples.idle, 4)
})
