import { test } from 'node:test'
import assert from 'node:assert/strict'
import { CheckpointTracker, AutovacuumTracker } from '../../../../lib/server/stats/events.js'

const reading = (t, o = {}) => ({
  t,
  prevT: o.prevT ?? (t > 0 ? t - 1 : null),
  control: { lsn: o.lsn ?? 100n, epoch: o.epoch ?? 1000 },
  serverEpoch: o.serverEpoch ?? 2000 + t,
  counters: { timed: o.timed ?? 0n, requested: o.requested ?? 0n, buffersWritten: o.buf ?? 0n },
  checkpointer: o.cp ?? null
})

test('a checkpoint that starts and ends between two samples gets an inferred start from checkpoint_time', () => {
  const c = new CheckpointTracker()
  assert.deepEqual(c.update(reading(0)), [])
  assert.deepEqual(c.update(reading(1)), [])
  // at t=3 the control file shows a new checkpoint that began 0.4 s (server clock) before the reading
  const ev = c.update(reading(3, { prevT: 2, lsn: 200n, epoch: 2002.6, serverEpoch: 2003, requested: 1n, buf: 40n }))
  assert.deepEqual(ev, [
    { t: 2.6, kind: 'checkpoint-start', inferred: true, cause: 'requested' },
    { t: 3, kind: 'checkpoint-end', cause: 'requested' }
  ])
})

test('the inferred start is clamped to the previous sample', () => {
  const c = new CheckpointTracker()
  c.update(reading(4))
  const ev = c.update(reading(5, { prevT: 4, lsn: 300n, epoch: 1000, serverEpoch: 2005, timed: 1n, buf: 9n }))
  assert.equal(ev[0].t, 4)
  assert.equal(ev[0].cause, 'timed')
  assert.equal(ev[1].t, 5)
})

test('a spread checkpoint: start from the requested counter, end from the control file', () => {
  const c = new CheckpointTracker()
  c.update(reading(0))
  assert.deepEqual(c.update(reading(1, { requested: 1n, buf: 10n })), [{ t: 1, kind: 'checkpoint-start', cause: 'requested' }])
  assert.deepEqual(c.update(reading(2, { requested: 1n, buf: 20n })), [])
  assert.deepEqual(c.update(reading(3, { requested: 1n, buf: 30n, lsn: 150n })), [{ t: 3, kind: 'checkpoint-end', cause: 'requested' }])
})

test('a busy checkpointer writing buffers marks a start; a skipped timed checkpoint marks nothing', () => {
  const c = new CheckpointTracker()
  c.update(reading(0, { cp: 'idle' }))
  // timed counter rises, no buffers, no end: a skipped checkpoint
  assert.deepEqual(c.update(reading(1, { timed: 1n, cp: 'idle' })), [])
  assert.deepEqual(c.update(reading(2, { timed: 1n, cp: 'idle' })), [])
  // one busy glimpse alone is not enough
  assert.deepEqual(c.update(reading(3, { timed: 1n, cp: 'busy' })), [])
  assert.deepEqual(c.update(reading(4, { timed: 1n, cp: 'idle' })), [])
  assert.deepEqual(c.update(reading(5, { timed: 1n, cp: 'busy', buf: 5n })), [{ t: 5, kind: 'checkpoint-start' }])
  assert.deepEqual(c.update(reading(6, { timed: 2n, cp: 'idle', buf: 9n, lsn: 101n })), [{ t: 6, kind: 'checkpoint-end', cause: 'timed' }])
})

test('missing control readings never produce an end', () => {
  const c = new CheckpointTracker()
  c.update({ t: 0, prevT: null, control: null, counters: null })
  assert.deepEqual(c.update({ t: 1, prevT: 0, control: null, counters: null }), [])
})

test('autovacuum seen running is marked once, and its count rise is not marked again', () => {
  const a = new AutovacuumTracker()
  assert.deepEqual(a.update({ t: 0, running: [], counts: { acc: { autovacuum: 0n, autoanalyze: 0n } } }), [])
  assert.deepEqual(a.update({ t: 1, running: [{ kind: 'autovacuum', table: 'acc' }], counts: { acc: { autovacuum: 0n, autoanalyze: 0n } } }),
    [{ t: 1, kind: 'autovacuum', table: 'acc' }])
  assert.deepEqual(a.update({ t: 2, running: [{ kind: 'autovacuum', table: 'acc' }], counts: { acc: { autovacuum: 0n, autoanalyze: 0n } } }), [])
  assert.deepEqual(a.update({ t: 3, running: [], counts: { acc: { autovacuum: 1n, autoanalyze: 0n } } }), [])
})

