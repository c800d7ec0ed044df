// The stats sampler's connection and one reading of the server's statistics: what the role may
// read (probed once, refused statements dropped and listed), then one round trip per reading.

import { DATABASE_COUNTERS, TABLE_COUNTERS, TABLE_GAUGES, parseCounter, rowCounters } from './counters.js'
import { parseIoRows } from './io.js'
import { FORCE_FLUSH, PRIVILEGES_QUERY, resolveTablesQuery, statQueries, tableStatsQuery } from './queries.js'

// Per-tick statements, in the order they are sent; `full` readings add the others; `autovacuum`
// follows in a second round trip only when an autovacuum worker is running.
const TICK = ['database', 'walLsn', 'checkpoints', 'io', 'control', 'activity', 'tableCounts']
const FULL = ['wal', 'tables']
const IDLE_CHECKPOINTER_WAITS = new Set(['CheckpointerMain', 'CheckpointerShutdown'])

/**
 * A lost connection as the sampler says it: the driver flags a statement sent outside a
 * transaction block that was never answered as a commit of unknown outcome, which is true of a
 * workload's transaction but says nothing useful of a reading: it commits nothing of the run's.
 * The driver's error is left out of the cause chain too (logs print the chain's messages).
 * @param {any} err
 * @param {boolean} [abandoned] the sampler gave up on the server (it did not answer in time)
 * @returns {any} err, or a CONNECTION_LOST error without the outcome
 */
export function readingError (err, abandoned = false) {
  if (err?.code !== 'CONNECTION_LOST' || !err.outcomeUnknown) return err
  const reason = err.cause ?? new Error('closed')
  const e = new Error(abandoned
    ? 'a statistics query was not answered in time: its connection was closed'
    : `connection to server lost: ${reason.message ?? reason} (a statistics query was not answered)`, { cause: reason })
  e.code = 'CONNECTION_LOST'
  return e
}

export class StatsReader {
  /**
   * @param {{ openConnection: () => Promise<any>, tables: string[], now: () => number,
   *   statementTimeoutMs: number, lockTimeoutMs: number, note: (message: string) => boolean }} opts
   */
  constructor ({ openConnection, tables, now, statementTimeoutMs, lockTimeoutMs, note }) {
    this.openConnection = openConnection
    this.tables = tables
    this.now = now
    this.timeouts = { statementTimeoutMs, lockTimeoutMs }
    this.note = note
    this.conn = null
    this.abandoned = false
    this.lastConnectAt = -Infinity
    this.own = { commits: 0, rollbacks: 0 } // our own transactions, left out of the deltas
    this.tableNames = new Map() // oid -> name
    this.queries = {}
  }

  async connect () {
    if (this.abandoned) throw new Error('server statistics were abandoned: the server did not answer in time')
    this.lastConnectAt = this.now()
    const conn = await this.openConnection()
    if (this.abandoned) { conn.destroy?.(); throw new Error('server statistics were abandoned') }
    this.conn = conn
    // Bounded waits; the name shows the sampler in pg_stat_activity.
    await this.query(`SET application_name = 'pgload-stats'; SET statement_timeout = ${this.timeouts.statementTimeoutMs}; ` +
      `SET lock_timeout = ${this.timeouts.lockTimeoutMs}`)
  }

  async close () {
    const c = this.conn
    this.conn = null
    if (c) await c.close().catch(() => {})
  }

  /** Give up at once: the connection's socket is destroyed, and no other is opened. */
  abandon () {
    this.abandoned = true
    const c = this.conn
    this.conn = null
    if (c) c.destroy?.()
  }

  get connected () {
    return this.conn !== null && !this.conn.broken
  }

  /**
   * Every query is one transaction of ours: counted so that the deltas can leave them out.
   * @param {string} text
   */
  async query (text) {
    try {
      const r = await this.conn.simpleQuery(text)
      this.own.commits++
      return r
    } catch (err) {
      if (err.code !== 'CONNECTION_LOST') this.own.rollbacks++
      throw readingError(err, this.abandoned)
    }
  }

