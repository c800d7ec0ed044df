// Deferred Delivery (clause 2.7.2): the terminal only queues the request; delivery workers on
// their own connections process the ten districts and record queue-to-completion time
// (90 % must complete within 80 s).

import { classifySqlState } from '../../lib/errors.js'
import { createHistogram, recordUs, latencySummaryMs, encodeHistogram, decodeHistogram, addInto } from '../../lib/metrics/histogram.js'
import { deliverWarehouse } from './transactions/delivery.js'
import { ROLLBACK } from './transactions/common.js'

const LIMIT_US = 80e6 // clause 2.7.2.2: 90 % within 80 s
const MAX_TRIES = 10 // serialization failures and deadlocks
const IDLE_CLOSE_MS = 5000 // a worker closes its connection after this long without work

/**
 * A FIFO of deferred deliveries served by a few workers. Connections are opened on demand and
 * closed when idle, so that nothing is left open if a run ends without drain().
 */
export class DeliveryQueue {
  /**
   * @param {{ open: () => Promise<any>, workers: number, nowUs: () => number, log?: any }} opts
   */
  constructor ({ open, workers, nowUs, log }) {
    this.open = open
    this.workerCount = workers
    this.nowUs = nowUs
    this.log = log
    this.items = [] // [w, carrier, queuedUs] triples, consumed from head
    this.head = 0
    this.active = 0
    this.queued = 0
    this.completed = 0
    this.failed = 0
    this.retries = 0
    this.skippedDistricts = 0
    this.within = 0
    this.hist = createHistogram()
    this.errors = new Map()
    this._idle = []
    this._drainWaiters = []
  }

  /** Items waiting to be processed. */
  get pending () { return (this.items.length - this.head) / 3 }

  /**
   * Queue one delivery; returns at once.
   * @param {number} w @param {number} carrier
   */
  enqueue (w, carrier) {
    this.items.push(w, carrier, this.nowUs())
    this.queued++
    if (this.active < this.workerCount) {
      this.active++
      this._work().catch(err => this.log?.error?.({ err: err.message }, 'delivery worker failed'))
    }
  }

  async _work () {
    const parked = this._idle.pop()
    if (parked) clearTimeout(parked.timer)
    let conn = parked?.conn ?? null
    try {
      while (this.head < this.items.length) {
        const w = this.items[this.head]
        const carrier = this.items[this.head + 1]
        const queuedUs = this.items[this.head + 2]
        this.head += 3
        if (this.head > 3000 && this.head * 2 > this.items.length) { this.items = this.items.slice(this.head); this.head = 0 }
        conn ??= await this.open()
        conn = await this._deliver(conn, w, carrier, queuedUs)
      }
    } finally {
      this.active--
      if (conn) this._park(conn)
      if (this.active === 0 && this.head >= this.items.length) for (const r of this._drainWaiters.splice(0)) r()
    }
  }

  async _deliver (conn, w, carrier, queuedUs) {
    for (let attempt = 1; ; attempt++) {
      try {
        this.skippedDistricts += await deliverWarehouse(conn, w, carrier)
        const us = this.nowUs() - queuedUs
        recordUs(this.hist, us)
        if (us <= LIMIT_US) this.within++
        this.completed++
        return conn
      } catch (err) {
        const kind = classifySqlState(err.code)
        if (kind === 'connection') {
          await conn.close().catch(() => {})
          conn = await this.open()
        } else if (conn.transactionStatus !== 'I') {
          await conn.execute(ROLLBACK).catch(() => {})
        }
        if (kind !== 'other' && attempt < MAX_TRIES) { this.retries++; continue }
        this.failed++
        const code = err.code ?? 'ERROR'
        this.errors.set(code, (this.errors.get(code) ?? 0) + 1)
        this.log?.warn?.({ err: err.message, w }, 'deferred delivery failed')
        return conn
      }
    }
  }

  _park (conn) {
    const entry = { conn, timer: null }
    entry.timer = setTimeout(() => {
      const i = this._idle.indexOf(entry)
      if (i >= 0) this._idle.splice(i, 1)
      conn.close().catch(() => {})
    }, IDLE_CLOSE_MS)
    entry.timer.unref()
    this._idle.push(entry)
  }

  /**
   * Wait until the queue is empty (or timeoutMs passes), then close idle connections.
   * @param {number} timeoutMs
   * @returns {Promise<boolean>} whether everything was processed
   */
  async drain (timeoutMs) {
    if (this.active > 0 || this.head < this.items.length) {
      let timer
      await Promise.race([
        new Promise(resolve => this._drainWaiters.push(resolve)),
        new Promise(resolve => { timer = setTimeout(resolve, timeoutMs); timer.unref() })
      ])
      clearTimeout(timer)
    }
    for (const e of this._idle.splice(0)) { clearTimeout(e.timer); await e.conn.close().catch(() => {}) }
    return this.active === 0 && this.head >= this.items.length
  }

  /** Figures for the results document. */
  summary () {
    return deliverySummary([this.partFigures()], this.hist)
  }

  /** This queue's counts and encoded histogram: a worker thread's part, to be merged. */
  partFigures () {
    return {
      queued: this.queued,
      completed: this.completed,
      pending: this.pending,
      failed: this.failed,
      retries: this.retries,
      errors: Object.fromEntries(this.errors),
      skippedDistricts: this.skippedDistricts,
      workers: this.workerCount,
      within: this.within,
      histogram: encodeHistogram(this.hist)
    }
  }
}

/**
 * The deferred Delivery figures of one queue, or of the queues of several worker threads: counts
 * added, queue-to-completion times from the added histograms.
 * @param {ReturnType<DeliveryQueue['partFigures']>[]} parts
 * @param {import('../../lib/metrics/histogram.js').Histogram} [one] the one queue's own histogram
 *   (decoding widens min and max to their buckets' edges)
 */
export function deliverySummary (parts, one) {
  let hist = one
  if (!hist) {
    hist = createHistogram()
    for (const p of parts) addInto(hist, decodeHistogram(p.histogram))
  }
  const within = parts.reduce((a, p) => a + p.within, 0)
  return { ...deliveryCounts(parts, within), queueToCompletionMs: latencySummaryMs(hist) }
}

/**
 * The counts of deferred Delivery over queues, added, and the share completed within 80 s
 * (clause 2.7.2.2: at least 90 %); `within` is how many of them completed within 80 s.
 * @param {{ queued: number, completed: number, pending: number, failed: number, retries: number,
 *   errors?: Record<string, number>, skippedDistricts: number, workers: number }[]} parts
 * @param {number} within
 */
export function deliveryCounts (parts, within) {
  const sum = (k) => parts.reduce((a, p) => a + (Number.isFinite(p[k]) ? p[k] : 0), 0)
  const errors = {}
  for (const p of parts) for (const [k, v] of Object.entries(p.errors ?? {})) errors[k] = (errors[k] ?? 0) + v
  const completed = sum('completed')
  return {
    queued: sum('queued'),
    completed,
    pending: sum('pending'),
    failed: sum('failed'),
    retries: sum('retries'),
    errors,
    skippedDistricts: sum('skippedDistricts'),
    workers: sum('workers'),
    within80sPct: completed > 0 ? Math.round(10000 * within / completed) / 100 : null,
    pass: completed > 0 ? within / completed >= 0.9 : null
  }
}
