// Database connections shared by terminals. A terminal borrows one only while a transaction
// runs; waiters queue FIFO in a ring buffer (O(1), no Array#shift).

import { closeWithin } from '../db/close-within.js'
import { CLOSE_MS } from './after-run.js'

/** @typedef {import('../db/connection.js').PgConnection} Connection */

const DEAD = { close: async () => {} }
// How many backend pids of connections closed during the run are remembered (see closedPids).
const RECENT_PIDS = 64

export class ConnectionPool {
  /**
   * @param {{ open: () => Promise<Connection>, size: number, statements?: any[], connectPerTransaction?: boolean,
   *   activity?: import('./activity-slots.js').ActivitySlots }} opts
   *   activity: each connection takes a slot there as it opens and gives it back as it closes
   */
  constructor ({ open, size, statements = [], connectPerTransaction = false, activity = undefined }) {
    this._open = open
    // pgbench -C: every transaction opens (and prepares on) a connection of its own
    this.connectPerTransaction = connectPerTransaction
    this.size = connectPerTransaction ? 0 : size
    /** time spent opening connections for transactions (-C), microseconds, and how many */
    this.connectUs = 0
    this.connects = 0
    this._statements = statements
    /** @type {Connection[]} */
    this._idle = []
    /** @type {Connection[]} */
    this.all = []
    this._waiters = new Array(16)
    this._head = 0
    this._count = 0
    this.closed = false
    /** when replacing connections started failing (performance.now() ms), 0 when healthy */
    this.failingSinceMs = 0
    /** @type {((err: Error, failingForMs: number) => void) | null} */
    this.onOpenError = null
    /** @type {((err: Error, stmt: any) => void) | null} */
    this.onPrepareError = null
    /** @type {((notice: any) => void) | null} server NOTICE/WARNING messages on any connection */
    this.onNotice = null
    /** @type {((err: Error, waiter: any) => void) | null} -C: a transaction's connection failed */
    this.onConnectFailure = null
    this._activity = activity ?? null
    this._recentPids = new Int32Array(RECENT_PIDS)
    this._recentCount = 0
  }

  /** Connections currently lent out. */
  get active () { return this.all.length - this._idle.length }
  /** Terminals waiting for a connection. */
  get waiting () { return this._count }

  /**
   * Open every connection (in parallel batches) and prepare the workload's statements.
   * @returns {Promise<number>} elapsed milliseconds (pgbench's "initial connection time")
   */
  async fill () {
    const t0 = performance.now()
    const batch = 16
    for (let i = 0; i < this.size; i += batch) {
      const n = Math.min(batch, this.size - i)
      const opened = await Promise.allSettled(Array.from({ length: n }, () => this._openOne()))
      for (const r of opened) if (r.status === 'fulfilled') { this.all.push(r.value); this._idle.push(r.value) }
      const failed = opened.find((r) => r.status === 'rejected')
      if (failed) {
        // Leave no socket open behind a failed start, or the process would never exit.
        await this.close()
        throw failed.reason
      }
    }
    return performance.now() - t0
  }

  async _openOne () {
    const conn = await this._open()
    if (this.onNotice) conn.onNotice = this.onNotice
    for (const stmt of this._statements) {
      try {
        await conn.prepare(stmt)
      } catch (err) {
        if (err?.code === 'CONNECTION_LOST') { await conn.close().catch(() => {}); throw err }
        // As pgbench: a statement that does not prepare is reported, and fails when executed.
        this.onPrepareError?.(err, stmt)
      }
    }
    this._activity?.bind(conn)
    return conn
  }

  /**
   * A free connection now, or null (then call `wait`).
   * @returns {Connection|null}
   */
  tryAcquire () {
    return this._idle.length > 0 ? this._idle.pop() : null
  }

  /**
   * Queue for the next free connection.
   * @param {{ onConnection(conn: Connection): void }} waiter
   */
  wait (waiter) {
    if (this.connectPerTransaction) return this._connectFor(waiter)
    if (this._count === this._waiters.length) this._grow()
    this._waiters[(this._head + this._count) % this._waiters.length] = waiter
    this._count++
  }

