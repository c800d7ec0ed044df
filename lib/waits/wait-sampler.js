// The wait sampler: every 1/hz s during the measured window, on a connection of its own, one read
// of pg_stat_activity for the run's own backends, each row joined on this side to what its
// connection was doing (lib/engine/activity-slots.js): the transaction type, the statement and
// the transaction's number, whose latency the terminal leaves in the slot when it ends.
// The reads run in one transaction: each alone would be a commit in pg_stat_database beside the
// run's own, 50 a second (a paced TPC-C run commits a few). The transaction's cached copy of
// pg_stat_activity is cleared before each read (pg_stat_clear_snapshot); between reads it holds no
// snapshot (READ COMMITTED, no xid), so it holds no vacuum back.

import { defineStatement } from '../db/connection.js'
import { PID, TYPE, STATEMENT, SEQ, WANT, DONE, SLOT_INTS, NOT_A_BACKEND } from '../engine/activity-slots.js'
import { WaitEventNames } from './classify.js'
import { waitClassOf, CPU_CLASS, IDLE_IN_TRANSACTION } from '../results/wait-classes.js'
import { IntervalClasses } from './interval-classes.js'
import { WaitTally, latencyBucket, NO_LATENCY, NO_STATEMENT } from './wait-tally.js'
import { closeWithin } from '../db/close-within.js'
import { SlowTags } from './slow-tags.js'

const ACTIVITY = defineStatement('select pid, state, wait_event_type, wait_event from pg_stat_activity where pid = any($1::int[])')
const CLEAR = defineStatement('select pg_stat_clear_snapshot()')
// reads without a row for any of the connections' pids (or failed, before any succeeded) before
// the sampler gives up
const UNMATCHED_READS = 5
// ms before a lost connection is opened again
const RECONNECT_AFTER_MS = 1000
// ms the reads' transaction lasts at most: a few commits a second of the sampler's own
const TRANSACTION_MS = 500
// ms the connection's polite close may take before its socket is destroyed
const CLOSE_MS = 250
const EXTENSION = "select exists (select 1 from pg_extension where extname = 'pg_wait_sampling')"

export class WaitSampler {
  /**
   * @param {object} p
   * @param {() => Promise<any>} p.openConnection the sampler's own connection (extended protocol, unnamed statements)
   * @param {import('../engine/activity-slots.js').ActivitySlots} p.activity the run's slots
   * @param {number} p.hz samples per second
   * @param {number} p.typeCount transaction types
   * @param {number} [p.intervalMs] the run's --interval: sessions by wait class are counted per interval
   * @param {number} [p.slowest] per type, the slowest sampled transactions whose samples are kept
   *   one by one (--explain-slowest); 0: none
   * @param {() => number} [p.nowMs] monotonic milliseconds
   */
  constructor ({ openConnection, activity, hz, typeCount, intervalMs = 0, slowest = 0, nowMs = () => performance.now() }) {
    this._open = openConnection
    this.activity = activity
    this.hz = hz
    this.nowMs = nowMs
    this.names = new WaitEventNames()
    this.tally = new WaitTally(typeCount)
    /** @type {SlowTags|null} the slowest sampled transactions' own samples */
    this.slowTags = slowest > 0 ? new SlowTags(typeCount, slowest) : null
    /** sampled sessions by wait class per interval, or null without an interval length */
    this.classes = intervalMs > 0 ? new IntervalClasses(intervalMs) : null
    this.conn = null
    /** pg_wait_sampling is installed (its history is not read: the source is pg_stat_activity) */
    this.pgWaitSampling = false
    this.ticks = { done: 0, skipped: 0, failed: 0 }
    this._reconnecting = null
    this._stopped = false
    this._transactionBeganMs = 0
    this.windowMs = 0
    this._timer = null
    this._busy = null
    this._beganMs = -1
    this._error = null
    this._inTransaction = false
    this._matched = false
    /** no row ever had one of the connections' pids: sampling stopped (a pooler between) */
    this.unmatched = false
    // what each slot ran when the read was sent: type, statement, sequence number
    this._pre = new Int32Array(activity.capacity * 3)
    // samples of a slot's transaction still waiting for its latency: [statement, event, ...]
    this._pending = Array.from({ length: activity.capacity }, () => [])
    this._pendingSeq = new Int32Array(activity.capacity)
    this._pids = []
    this._pidsText = '{}'
    /** @type {Map<number, number>} backend pid -> slot */
    this._slotOf = new Map()
    /** slots whose connection's key is no server backend's pid (a pooler's) */
    this._notBackends = 0
  }

  /** Open the connection and prepare the read; throws when the server refuses. */
  async start () {
    this.conn = await this._connect()
    const r = await this.conn.simpleQuery(EXTENSION)
    this.pgWaitSampling = r.rows[0]?.[0] === 't' || r.rows[0]?.[0] === true
  }

  async _connect () {
    const conn = await this._open()
    await conn.prepare(ACTIVITY)
    await conn.prepare(CLEAR)
    // the reads' transaction lasts the window, idle between reads: no server limit may end it
    await conn.simpleQuery('SET idle_in_transaction_session_timeout = 0')
    await conn.simpleQuery('SET transaction_timeout = 0').catch(() => {}) // PostgreSQL 17+
    return conn
  }

