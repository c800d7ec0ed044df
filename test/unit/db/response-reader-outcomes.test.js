// What a lean connection's requests get when the connection is lost: a COMMIT the server
// completed succeeds (committed), a commit sent and not answered fails flagged outcome unknown,
// anything else fails with plain CONNECTION_LOST.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ResponseParser } from '../../../lib/db/response-parser.js'
import { ResponseReader, OP_EXEC, OP_SIMPLE } from '../../../lib/db/response-reader.js'
import { COMMIT_NONE, COMMIT_EXPLICIT, COMMIT_IMPLICIT } from '../../../lib/db/commit-point.js'
import { message, cstr, BIND_COMPLETE, READY } from '../../../lib/db/backend-messages.js'

function setup () {
  const reader = new ResponseReader({ forgetStatements () {}, refuseCopy () {}, copyOver () {}, idle () {}, lost () {} })
  reader.transactionStatus = 'T'
  const parser = new ResponseParser(reader, { notice () {}, parameter () {} })
  return { reader, feed: (...m) => parser.parse(Buffer.concat(m)) }
}

function request (reader, kind, commit) {
  const op = reader.acquire(kind)
  op.promise = new Promise((resolve, reject) => { op.resolve = resolve; op.reject = reject })
  op.commit = commit
  reader.push(op)
  return op.promise.then((value) => ({ value }), (error) => ({ error }))
}

const done = (tag) => message(0x43, cstr(tag))
const fatal = message(0x45, Buffer.concat([cstr('SFATAL'), cstr('VFATAL'), cstr('C57P01'), cstr('Mterminating connection due to administrator command'), Buffer.alloc(1)]))
const error = message(0x45, Buffer.concat([cstr('SERROR'), cstr('VERROR'), cstr('C40001'), cstr('Mcould not serialize access'), Buffer.alloc(1)]))

test('COMMIT completed, then FATAL and the socket closed before ReadyForQuery: committed', async () => {
  const { reader, feed } = setup()
  const p = request(reader, OP_EXEC, COMMIT_EXPLICIT)
  feed(BIND_COMPLETE, done('COMMIT'))
  assert.equal(reader.commitInFlight(), true, 'still waiting for ReadyForQuery')
  feed(fatal)
  reader.lost(new Error('server closed the connection'))
  const r = await p
  assert.equal(r.error, undefined)
  assert.equal(r.value.command, 'COMMIT')
  assert.equal(reader.transactionStatus, 'I', 'the transaction is over: a script ending here ended cleanly')
})

test('COMMIT sent, no reply at all, then the connection lost: outcome unknown', async () => {
  const { reader } = setup()
  const p = request(reader, OP_EXEC, COMMIT_EXPLICIT)
  assert.equal(reader.commitInFlight(), true)
  reader.lost(new Error('server closed the connection'))
  const r = await p
  assert.equal(r.error.code, 'CONNECTION_LOST')
  assert.equal(r.error.outcomeUnknown, true)
  assert.match(r.error.message, /outcome unknown/)
})

test('an implicit transaction (a statement outside a block) is not settled by its CommandComplete', async () => {
  const { reader, feed } = setup()
  const p = request(reader, OP_EXEC, COMMIT_IMPLICIT)
  feed(BIND_COMPLETE, done('UPDATE 1'))
  reader.lost(new Error('gone'))
  const r = await p
  assert.equal(r.error.outcomeUnknown, true, 'the extended protocol commits at the Sync, after CommandComplete')
})

test('lost in the middle of a transaction: a plain CONNECTION_LOST, nothing in flight could commit', async () => {
  const { reader, feed } = setup()
  const p = request(reader, OP_EXEC, COMMIT_NONE)
  assert.equal(reader.commitInFlight(), false)
  feed(BIND_COMPLETE, done('UPDATE 1'))
  reader.lost(new Error('gone'))
  const r = await p
  assert.equal(r.error.code, 'CONNECTION_LOST')
  assert.equal(r.error.outcomeUnknown, undefined)
})

test('a COMMIT that failed (serialization failure) is settled: failed, not unknown', async () => {
  const { reader, feed } = setup()
  const p = request(reader, OP_EXEC, COMMIT_EXPLICIT)
  feed(BIND_COMPLETE, error)
  assert.equal(reader.commitInFlight(), false)
  reader.lost(new Error('gone'))
  const r = await p
  assert.equal(r.error.code, 'CONNECTION_LOST')
  assert.equal(r.error.outcomeUnknown, undefined, 'the server answered: it did not commit')
})

test('a COMMIT answered in full resolves as always, and nothing stays in flight', async () => {
  const { reader, feed } = setup()
  const p = request(reader, OP_SIMPLE, COMMIT_EXPLICIT)
  feed(done('COMMIT'), READY.I)
  const r = await p
  assert.equal(r.value.command, 'COMMIT')
  assert.equal(reader.transactionStatus, 'I')
  assert.equal(reader.commitInFlight(), false)
})
