// One sample's derived figures: its series entry (rates against the previous reading), the checkpoint tracker's input, and whether the workload's counters still move.

import { DATABASE_COUNTERS, counterDelta, ratePerS } from './counters.js'
import { ioRates } from './io.js'

const TUPLES = ['tupReturned', 'tupFetched', 'tupInserted', 'tupUpdated', 'tupDeleted']

// Counters our own readings do not move (they do touch blocks and tuples of the catalogs).
const SETTLE_COUNTERS = new Set(['xactRollback', 'blksRead', 'tupInserted', 'tupUpdated', 'tupDeleted', 'tempFiles', 'deadlocks'])

/**
 * The series entry of a reading: per-second rates since the previous reading (the sampler's own
 * transactions left out) and the backends' activity.
 * @param {number} t run time (s) of the reading
 * @param {object} prev the previous reading
 * @param {object} snap this reading
 * @returns {object} the series entry
 */
export function seriesEntry (t, prev, snap) {
  const dt = (snap.atMs - prev.atMs) / 1000
  const d = (k) => counterDelta(prev.db?.[k], snap.db?.[k])
  let commits = d('xactCommit')
  if (commits !== null) commits = Math.max(0, commits - (snap.own.commits - prev.own.commits))
  let rollbacks = d('xactRollback')
  if (rollbacks !== null) rollbacks = Math.max(0, rollbacks - (snap.own.rollbacks - prev.own.rollbacks))
  const tup = TUPLES.map(d)
  const a = snap.activity
  return {
    t,
    walBytesPerS: ratePerS(counterDelta(prev.walLsn, snap.walLsn), dt),
    xactCommitPerS: ratePerS(commits, dt),
    xactRollbackPerS: ratePerS(rollbacks, dt),
    blksReadPerS: ratePerS(d('blksRead'), dt),
    blksHitPerS: ratePerS(d('blksHit'), dt),
    tuplesPerS: ratePerS(tup.includes(null) ? null : tup.reduce((x, y) => x + y, 0), dt),
    ioPerS: ioRates(prev.io, snap.io, dt),
    backends: a?.backends ?? null,
    waitEvents: a?.waitEvents ?? null,
    lockWaits: a?.lockWaits ?? null,
    autovacuumWorkers: a?.autovacuumWorkers ?? null
  }
}

/**
 * The checkpoint tracker's input from a reading.
 * @param {number} t run time (s) of the reading
 * @param {number|null} prevT run time of the previous sample, if any
 * @param {object} snap the reading
 * @returns {object}
 */
export function trackerReading (t, prevT, snap) {
  return { t, prevT, control: snap.control, serverEpoch: snap.serverEpoch, counters: snap.checkpoints, checkpointer: snap.activity?.checkpointer ?? null }
}

/**
 * Whether the workload's counters moved between two readings (the sampler's own commits left out).
 * @param {object} last the earlier reading
 * @param {object} cur the later reading
 * @returns {boolean}
 */
export function countersMoved (last, cur) {
  return workloadCommits(last, cur) > 0 ||
    DATABASE_COUNTERS.some(([k]) => SETTLE_COUNTERS.has(k) && cur.db?.[k] !== last.db?.[k])
}

function workloadCommits (a, b) {
  const d = counterDelta(a.db?.xactCommit, b.db?.xactCommit)
  return d === null ? 0 : d - (b.own.commits - a.own.commits)
}