  /**
   * Give a connection back: straight to the first waiter, else to the idle stack.
   * A broken connection is replaced in the background.
   * @param {Connection} conn
   */
  release (conn) {
    if (this.connectPerTransaction) {
      const i = this.all.indexOf(conn)
      if (i >= 0) this.all.splice(i, 1)
      this._discard(conn)
      return
    }
    if (conn.broken || conn.closed) {
      this._replace(conn)
      return
    }
    if (this._count > 0) {
      const waiter = this._waiters[this._head]
      this._waiters[this._head] = undefined
      this._head = (this._head + 1) % this._waiters.length
      this._count--
      waiter.onConnection(conn)
      return
    }
    this._idle.push(conn)
  }

  _replace (conn) {
    const i = this.all.indexOf(conn)
    if (i >= 0) this.all.splice(i, 1)
    this._discard(conn)
    if (this.closed) return
    this._openOne().then((fresh) => {
      // the first connection re-opened after failures: the server (or a new primary) is back
      if (this.failingSinceMs !== 0) this.onReopened?.(performance.now() - this.failingSinceMs)
      this.failingSinceMs = 0
      if (this.closed) { fresh.close().catch(() => {}); return }
      this.all.push(fresh)
      this.release(fresh)
    }, (err) => {
      // The server is gone or refusing: say so (the run decides when to give up) and try again
      // shortly, without a tight loop.
      if (this.failingSinceMs === 0) this.failingSinceMs = performance.now()
      this.onOpenError?.(err, performance.now() - this.failingSinceMs)
      if (!this.closed) setTimeout(() => this._replace(DEAD), 500).unref()
    })
  }

  _connectFor (waiter) {
    const t0 = performance.now()
    this._openOne().then((conn) => {
      this.connectUs += (performance.now() - t0) * 1000
      this.connects++
      if (this.closed) { conn.close().catch(() => {}); waiter.onConnection(null); return }
      this.all.push(conn)
      waiter.onConnection(conn)
    }, (err) => {
      this.onConnectFailure?.(err, waiter)
      waiter.onConnection(null)
    })
  }

  /** Wake every queued waiter without a connection (the run is ending). */
  failWaiters () {
    while (this._count > 0) {
      const waiter = this._waiters[this._head]
      this._waiters[this._head] = undefined
      this._head = (this._head + 1) % this._waiters.length
      this._count--
      waiter.onConnection(null)
    }
  }

  _grow () {
    const bigger = new Array(this._waiters.length * 2)
    for (let i = 0; i < this._count; i++) bigger[i] = this._waiters[(this._head + i) % this._waiters.length]
    this._waiters = bigger
    this._head = 0
  }

  // Close a connection during the run, remembering its backend.
  _discard (conn) {
    const pid = conn.backendPid
    if (pid > 0) this._recentPids[this._recentCount++ % RECENT_PIDS] = pid
    this._activity?.unbind(conn)
    closeWithin(conn, CLOSE_MS)
  }

  /**
   * After close(): backend pids of the connections it closed (`all` keeps them) and of the last
   * ones closed before (pgbench -C closes one per transaction). A backend publishes its last
   * statistics as it exits, after its socket is closed: the server statistics wait for these
   * before their final reading.
   * @returns {number[]}
   */
  get closedPids () {
    const recent = this._recentPids.subarray(0, Math.min(this._recentCount, RECENT_PIDS))
    return [...new Set([...this.all.map((c) => c.backendPid).filter((pid) => pid > 0), ...recent])]
  }

  /**
   * Close every connection: politely, each within `timeoutMs`, then by destroying its socket.
   * @param {{ timeoutMs?: number }} [opts] 0: destroy every socket at once
   */
  async close ({ timeoutMs = CLOSE_MS } = {}) {
    this.closed = true
    await Promise.all(this.all.map((c) => closeWithin(c, timeoutMs)))
  }
}