  /**
   * The connection was lost (a restart, a failover): a new one, a moment later and never two
   * attempts at once; the reads in between fail and are counted.
   */
  _reconnectLater () {
    const lost = this.conn
    this.conn = null
    this._inTransaction = false
    lost?.close().catch(() => {})
    if (this._reconnecting) return
    this._reconnecting = new Promise((resolve) => setTimeout(resolve, RECONNECT_AFTER_MS).unref())
      .then(() => this._stopped ? null : this._connect())
      .then((conn) => { if (conn && this._stopped) conn.close().catch(() => {}); else if (conn) this.conn = conn }, () => {})
      .finally(() => { this._reconnecting = null })
  }

  /** The measured window opens: sample until stop(). */
  begin () {
    if (this.conn === null || this._timer !== null || this._beganMs >= 0) return
    this._beganMs = this.nowMs()
    this._timer = setInterval(() => this.tick(), 1000 / this.hz)
    this._timer.unref()
  }

  /**
   * The window closes: no more ticks. Settles once the read in flight has; unbounded, so the
   * caller bounds it (a silent server's read is given up by abandon()).
   */
  async stop () {
    this._stopTimer()
    if (this._busy !== null) await this._busy
  }

  _stopTimer () {
    if (this._timer === null) return
    clearInterval(this._timer)
    this._timer = null
    this.windowMs = this.nowMs() - this._beganMs
  }

  /** One sample of every connection; a tick due while the last still runs is skipped and counted. */
  tick () {
    if (this._busy !== null) { this.ticks.skipped++; return null }
    this._busy = this._sample().finally(() => { this._busy = null })
    return this._busy
  }

  async _sample () {
    this._resolvePending()
    this._snapshot()
    const sentMs = this.nowMs()
    let rows
    if (this.conn === null) { this.ticks.failed++; return }
    try {
      if (!this._inTransaction) {
        await this.conn.simpleQuery('BEGIN')
        this._inTransaction = true
        this._transactionBeganMs = this.nowMs()
      }
      // both sent at once, answered in order: one round trip
      rows = (await Promise.all([this.conn.execute(CLEAR), this.conn.execute(ACTIVITY, [this._pidsText])]))[1].rows
    } catch (err) {
      this.ticks.failed++
      this._error ??= err
      if (this.conn.broken || this.conn.closed) return this._reconnectLater()
      if (this._inTransaction && this.conn !== null) {
        this._inTransaction = false
        await this.conn.simpleQuery('ROLLBACK').catch(() => {})
      }
      // never read at all: the server refuses the read, no use trying 50 times a second
      if (this.ticks.done === 0 && this.ticks.failed >= UNMATCHED_READS) this._stopTimer()
      return
    }
    this.ticks.done++
    const ints = this.activity.ints
    const seen = new Set()
    const counts = this.classes?.read(sentMs - this._beganMs)
    for (const row of rows) {
      const pid = Number(row[0])
      const slot = this._slotOf.get(pid)
      if (slot === undefined) continue
      seen.add(slot)
      const event = this.names.classify(row[1], row[2], row[3])
      if (counts !== undefined) this._countClass(counts, row[1], row[2], event)
      this._attribute(slot, event, row[1], ints)
    }
    for (const slot of this._slotOf.values()) if (!seen.has(slot)) this.tally.gone++
    if (seen.size > 0) this._matched = true
    else if (!this._matched && this._slotOf.size + this._notBackends > 0 && this.ticks.done >= UNMATCHED_READS) await this._giveUp()
    // the reads share a transaction (the database's commits stay the run's), but not for long: a
    // transaction open for the whole window would hold up whatever waits for the transactions
    // older than it (REINDEX or CREATE INDEX CONCURRENTLY in a script)
    if (this._inTransaction && this.nowMs() - this._transactionBeganMs >= TRANSACTION_MS) {
      this._inTransaction = false
      await this.conn.simpleQuery('COMMIT').catch(() => {})
    }
  }

  // A row as an active session of its interval: its class, and its wait event when it waits.
  _countClass (counts, state, waitType, event) {
    const cls = waitClassOf(state, waitType)
    if (cls === null) return
    this.classes.add(counts, cls, cls === CPU_CLASS || cls === IDLE_IN_TRANSACTION ? null : event)
  }

  // No row ever had a connection's pid: the pids are not the server's backends (a pooler such as
  // PgBouncer hands out keys of its own). Stop, and end the reads' transaction, which a pooler in
  // transaction mode would otherwise keep one of its server connections for.
  async _giveUp () {
    this.unmatched = true
    this._stopTimer()
    if (this._inTransaction) {
      this._inTransaction = false
      await this.conn?.simpleQuery('COMMIT').catch(() => {})
    }
  }

