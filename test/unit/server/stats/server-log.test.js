// Checkpoints from the server's log lines: parsing, the window, and a checkpoint running before it.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { checkpointEvents, logSettingsProblem, parseCheckpointLines } from '../../../../lib/server/stats/server-log.js'

const LOG = readFileSync(new URL('../../../fixtures/server-log/checkpoints.txt', import.meta.url), 'utf8')
// the fixture's times as epochs: 12:41:30.000 UTC is run time 0
const ZERO = Date.UTC(2026, 10, 25, 12, 41, 30) / 1000
const epochOf = (stamp) => Date.parse(stamp.replace(' UTC', 'Z').replace(' ', 'T')) / 1000
const lines = () => parseCheckpointLines(LOG).map(l => ({ ...l, epoch: epochOf(l.stamp) }))

test('checkpoint lines: starting and complete with their stamps and causes; other lines and statements are not', () => {
  assert.deepEqual(parseCheckpointLines(LOG), [
    { stamp: '2026-11-25 12:40:50.100 UTC', kind: 'start', cause: 'timed' },
    { stamp: '2026-11-25 12:41:31.045 UTC', kind: 'end', cause: undefined },
    { stamp: '2026-11-25 12:41:40.250 UTC', kind: 'start', cause: 'requested' },
    { stamp: '2026-11-25 12:41:40.262 UTC', kind: 'end', cause: undefined },
    { stamp: '2026-11-25 12:41:55.000 UTC', kind: 'start', cause: 'requested' }
  ])
  // %t (no milliseconds) and a numeric zone
  assert.deepEqual(parseCheckpointLines('2026-01-02 03:04:05 +01 [7] LOG:  checkpoint starting: time\n'),
    [{ stamp: '2026-01-02 03:04:05 +01', kind: 'start', cause: 'timed' }])
})

test('the window: one running at its start from 0 with when it began, one inside, one still running at the end', () => {
  assert.deepEqual(checkpointEvents(lines(), ZERO, 30), [
    { t: 0, kind: 'checkpoint-start', cause: 'timed', inProgressAtStart: true, beganS: -39.9 },
    { t: 1.045, kind: 'checkpoint-end', cause: 'timed' },
    { t: 10.25, kind: 'checkpoint-start', cause: 'requested' },
    { t: 10.262, kind: 'checkpoint-end', cause: 'requested' },
    { t: 25, kind: 'checkpoint-start', cause: 'requested' }
  ])
})

test('checkpoints over before the window or begun after it are not in the run', () => {
  // window 2 s .. 9 s after the fixture's zero: nothing began or ended in it
  assert.deepEqual(checkpointEvents(lines(), ZERO + 2, 7), [])
  // window ending before the last start: it is left out; the requested one ends inside
  assert.deepEqual(checkpointEvents(lines(), ZERO, 20).map(e => [e.t, e.kind]), [[0, 'checkpoint-start'], [1.045, 'checkpoint-end'], [10.25, 'checkpoint-start'], [10.262, 'checkpoint-end']])
})

test('an end whose start is not in the log read was running before the window', () => {
  const endOnly = lines().slice(1, 2)
  assert.deepEqual(checkpointEvents(endOnly, ZERO, 30), [
    { t: 0, kind: 'checkpoint-start', inProgressAtStart: true },
    { t: 1.045, kind: 'checkpoint-end' }
  ])
})

test('the log is used only with checkpoints logged, in English, each line stamped', () => {
  assert.equal(logSettingsProblem({ logCheckpoints: 'on', lcMessages: 'C', logLinePrefix: '%m [%p] ' }), null)
  assert.equal(logSettingsProblem({ logCheckpoints: 'on', lcMessages: 'en_US.UTF-8', logLinePrefix: '%t ' }), null)
  assert.equal(logSettingsProblem({ logCheckpoints: 'off', lcMessages: 'C', logLinePrefix: '%m ' }), 'log_checkpoints is off')
  assert.match(logSettingsProblem({ logCheckpoints: 'on', lcMessages: 'de_DE.UTF-8', logLinePrefix: '%m ' }), /not English/)
  assert.match(logSettingsProblem({ logCheckpoints: 'on', lcMessages: 'C', logLinePrefix: '[%p] %m ' }), /does not start with a timestamp/)
})
