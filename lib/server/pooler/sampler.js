// PoolerSampler: reads PgBouncer's admin console once per interval of the run (SHOW POOLS for the
// run's pool, SHOW STATS for its database) and keeps the entries the results' `pooler` holds.
// Readings never overlap: an interval that closes while one is on its way is left to the next.

import { performance } from 'node:perf_hooks'
import { poolReading, statsTotals, databasePool, configValue } from './admin-rows.js'
import { poolerEntry, poolerTotals } from './deltas.js'

// what finishing may wait for a reading on its way before it gives up on it
const FINISH_WAIT_MS = 5000

export class PoolerSampler {
  #conn
  #pool
  #now
  #busy = null
  /** @type {import('./deltas.js').PoolerReading|null} */
  #last = null
  /** @type {import('./deltas.js').PoolerEntry[]} */
  #series = []
  #settings = { poolSize: null, poolMode: null, maxPreparedStatements: null }
  #poolMode = null
  #finishWaitMs

  /**
   * @param {{ conn: import('../../db/connection.js').PgConnection, version: string, found: string, pool: { database: string, user: string }, now?: () => number, finishWaitMs?: number }} opts
   *   pool: the run's database and user, whose pool is read
   */
  constructor ({ conn, version, found, pool, now = () => performance.now(), finishWaitMs = FINISH_WAIT_MS }) {
    this.#finishWaitMs = finishWaitMs
    this.#conn = conn
    this.version = version
    this.found = found
    this.#pool = pool
    this.#now = now
  }

  /** The pool's size and mode, PgBouncer's prepared statements setting, and the first reading. */
  async start () {
    const q = (sql) => this.#conn.simpleQuery(sql)
    const dbs = databasePool(await q('SHOW DATABASES'), this.#pool.database)
    const config = await q('SHOW CONFIG')
    const prepared = configValue(config, 'max_prepared_statements')
    this.#settings = {
      poolSize: dbs.poolSize,
      poolMode: dbs.poolMode ?? configValue(config, 'pool_mode'),
      maxPreparedStatements: prepared === null ? null : Number(prepared)
    }
    await this.#take(0)
  }

  /** PgBouncer's settings for the run's pool: { poolSize, poolMode, maxPreparedStatements }. */
  get settings () { return { ...this.#settings, poolMode: this.#poolMode ?? this.#settings.poolMode } }

  /** The measured window opens: later entries count from here, not from the start. */
  rebase () {
    this.#series = []
    this.#schedule(0, false)
  }

  /**
   * An interval closed: read the pooler, unless a reading is still on its way.
   * @param {number} t the interval's end, seconds since the measured window opened
   */
  sample (t) {
    this.#schedule(t, true)
  }

  #schedule (t, entry) {
    if (this.#busy) return
    this.#busy = this.#take(t, entry).catch(() => {}).finally(() => { this.#busy = null })
  }

  async #take (t, entry = false) {
    const pools = await this.#conn.simpleQuery('SHOW POOLS')
    const stats = await this.#conn.simpleQuery('SHOW STATS')
    /** @type {import('./deltas.js').PoolerReading} */
    const reading = { atMs: this.#now(), t, pool: poolReading(pools, this.#pool), totals: statsTotals(stats, this.#pool.database) }
    if (reading.pool?.poolMode) this.#poolMode = reading.pool.poolMode
    if (entry && this.#last) this.#series.push(poolerEntry(this.#last, reading))
    this.#last = reading
  }

  /**
   * The results' `pooler` section, once a reading on its way came back (or was given up on).
   * @returns {Promise<Record<string, any>>}
   */
  async finish () {
    if (this.#busy) {
      let timer
      await Promise.race([this.#busy, new Promise((resolve) => { timer = setTimeout(resolve, this.#finishWaitMs) })])
      clearTimeout(timer)
    }
    const { poolSize, poolMode, maxPreparedStatements } = this.settings
    return {
      kind: 'pgbouncer',
      version: this.version,
      found: this.found,
      database: this.#pool.database,
      user: this.#pool.user,
      poolMode,
      poolSize,
      maxPreparedStatements,
      ...poolerTotals(this.#series),
      series: this.#series.slice()
    }
  }

  /** Close the admin connection; one with a reading still on its way (a console that stopped answering) at once. */
  async close () {
    if (this.#busy) this.#conn.destroy()
    else await this.#conn.close().catch(() => {})
  }
}
