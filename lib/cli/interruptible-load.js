// Ctrl-C during `init`: cancel the load's running statements on the server, refuse any further
// ones, and remember what the load was doing, so `init` can say what it left behind.

import { PgloadError } from '../errors.js'

const GUARDED = new Set(['simpleQuery', 'query', 'execute', 'copyFrom'])

/** The connections of one load, and whether (and during what) it was interrupted. */
export class InterruptibleLoad {
  /**
   * @param {{ target: any, openConnection: (target: any, opts?: object) => Promise<any>, signal?: AbortSignal }} opts
   */
  constructor ({ target, openConnection, signal }) {
    this.target = target
    this.open = openConnection
    /** @type {Set<any>} connections whose statements a Ctrl-C cancels */
    this.conns = new Set()
    this.interrupted = false
    this.step = ''
    this.detail = ''
    this.cancelled = null
    if (signal) {
      if (signal.aborted) this.interrupt()
      else signal.addEventListener('abort', () => this.interrupt(), { once: true })
    }
  }

  /**
   * A connection whose statements fail once the load is interrupted.
   * @template T
   * @param {T} conn
   * @returns {T}
   */
  wrap (conn) {
    this.conns.add(conn)
    return new Proxy(conn, {
      get: (target, prop) => {
        const value = Reflect.get(target, prop, target)
        if (!GUARDED.has(prop) || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value
        return (...args) => {
          if (this.interrupted) throw new PgloadError('init interrupted', { code: 'INTERRUPTED', exitCode: 130 })
          return value.apply(target, args)
        }
      }
    })
  }

  /**
   * Open a connection of the load (the loader's extra COPY connections), guarded as wrap() does.
   * @param {any} target @param {object} [opts]
   */
  async openConnection (target, opts) {
    return this.wrap(await this.open(target, opts))
  }

  /** What the load is doing now: a step, and the table being generated within it. */
  onStep (name) { this.step = name; this.detail = '' }
  onProgress (label) { this.detail = label }

  /** What the load was doing, in words: "client-side generate (generating pgbench_accounts)". */
  get activity () {
    if (!this.step) return this.detail || 'the set-up'
    return this.detail && !this.step.includes(this.detail) ? `${this.step} (${this.detail})` : this.step
  }

  /** Stop the load: statements running on the server are cancelled, later ones refused. */
  interrupt () {
    if (this.interrupted) return
    this.interrupted = true
    const pids = [...this.conns].map((c) => c.backendPid).filter((pid) => Number.isInteger(pid))
    this.cancelled = this.cancel(pids).catch(() => {}) // the load then fails on its own and reports
  }

  async cancel (pids) {
    if (pids.length === 0) return
    const conn = await this.open(this.target, { protocol: 'simple', applicationName: 'pgload init (cancel)' })
    try {
      await conn.simpleQuery(`select pg_cancel_backend(pid) from unnest(array[${pids.join(',')}]::int[]) as pid`)
    } finally {
      await conn.close()
    }
  }
}
