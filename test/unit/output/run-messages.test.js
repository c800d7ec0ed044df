// What `pgload run` prints: the set-up phases and the stdout of a finished run.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { EventEmitter } from 'node:events'
import { phaseMessage, formatRunOutput, attachRunMessages } from '../../../lib/output/run-messages.js'

test('phase lines as pgload has always worded them', () => {
  assert.equal(phaseMessage('seed', { seed: '-5' }), 'pgload: setting random seed to -5\n')
  assert.equal(phaseMessage('running', { terminals: 1, connections: 2 }), 'pgload: running 1 terminal on 2 connections\n')
  assert.equal(phaseMessage('connected', { embedded: true, serverVersion: { version: '17.2' }, target: '127.0.0.1:5432' }), 'pgload: embedded PostgreSQL 17.2 at 127.0.0.1:5432\n')
  assert.equal(phaseMessage('jit-warmup', {}), null)
})

test('--json prints the results document as it is, thresholds included', () => {
  const doc = { thresholds: [{ expr: 'p(99) < 5ms', pass: false, actual: 7.5, unit: 'ms', reason: '7.5 ms is not < 5 ms' }, { expr: 'tps > 1', pass: true, actual: null }] }
  assert.deepEqual(JSON.parse(formatRunOutput(doc, { json: true })), doc)
})

test('run events on the error stream: a grace cancel and a terminal abort', () => {
  const run = new EventEmitter()
  let text = ''
  attachRunMessages(run, { progressS: 0, err: { write: (s) => { text += s } }, log: { warn () {} } })
  run.emit('cancelled', { reason: 'grace', count: 2, graceS: 1 })
  run.emit('cancelled', { reason: 'timeout', count: 1, graceS: 1 })
  run.emit('terminal-aborted', { error: new Error('boom') })
  assert.equal(text, 'pgload: 2 transactions still running 1 s after the end: cancelled\npgload: error: boom\n')
})
