// A pg_stat_activity row as the wait event it stands for.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { WaitEventNames, CPU, CLIENT_READ } from '../../../lib/waits/classify.js'

test('active without a wait event is CPU; with one, type:event', () => {
  const names = new WaitEventNames()
  assert.equal(names.classify('active', null, null), CPU)
  assert.equal(names.classify('active', 'Lock', 'transactionid'), 'Lock:transactionid')
  assert.equal(names.classify('active', 'IO', 'WALSync'), 'IO:WALSync')
  assert.equal(names.classify('fastpath function call', null, null), CPU)
})

test('idle in a transaction is the client\'s turn, as the server says, with or without the event', () => {
  const names = new WaitEventNames()
  assert.equal(names.classify('idle in transaction', 'Client', 'ClientRead'), CLIENT_READ)
  assert.equal(names.classify('idle in transaction', null, null), CLIENT_READ)
})

test('a hidden row (state NULL) is no event', () => {
  assert.equal(new WaitEventNames().classify(null, null, null), null)
})

test('an event\'s name is made once: the same string every time', () => {
  const names = new WaitEventNames()
  const a = names.classify('active', 'LWLock', 'WALWrite')
  const b = names.classify('active', 'LWLock', 'WALWrite')
  assert.equal(a, 'LWLock:WALWrite')
  assert.equal(names._byType.get('LWLock').size, 1)
  assert.equal(a, b)
})
