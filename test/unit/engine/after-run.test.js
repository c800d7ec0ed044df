// The bound on what follows a run: the readings after it settle with their value, or with null
// once the run is hurried (Ctrl-C twice); a connection's close gets none once hurried and a
// short while after a stall.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { EventEmitter } from 'node:events'
import { afterRunLimit, closeAfterRunMs, CLOSE_MS } from '../../../lib/engine/after-run.js'

function fakeRun (hurried = false) {
  const run = new EventEmitter()
  run.status = { hurried }
  return run
}

test('within settles with the reading; done stops listening to the run', async () => {
  const run = fakeRun()
  const limit = afterRunLimit(run, false)
  assert.equal(run.listenerCount('status'), 1)
  assert.equal(await limit.within(Promise.resolve(42)), 42)
  await assert.rejects(limit.within(Promise.reject(new Error('no'))), /no/)
  limit.done()
  assert.equal(run.listenerCount('status'), 0)
})

test('a hurried run settles what is still read with null and abandons it', async () => {
  const run = fakeRun()
  const limit = afterRunLimit(run, false)
  let abandoned = 0
  const reading = limit.within(new Promise(() => {}), () => abandoned++)
  run.status = { hurried: true }
  run.emit('status', run.status)
  assert.equal(await reading, null)
  assert.equal(abandoned, 1)
  limit.done()
  const already = afterRunLimit(fakeRun(true), true)
  assert.equal(await already.within(new Promise(() => {})), null)
  already.done()
})

test('a close after the run: none once hurried, shorter after a stall, else the polite close', () => {
  assert.equal(closeAfterRunMs({ hurried: true, cancelled: { grace: 3 } }), 0)
  const stalled = closeAfterRunMs({ hurried: false, cancelled: { grace: 3 } })
  assert.ok(stalled > 0 && stalled < CLOSE_MS)
  assert.equal(closeAfterRunMs({ hurried: false, cancelled: { grace: 0 } }), CLOSE_MS)
  assert.equal(closeAfterRunMs(undefined), CLOSE_MS) // the run did not start
})
