// CopyGate, the COPY side of a lean connection: a COPY waits for the requests in flight, requests
// made during the COPY wait for its end, and a lost connection fails what waits.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { CopyGate } from '../../../lib/db/copy-in.js'

function fakeStream () {
  return { errors: [], onError (err) { this.errors.push(err) } }
}

test('a COPY asked for with requests in flight goes out once they are answered; requests made meanwhile go after it', () => {
  const started = []
  const gate = new CopyGate((s) => started.push(s))
  const stream = fakeStream()
  gate.open(stream, false)
  assert.equal(gate.holding, true)
  assert.deepEqual(started, [])
  const sent = []
  gate.hold(() => sent.push('select'))
  gate.idle()
  assert.deepEqual(started, [stream])
  gate.idle() // nothing waits any more
  assert.equal(started.length, 1)
  assert.throws(() => gate.admit(), /a COPY is already running/)
  assert.deepEqual(sent, [])
  gate.over()
  assert.deepEqual(sent, ['select'])
  assert.equal(gate.holding, false)
  gate.admit()
})

test('the connection lost: the COPY not yet sent fails, the requests held back go (and fail as lost)', () => {
  const gate = new CopyGate(() => assert.fail('not started'))
  const stream = fakeStream()
  gate.open(stream, false)
  const sent = []
  gate.hold(() => sent.push('select'))
  const err = new Error('gone')
  gate.lost(err)
  assert.deepEqual(stream.errors, [err])
  assert.deepEqual(sent, ['select'])
  assert.equal(gate.holding, false)
})

test('a COPY on a connection already gone fails after copyFrom returns', async () => {
  const gate = new CopyGate(() => assert.fail('not started'))
  const stream = fakeStream()
  const err = new Error('gone')
  gate.refuse(stream, err)
  assert.deepEqual(stream.errors, [])
  await Promise.resolve()
  assert.deepEqual(stream.errors, [err])
})