  /** The Connection subset readers of pg_stat_statements use, counted as ours. */
  simpleQuery (text) {
    return this.query(text)
  }

  /**
   * Connect, find the version and privileges, resolve the workload's tables, try every statement
   * once and keep those that work.
   */
  async probe () {
    await this.connect()
    const p = (await this.query(PRIVILEGES_QUERY)).rows[0]
    this.versionNum = Number(p[0])
    this.version = p[1]
    this.privileged = p[2] === 't' || p[3] === 't'
    if (!this.privileged) {
      this.note('pg_stat_activity: sessions of other roles and background processes are hidden (needs pg_read_all_stats): ' +
        'backends, wait events and lock waits cover this role\'s sessions only; checkpoint starts and autovacuum are seen from counters only')
    }
    this.flush = this.versionNum >= 150000 ? FORCE_FLUSH : null
    if (this.tables.length > 0) {
      const r = await this.query(resolveTablesQuery(this.tables))
      for (const [name, oid] of r.rows) {
        if (oid === null) this.note(`table ${name}: not found`)
        else this.tableNames.set(oid, name)
      }
    }
    const oids = [...this.tableNames.keys()]
    this.queries = statQueries(this.versionNum, oids)
    if (oids.length > 0) this.queries.tables = tableStatsQuery(oids)
    for (const [name, text] of Object.entries(this.queries)) {
      try {
        await this.query(text)
      } catch (err) {
        if (err.code === 'CONNECTION_LOST') throw err
        this.note(`${name}: ${err.message}`)
        delete this.queries[name]
      }
    }
    if (this.versionNum < 140000) this.note('walRecords: pg_stat_wal needs PostgreSQL 14')
    if (this.versionNum < 160000) this.note('io: pg_stat_io needs PostgreSQL 16')
  }

  /** Make our own earlier transactions visible in the shared statistics (15+) before a baseline. */
  async flushOwn () {
    if (this.flush) await this.query(this.flush)
  }

  /**
   * One reading: the tick statements (plus the full ones) as one simple-protocol query, so one
   * round trip and one statistics snapshot. If the batch fails, the statements run one by one;
   * those that fail for good (privileges, missing objects) are dropped.
   * @param {boolean} full also pg_stat_wal and the per-table statistics with sizes
   */
  async read (full) {
    const names = [...TICK, ...(full ? FULL : [])].filter(n => this.queries[n])
    const texts = names.map(n => this.queries[n])
    // 15+: publish our own counts at the end of this transaction, so the next reading sees them
    if (this.flush) texts.push(this.flush)
    const own = { ...this.own }
    let results
    try {
      await this.query(texts.join(';\n'))
      results = this.conn.lastResults
    } catch (err) {
      if (err.code === 'CONNECTION_LOST') throw err
      results = []
      for (const n of names) {
        try {
          results.push(await this.query(this.queries[n]))
        } catch (e) {
          if (e.code === 'CONNECTION_LOST') throw e
          this.note(`${n}: ${e.message}`)
          if (permanent(e)) delete this.queries[n] // else (timeouts, ...) try again next time
          results.push(null)
        }
      }
    }
    const atMs = this.now()
    const byName = {}
    names.forEach((n, i) => { byName[n] = results[i] ?? null })
    if (this.queries.autovacuum && workersRunning(byName.activity)) {
      try {
        byName.autovacuum = await this.query(this.queries.autovacuum)
      } catch (err) {
        if (err.code === 'CONNECTION_LOST') throw err
        this.note(`autovacuum: ${err.message}`)
      }
    }
    return this.parse(byName, atMs, own)
  }