  // What every slot runs as the read is sent; each transaction running is asked for its latency.
  _snapshot () {
    const ints = this.activity.ints
    this._mapPids(ints)
    const pre = this._pre
    for (const slot of this._slotOf.values()) {
      const base = slot * SLOT_INTS
      const type = ints[base + TYPE]
      pre[slot * 3] = type
      pre[slot * 3 + 1] = ints[base + STATEMENT]
      pre[slot * 3 + 2] = ints[base + SEQ]
      if (type >= 0) ints[base + WANT] = ints[base + SEQ]
    }
  }

  // The backends of the slots now (connections come and go: a reconnect, -C, another thread's).
  _mapPids (ints) {
    const pids = this._pids
    let n = 0
    let changed = false
    this._slotOf.clear()
    this._notBackends = 0
    for (let slot = 0; slot < this.activity.capacity; slot++) {
      const pid = ints[slot * SLOT_INTS + PID]
      if (pid === NOT_A_BACKEND) this._notBackends++
      if (pid <= 0) continue
      this._slotOf.set(pid, slot)
      if (pids[n] !== pid) { pids[n] = pid; changed = true }
      n++
    }
    if (changed || pids.length !== n) {
      pids.length = n
      this._pidsText = `{${pids.join(',')}}`
    }
  }

  /**
   * A row's event joined to what its connection ran from the read's sending to its reply: the
   * transaction when it was the same at both ends, its statement when that was too. When the
   * connection went from one transaction to the next meanwhile, a backend running a statement was
   * serving one of them (of the type, when both were of one type); an idle one may have been
   * between them, which is no transaction's server time. A backend idle outside any transaction
   * while the client's transaction has not ended (its reply on the way, the client between two
   * statements of its own) is time outside the server.
   */
  _attribute (slot, event, state, ints) {
    const t = this.tally
    if (event === null) { t.hidden++; return }
    const base = slot * SLOT_INTS
    const pre = this._pre
    const type = pre[slot * 3]
    const seq = pre[slot * 3 + 2]
    const sameTxn = ints[base + SEQ] === seq && ints[base + TYPE] === type
    if (type < 0 && sameTxn) { t.idle++; return }
    if (state === 'idle') { if (sameTxn) t.outside++; else t.moved++; return }
    if (!sameTxn) {
      if (state === 'active' && type >= 0 && ints[base + TYPE] === type) t.add(type, NO_STATEMENT, event, NO_LATENCY)
      else t.moved++
      return
    }
    const statement = ints[base + STATEMENT] === pre[slot * 3 + 1] ? pre[slot * 3 + 1] : NO_STATEMENT
    const pending = this._pending[slot]
    if (pending.length > 0 && this._pendingSeq[slot] !== seq) this._resolve(slot, NO_LATENCY)
    this._pendingSeq[slot] = seq
    pending.push(type, statement, event)
  }

  // Samples of transactions that have ended since: counted with their transaction's latency.
  _resolvePending () {
    const ints = this.activity.ints
    for (let slot = 0; slot < this._pending.length; slot++) {
      if (this._pending[slot].length === 0) continue
      const base = slot * SLOT_INTS
      const seq = this._pendingSeq[slot]
      if (ints[base + SEQ] === seq && ints[base + TYPE] >= 0 && ints[base + PID] > 0) continue // still running
      if (ints[base + DONE] !== seq) { this._resolve(slot, NO_LATENCY); continue }
      const latencyUs = this.activity.latencyUs[slot]
      this.slowTags?.offer(slot, seq, latencyUs, this._pending[slot])
      this._resolve(slot, latencyBucket(latencyUs))
    }
  }

  _resolve (slot, bucket) {
    const pending = this._pending[slot]
    for (let i = 0; i < pending.length; i += 3) this.tally.add(pending[i], pending[i + 1], pending[i + 2], bucket)
    pending.length = 0
  }

  /**
   * After the run: the read in flight and the reads' COMMIT waited for, every sample counted, the
   * connection closed. Unbounded: the caller bounds it and calls abandon() past its bound.
   * @returns {Promise<{ tally: WaitTally, error: Error|null }>}
   */
  async finish () {
    await this.stop()
    if (this._inTransaction && this.conn !== null) {
      this._inTransaction = false
      await this.conn.simpleQuery('COMMIT').catch(() => {})
    }
    this.abandon()
    return this.counted()
  }

  /**
   * The counts so far, every sample waiting for its transaction's latency counted without it:
   * what finish() returns, and what there is once it was abandoned.
   * @returns {{ tally: WaitTally, error: Error|null }}
   */
  counted () {
    this._resolvePending()
    for (let slot = 0; slot < this._pending.length; slot++) if (this._pending[slot].length > 0) this._resolve(slot, NO_LATENCY)
    return { tally: this.tally, error: this._error }
  }

  /** Stop without waiting: the timer cleared, the connection closed in the background. */
  abandon () {
    this._stopped = true
    if (this._timer !== null) { clearInterval(this._timer); this._timer = null }
    const conn = this.conn
    this.conn = null
    // bounded: past it the socket is destroyed, so a silent server cannot keep the process alive
    if (conn) closeWithin(conn, CLOSE_MS).catch(() => {})
  }
}