test('without visibility of the workers, count rises are the markers', () => {
  const a = new AutovacuumTracker()
  a.update({ t: 0, running: null, counts: { acc: { autovacuum: 5n, autoanalyze: 2n } } })
  assert.deepEqual(a.update({ t: 1, running: null, counts: { acc: { autovacuum: 5n, autoanalyze: 3n } } }),
    [{ t: 1, kind: 'autoanalyze', table: 'acc' }])
  assert.deepEqual(a.update({ t: 2, running: null, counts: { acc: { autovacuum: 6n, autoanalyze: 3n } } }),
    [{ t: 2, kind: 'autovacuum', table: 'acc' }])
})

test('counters that rise after their checkpoint was seen ending are not a new start', () => {
  const c = new CheckpointTracker()
  c.update(reading(0, { cp: 'idle' }))
  // the control file shows the end before the checkpointer's counters (one snapshot, two reads)
  const ev = c.update(reading(1, { lsn: 200n, epoch: 2000.5, cp: 'idle' }))
  assert.deepEqual(ev.map(e => e.kind), ['checkpoint-start', 'checkpoint-end'])
  // the counters of that checkpoint arrive with the next reading: nothing new
  assert.deepEqual(c.update(reading(2, { lsn: 200n, requested: 1n, buf: 99n, cp: 'idle' })), [])
  assert.equal(c.owed, 0)
  // a later request is a new checkpoint again
  assert.deepEqual(c.update(reading(3, { lsn: 200n, requested: 2n, buf: 150n })), [{ t: 3, kind: 'checkpoint-start', cause: 'requested' }])
  assert.deepEqual(c.update(reading(4, { lsn: 300n, requested: 2n, buf: 150n })), [{ t: 4, kind: 'checkpoint-end', cause: 'requested' }])
  assert.equal(c.owed, 0, 'its counters rose before its end: nothing owed')
})

test('a late counter rise larger than what is owed still marks a start', () => {
  const c = new CheckpointTracker()
  c.update(reading(0))
  c.update(reading(1, { lsn: 200n })) // one checkpoint ended, counters owed
  // two requests counted: the owed one and a new checkpoint under way
  assert.deepEqual(c.update(reading(2, { lsn: 200n, requested: 2n, buf: 10n })), [{ t: 2, kind: 'checkpoint-start', cause: 'requested' }])
})

test('a checkpoint busy at the window\'s first reading and the next is marked from the start, not from the second sample', () => {
  // the checkpointer already writing when the run began, no count in the window
  const c = new CheckpointTracker()
  assert.deepEqual(c.update(reading(0, { cp: 'busy', timed: 3n, buf: 100n })), [])
  assert.deepEqual(c.update(reading(1, { cp: 'busy', timed: 3n, buf: 140n })), [{ t: 0, kind: 'checkpoint-start', inProgressAtStart: true }])
  assert.deepEqual(c.update(reading(2, { cp: 'busy', timed: 3n, buf: 180n })), [])
  assert.deepEqual(c.update(reading(3, { cp: 'idle', timed: 3n, buf: 200n, lsn: 101n })), [{ t: 3, kind: 'checkpoint-end' }])
  assert.equal(c.owed, 0, 'it counted itself before the window')
  // so a later request is a start of its own
  assert.deepEqual(c.update(reading(4, { requested: 1n, buf: 210n, lsn: 101n })), [{ t: 4, kind: 'checkpoint-start', cause: 'requested' }])
})

test('a checkpoint ending in the window whose checkpoint_time is before it was in progress at the start', () => {
  const c = new CheckpointTracker()
  c.update(reading(0, { serverEpoch: 2000 }))
  c.update(reading(1, { serverEpoch: 2001 }))
  // ends at t=2; began at server time 1990, 10 s before the window opened
  const ev = c.update(reading(2, { lsn: 300n, epoch: 1990, serverEpoch: 2002 }))
  assert.deepEqual(ev, [
    { t: 1, kind: 'checkpoint-start', inferred: true, inProgressAtStart: true },
    { t: 2, kind: 'checkpoint-end' }
  ])
  // within checkpoint_time's whole second of the window's start: not said to be before it
  const d = new CheckpointTracker()
  d.update(reading(0, { serverEpoch: 2000 }))
  const ev2 = d.update(reading(1, { lsn: 300n, epoch: 1999.5, serverEpoch: 2001 }))
  assert.deepEqual(ev2[0], { t: 0, kind: 'checkpoint-start', inferred: true })
})

test('a count rise between the window\'s first reading and the next is a start in the window, even with a busy checkpointer', () => {
  const c = new CheckpointTracker()
  c.update(reading(0, { cp: 'busy' }))
  assert.deepEqual(c.update(reading(1, { cp: 'busy', requested: 1n, buf: 5n })), [{ t: 1, kind: 'checkpoint-start', cause: 'requested' }])
})