  parse (r, atMs, own) {
    const snap = { atMs, own, db: null, serverEpoch: null, walLsn: null, wal: null, checkpoints: null, io: null, control: null, activity: null, running: null, counts: null, tables: null }
    const one = (res) => res && res.rows.length ? res.rows[0] : null
    let row = one(r.database)
    if (row) {
      snap.db = rowCounters(r.database.fields, row, DATABASE_COUNTERS)
      snap.serverEpoch = Number(row[r.database.fields.indexOf('server_epoch')])
    }
    row = one(r.walLsn)
    if (row) snap.walLsn = parseCounter(row[0])
    row = one(r.wal)
    if (row) snap.wal = { walRecords: parseCounter(row[0]), walFpi: parseCounter(row[1]), walBytes: parseCounter(row[2]) }
    row = one(r.checkpoints)
    if (row) {
      snap.checkpoints = { timed: parseCounter(row[0]), requested: parseCounter(row[1]), done: parseCounter(row[2]), buffersWritten: parseCounter(row[3]), buffersClean: parseCounter(row[4]) }
    }
    if (r.io) snap.io = parseIoRows(r.io.fields, r.io.rows)
    row = one(r.control)
    if (row) snap.control = { lsn: parseCounter(row[0]), epoch: row[1] === null ? null : Number(row[1]) }
    if (r.activity) snap.activity = summarizeActivity(r.activity.rows)
    if (r.autovacuum) {
      snap.running = r.autovacuum.rows.map(([kind, oid]) => ({ kind, table: this.tableNames.get(oid) })).filter(x => x.table)
    } else if (r.activity && this.privileged && this.queries.autovacuum) {
      snap.running = [] // no worker running
    }
    if (r.tableCounts) {
      snap.counts = {}
      for (const [oid, av, aa] of r.tableCounts.rows) {
        const name = this.tableNames.get(oid)
        if (name) snap.counts[name] = { autovacuum: parseCounter(av), autoanalyze: parseCounter(aa) }
      }
    }
    if (r.tables) {
      snap.tables = {}
      const pairs = [...TABLE_COUNTERS, ...TABLE_GAUGES]
      for (const tr of r.tables.rows) {
        const name = this.tableNames.get(tr[0])
        if (name) snap.tables[name] = rowCounters(r.tables.fields, tr, pairs)
      }
    }
    return snap
  }
}

// Errors that will not go away by asking again: privileges and missing objects (class 42),
// unsupported features (0A), wrong server state such as a standby's WAL position (55000).
function permanent (err) {
  const code = String(err.code ?? '')
  return code.startsWith('42') || code.startsWith('0A') || code === '55000'
}

// Any autovacuum worker in the activity reading? (Roles that cannot see workers cannot see
// their progress either.)
function workersRunning (activity) {
  return activity ? activity.rows.some(r => r[0] === 'autovacuum worker') : false
}

/**
 * Count pg_stat_activity rows (grouped by backend_type, state, wait_event_type, wait_event, here):
 * client backends of this database by state and, running a statement, by wait type (active
 * without a wait = CPU; a backend idle in a transaction is counted by its state only),
 * lock waits, autovacuum workers, and whether the checkpointer is busy.
 * @param {(string|null)[][]} rows
 */
export function summarizeActivity (rows) {
  const backends = {}
  const waitEvents = {}
  let lockWaits = 0
  let autovacuumWorkers = 0
  let checkpointer = null
  for (const [type, state, waitType, wait, here, nText] of rows) {
    const n = Number(nText)
    if (type === 'checkpointer') {
      checkpointer = wait !== null && IDLE_CHECKPOINTER_WAITS.has(wait) ? 'idle' : 'busy'
    } else if (type === 'autovacuum worker') {
      autovacuumWorkers += n
    } else if (type === null && here === 't') {
      backends.hidden = (backends.hidden ?? 0) + n
    } else if (type === 'client backend' && here === 't') {
      const s = state ?? 'unknown'
      backends[s] = (backends[s] ?? 0) + n
      // idle in a transaction, a backend waits for its client (ClientRead) between statements:
      // counted by its state, not as a wait of the server's
      if (s === 'idle' || s.startsWith('idle in transaction')) continue
      const w = waitType ?? (s === 'active' ? 'CPU' : null)
      if (w !== null) waitEvents[w] = (waitEvents[w] ?? 0) + n
      if (waitType === 'Lock') lockWaits += n
    }
  }
  return { backends, waitEvents, lockWaits, autovacuumWorkers, checkpointer }
}
