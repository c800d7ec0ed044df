import { test } from 'node:test'
import assert from 'node:assert/strict'
import { dashboardKeepS, keepNote } from '../../../lib/cli/dashboard-keep.js'

const on = { dashboard: '127.0.0.1:0' }

test('--dashboard-keep not given: until Ctrl-C at a terminal, 0 in CI or through a pipe', () => {
  assert.equal(dashboardKeepS(on, { env: {}, isTTY: true }), Infinity)
  assert.equal(dashboardKeepS(on, { env: { CI: 'true' }, isTTY: true }), 0)
  assert.equal(dashboardKeepS(on, { env: { CI: 'false' }, isTTY: true }), Infinity)
  assert.equal(dashboardKeepS(on, { env: {}, isTTY: false }), 0)
})

test('--dashboard-keep: a duration or forever; only with --dashboard', () => {
  assert.equal(dashboardKeepS({ ...on, dashboardKeep: '3s' }, { env: {}, isTTY: false }), 3)
  assert.equal(dashboardKeepS({ ...on, dashboardKeep: '0' }, { env: {}, isTTY: true }), 0)
  assert.equal(dashboardKeepS({ ...on, dashboardKeep: 'forever' }, { env: { CI: '1' }, isTTY: false }), Infinity)
  assert.equal(dashboardKeepS({}, { env: {}, isTTY: true }), null)
  assert.throws(() => dashboardKeepS({ ...on, dashboardKeep: '-1s' }), /--dashboard-keep must be a duration/)
  assert.throws(() => dashboardKeepS({ dashboardKeep: '3s' }), /--dashboard-keep goes with --dashboard/)
})

test('the start-up line says what happens at the end', () => {
  assert.match(keepNote(Infinity), /until Ctrl-C/)
  assert.match(keepNote(0, 'sweep'), /exits when the sweep ends/)
  assert.match(keepNote(30), /for 30 s/)
})
