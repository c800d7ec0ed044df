// Turns successive server readings into run markers: checkpoint start/end and autovacuum or
// autoanalyze on a workload table. Pure state machines over readings, so they are unit-tested.
//
// Checkpoints. The end is exact at sample resolution: pg_control_checkpoint() (readable by any
// role) changes its checkpoint_lsn only when a checkpoint completes, and its checkpoint_time is
// when that checkpoint began (second resolution, server clock). The start is seen as it happens
// when the checkpointer is visible in pg_stat_activity away from its idle wait (CheckpointerMain)
// with buffers being written, or when the requested counter rises before the end (spread
// checkpoints report interim statistics); a timed counter rise alone is not a start, because
// skipped timed checkpoints (no WAL since the last one) count too. A checkpoint that starts and
// ends between two samples (CHECKPOINT is usually that quick) gets its start from checkpoint_time,
// clamped to the previous sample. The checkpointer reports its counters just after it updates the
// control file, and a reading may take its statistics snapshot before its control-file read: an
// end seen before its counters rose is owed them, and their later rise is not a new start.
// The first reading is the window's start (the baseline): a checkpoint seen busy there and at the
// next reading without a new count, or ending with a checkpoint_time before the window, was
// already running when the window opened; it is marked from the window's start and flagged.

import { round3 } from '../../format/round.js'

/**
 * @typedef {{ t: number, kind: string, table?: string, cause?: string, inferred?: boolean,
 *   inProgressAtStart?: boolean, beganS?: number }} StatsEvent
 */

// pg_control_checkpoint()'s checkpoint_time has whole seconds: a start inferred from it is only
// known to be before the window when it is more than this before.
const CHECKPOINT_TIME_RESOLUTION_S = 1

export class CheckpointTracker {
  constructor () {
    this.last = null // previous reading
    this.pending = null // { t, cause } of a start already emitted, awaiting its end
    this.owed = 0 // checkpoints seen ending whose counters have not risen yet
    this.windowStartT = null // t of the first reading, the window's start
  }

  /**
   * @param {{ t: number, prevT: number|null, control?: { lsn: bigint|null, epoch: number|null }|null,
   *   serverEpoch?: number|null, counters?: { timed: bigint|null, requested: bigint|null, buffersWritten: bigint|null }|null,
   *   checkpointer?: 'busy'|'idle'|null }} r
   * @returns {StatsEvent[]}
   */
  update (r) {
    const events = []
    const last = this.last
    this.last = r
    if (!last) {
      this.windowStartT = r.t
      return events
    }
    const atWindowStart = last.t === this.windowStartT
    const up = (k) => r.counters?.[k] !== null && r.counters?.[k] !== undefined &&
      last.counters?.[k] !== null && last.counters?.[k] !== undefined && r.counters[k] > last.counters[k]
    const reqUp = up('requested')
    const timedUp = up('timed')
    const buffersUp = up('buffersWritten')
    const cause = reqUp ? 'requested' : timedUp ? 'timed' : undefined
    const ended = r.control?.lsn !== null && r.control?.lsn !== undefined &&
      last.control?.lsn !== null && last.control?.lsn !== undefined && r.control.lsn !== last.control.lsn

    if (ended) {
      // (one running at the window's start counted itself before the window: nothing owed)
      if (!reqUp && !timedUp && this.pending?.cause === undefined && !this.pending?.atStart) this.owed++
      if (this.pending) {
        events.push(withCause({ t: r.t, kind: 'checkpoint-end' }, this.pending.cause ?? cause))
      } else {
        let startT = r.t
        if (r.control.epoch !== null && r.control.epoch !== undefined && r.serverEpoch !== null && r.serverEpoch !== undefined) {
          startT = r.t - Math.max(0, r.serverEpoch - r.control.epoch)
        }
        const beforeWindow = startT < this.windowStartT - CHECKPOINT_TIME_RESOLUTION_S
        if (r.prevT !== null && r.prevT !== undefined) startT = Math.max(startT, r.prevT)
        startT = Math.max(Math.min(startT, r.t), this.windowStartT)
        const start = withCause({ t: round3(startT), kind: 'checkpoint-start', inferred: true }, cause)
        if (beforeWindow) start.inProgressAtStart = true
        events.push(start)
        events.push(withCause({ t: r.t, kind: 'checkpoint-end' }, cause))
      }
      this.pending = null
      return events
    }
    if (this.pending) return events
    if (this.owed > 0 && (reqUp || timedUp)) {
      // the late counters of checkpoints already ended (their buffers come with them)
      const rise = Number((reqUp ? r.counters.requested - last.counters.requested : 0n) +
        (timedUp ? r.counters.timed - last.counters.timed : 0n))
      const settled = Math.min(rise, this.owed)
      this.owed -= settled
      if (rise <= settled) return events
    }
    const busy = r.checkpointer === 'busy'
    if (busy && atWindowStart && last.checkpointer === 'busy' && !reqUp && !timedUp) {
      this.pending = { t: this.windowStartT, atStart: true }
      events.push({ t: this.windowStartT, kind: 'checkpoint-start', inProgressAtStart: true })
      return events
    }
    if (reqUp || (timedUp && buffersUp) || (busy && (buffersUp || last.checkpointer === 'busy'))) {
      this.pending = { t: r.t, cause }
      events.push(withCause({ t: r.t, kind: 'checkpoint-start' }, cause))
    }
    return events
  }
}

/**
 * Autovacuum and autoanalyze on the workload's tables: seen running in
 * pg_stat_progress_vacuum/analyze (needs visibility of the worker: superuser or
 * pg_read_all_stats), or, failing that, from autovacuum_count/autoanalyze_count rising.
 * One marker per run of a worker on a table.
 */
export class AutovacuumTracker {
  constructor () {
    this.running = new Set() // 'kind\ttable' seen running at the previous sample
    this.seen = new Map() // 'kind\ttable' -> runs marked from activity not yet matched by a count rise
    this.lastCounts = null // table -> { autovacuum: bigint, autoanalyze: bigint }
  }

  /**
   * @param {{ t: number, running?: { kind: 'autovacuum'|'autoanalyze', table: string }[]|null,
   *   counts?: Record<string, { autovacuum: bigint|null, autoanalyze: bigint|null }>|null }} r
   * @returns {StatsEvent[]}
   */
  update (r) {
    const events = []
    if (r.running) {
      const now = new Set()
      for (const { kind, table } of r.running) {
        const key = kind + '\t' + table
        now.add(key)
        if (!this.running.has(key)) {
          events.push({ t: r.t, kind, table })
          this.seen.set(key, (this.seen.get(key) ?? 0) + 1)
        }
      }
      this.running = now
    }
    if (r.counts) {
      if (this.lastCounts) {
        for (const [table, c] of Object.entries(r.counts)) {
          const before = this.lastCounts[table]
          if (!before) continue
          for (const kind of ['autovacuum', 'autoanalyze']) {
            if (c[kind] === null || before[kind] === null || c[kind] <= before[kind]) continue
            let rises = Number(c[kind] - before[kind])
            const key = kind + '\t' + table
            const marked = this.seen.get(key) ?? 0
            const matched = Math.min(marked, rises)
            rises -= matched
            if (marked - matched > 0) this.seen.set(key, marked - matched)
            else this.seen.delete(key)
            if (rises > 0) events.push({ t: r.t, kind, table })
          }
        }
      }
      this.lastCounts = r.counts
    }
    return events
  }
}

function withCause (event, cause) {
  if (cause) event.cause = cause
  return event
}
