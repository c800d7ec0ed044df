// Server-side statistics of a run: a baseline when measuring starts, one reading per run tick
// (rates, backends, waits, checkpoint/autovacuum markers) and the run's deltas at the end, all on
// the sampler's own connection. Failures never reach the run: they are logged and listed in
// `missing`.

import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  DATABASE_COUNTERS, TABLE_COUNTERS, TABLE_GAUGES, computeDeltas, counterDelta, parseCounter,
  perTransaction, ratePerS, rowCounters, tableDeltas
} from './stats/counters.js'
import { AutovacuumTracker, CheckpointTracker } from './stats/events.js'
import { FORCE_FLUSH, PRIVILEGES_QUERY, resolveTablesQuery, statQueries, tableStatsQuery } from './stat-queries.js'
import { TOP_STATEMENTS, probeStatements, readStatements, topStatements } from './statements-top.js'

export { formatServerStatsSummary } from './stats/summary.js'

const DEFAULTS = {
  settleMs: 1000, // ms finish() waits at most for the workload backends' last statistics to arrive
  settlePollMs: 150, // ms between readings while settling
  statementTimeoutMs: 5000, // ms after which any sampler query is cancelled
  lockTimeoutMs: 1000, // ms the table size functions may wait for a lock
  reconnectAfterMs: 5000, // ms between attempts to reopen a lost sampler connection
  topStatements: TOP_STATEMENTS // statements kept from pg_stat_statements
}

// Per-tick statements, in the order they are sent; `full` readings add the others; `autovacuum`
// follows in a second round trip only when an autovacuum worker is running.
const TICK = ['database', 'walLsn', 'checkpoints', 'control', 'activity', 'tableCounts']
const FULL = ['wal', 'tables']
const IDLE_CHECKPOINTER_WAITS = new Set(['CheckpointerMain', 'CheckpointerShutdown'])

const silentLog = { debug () {}, info () {}, warn () {}, error () {}, child () { return silentLog } }

/**
 * Samples server statistics during a run. Lifecycle: `start()` (own connection, baseline),
 * `sample(t)` on each run tick, optionally `resetBaseline()` when warm-up ends (or
 * `start({ measuredFrom })`), `finish(runInfo)` -> the results' `serverStats`. Call `finish`
 * after the run's own connections are closed: PostgreSQL (15+) flushes a busy backend's
 * statistics at most once a second, and an idle one only after 10 s, or when it exits.
 */
export class StatsSampler {
  /**
   * @param {{ openConnection: () => Promise<any>, tables?: string[], log?: any, now?: () => number,
   *   settleMs?: number, topStatements?: number }} opts
   */
  constructor ({ openConnection, tables = [], log, now = () => performance.now(), ...rest }) {
    this.openConnection = openConnection
    this.tables = [...tables]
    this.log = (log ?? silentLog).child?.({ component: 'server-stats' }) ?? log
    this.now = now
    this.opts = { ...DEFAULTS, ...rest }
    this.conn = null
    this.started = false
    this.finished = false
    this.series = []
    this.events = []
    this.missing = new Map() // message -> times seen
    this.own = { commits: 0, rollbacks: 0 } // the sampler's own transactions, left out of the deltas
    this.stats = { samples: 0, skipped: 0, failed: 0, totalMs: 0, maxMs: 0 }
    this.checkpoints = new CheckpointTracker()
    this.autovacuum = new AutovacuumTracker()
    this.inFlight = null
  }

  /**
   * Open the sampler's connection, find out what can be read, take the baseline.
   * Never throws: when the server cannot be reached the sampler stays inert and says so.
   * @param {{ measuredFrom?: number }} [opts] run time (s) at which measuring starts: the first
   *   sample at or after it becomes the baseline; samples before it are marked `warmup`.
   * @returns {Promise<boolean>} whether sampling is running
   */
  async start ({ measuredFrom } = {}) {
    // 0 (no warm-up) means the baseline taken here already is the start of the measured window
    this.measuredFrom = measuredFrom > 0 ? measuredFrom : null
    try {
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
      await this.resolveTables()
      this.queries = statQueries(this.versionNum, [...this.tableNames.keys()])
      if (this.tableNames.size > 0) this.queries.tables = tableStatsQuery([...this.tableNames.keys()])
      for (const [name, text] of Object.entries(this.queries)) {
        try {
          await this.query(text)
        } catch (err) {
          this.note(`${name}: ${err.message}`)
          delete this.queries[name]
        }
      }
      if (!this.queries.wal && this.versionNum < 140000) this.note('walRecords: pg_stat_wal needs PostgreSQL 14')
      this.statementsInfo = await probeStatements(this.conn).catch(err => ({ available: false, reason: err.message }))
      this.started = true
      await this.takeBaseline()
      this.prev = this.base
      this.measuring = this.measuredFrom === null
      return true
    } catch (err) {
      this.log.warn({ err }, 'server statistics unavailable')
      this.note(`server statistics: ${err.message}`)
      this.started = false
      await this.closeConnection()
      return false
    }
  }

  /**
   * Take one reading on the run's tick and keep it in the series. Never throws; skipped (returns
   * null) while the previous sample is still running.
   * @param {number} tSeconds run time of the tick
   * @returns {Promise<object|null>} the series entry, or null when skipped or failed
   */
  async sample (tSeconds) {
    if (!this.started || this.finished) return null
    if (this.inFlight) { this.stats.skipped++; return null }
    this.inFlight = this.takeSample(tSeconds)
    try {
      return await this.inFlight
    } finally {
      this.inFlight = null
    }
  }

  /**
   * Make the next readings count from now (call when warm-up ends). Never throws.
   * @returns {Promise<void>}
   */
  async resetBaseline () {
    if (!this.started || this.finished) return
    while (this.inFlight) await this.inFlight
    this.inFlight = this.takeBaseline().then(() => { this.measuring = true }, (err) => {
      this.log.warn({ err }, 'server statistics: baseline reset failed')
      this.note(`baseline reset: ${err.message}`)
    })
    try {
      await this.inFlight
    } finally {
      this.inFlight = null
    }
  }

  /**
   * End sampling: the final reading, deltas over the measured window, close the connection.
   * @param {{ transactions?: number }} [runInfo] the run's transaction count, for per-transaction figures
   * @returns {Promise<object>} the results' `serverStats`
   */
  async finish (runInfo = {}) {
    if (this.finished) return this.result
    this.finished = true
    while (this.inFlight) await this.inFlight
    if (this.started && !this.measuring) this.note(`the measured window (from t=${this.measuredFrom}s) never started: the deltas include the warm-up`)
    let deltas = null
    let tables = {}
    let statements = { available: false, reason: 'server statistics were not collected' }
    if (this.started) {
      try {
        const end = await this.settledReading()
        const own = { commits: end.own.commits - this.base.own.commits, rollbacks: end.own.rollbacks - this.base.own.rollbacks }
        deltas = computeDeltas(this.base, end, own)
        for (const [k, v] of Object.entries(deltas)) {
          if (v === null && !OPTIONAL_DELTAS.has(k)) this.note(`deltas.${k}: not readable or reset during the run`)
        }
        tables = tableDeltas(this.base.tables, end.tables, this.tables)
        statements = await this.statementsResult()
      } catch (err) {
        this.log.warn({ err }, 'server statistics: final reading failed')
        this.note(`final reading: ${err.message}`)
      }
    }
    await this.closeConnection()
    const s = this.stats
    this.result = {
      deltas: deltas ?? emptyDeltas(),
      perTransaction: perTransaction(deltas ?? {}, runInfo.transactions),
      tables,
      series: this.series,
      events: this.events.sort((a, b) => a.t - b.t),
      statements,
      sampler: { samples: s.samples, skipped: s.skipped, failed: s.failed, meanMs: s.samples ? round3(s.totalMs / s.samples) : null, maxMs: round3(s.maxMs) },
      missing: [...this.missing].map(([m, n]) => n > 1 ? `${m} (${n} times)` : m)
    }
    return this.result
  }

  // ---- internals ----

  async connect () {
    this.conn = await this.openConnection()
    this.lastConnectAt = this.now()
    // Bounded waits; the name shows the sampler in pg_stat_activity.
    await this.query(`SET application_name = 'pgload-stats'; SET statement_timeout = ${this.opts.statementTimeoutMs}; ` +
      `SET lock_timeout = ${this.opts.lockTimeoutMs}`)
  }

  async closeConnection () {
    const c = this.conn
    this.conn = null
    if (c) await c.close().catch(() => {})
  }

  // Every query is one transaction of ours: counted so that the deltas can leave them out.
  async query (text) {
    try {
      const r = await this.conn.simpleQuery(text)
      this.own.commits++
      return r
    } catch (err) {
      if (err.code !== 'CONNECTION_LOST') this.own.rollbacks++
      throw err
    }
  }

  async resolveTables () {
    this.tableNames = new Map() // oid -> name
    this.tableOids = new Map() // name -> oid
    if (this.tables.length === 0) return
    const r = await this.query(resolveTablesQuery(this.tables))
    for (const [name, oid] of r.rows) {
      if (oid === null) { this.note(`table ${name}: not found`); continue }
      this.tableNames.set(oid, name)
      this.tableOids.set(name, oid)
    }
  }

  async takeBaseline () {
    // Our own earlier transactions must be in the shared statistics before the baseline is read.
    if (this.flush) await this.query(this.flush)
    this.base = await this.read(true)
    if (this.statementsInfo?.available) {
      try {
        this.statementsBase = (await readStatements(this.conn, this.statementsInfo, { withText: false })).rows
        this.own.commits++
      } catch (err) {
        this.statementsInfo = { available: false, reason: `pg_stat_statements: ${err.message}` }
      }
    }
  }

  async takeSample (t) {
    const t0 = this.now()
    try {
      if (!this.conn) {
        if (this.now() - this.lastConnectAt < this.opts.reconnectAfterMs) throw new Error('sampler connection lost')
        this.lastConnectAt = this.now()
        await this.connect()
      }
      const snap = await this.read(false)
      const entry = this.seriesEntry(t, this.prev, snap)
      this.prev = snap
      if (!this.measuring && t >= this.measuredFrom) {
        this.base = await this.read(true)
        if (this.statementsInfo?.available) {
          this.statementsBase = (await readStatements(this.conn, this.statementsInfo, { withText: false })).rows
          this.own.commits++
        }
        this.measuring = true
      }
      if (!this.measuring) entry.warmup = true
      this.detectEvents(t, snap)
      this.series.push(entry)
      const ms = this.now() - t0
      this.stats.samples++
      this.stats.totalMs += ms
      if (ms > this.stats.maxMs) this.stats.maxMs = ms
      return entry
    } catch (err) {
      this.stats.failed++
      // warn once per distinct failure; repeats (1 per tick) go to debug
      if (this.note(`sample: ${err.message}`)) this.log.warn({ err, t }, 'server statistics sample failed')
      else this.log.debug?.({ err, t }, 'server statistics sample failed again')
      if (err.code === 'CONNECTION_LOST' || this.conn?.broken) await this.closeConnection()
      return null
    }
  }

  // One round trip: the tick statements (plus the full ones) as one simple-protocol query. If
  // the batch fails, the statements run one by one and those that fail are dropped for good.
  async read (full) {
    const names = [...TICK, ...(full ? FULL : [])].filter(n => this.queries[n])
    const texts = names.map(n => this.queries[n])
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
          delete this.queries[n]
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
    const snap = { atMs, own, db: null, serverEpoch: null, walLsn: null, wal: null, checkpoints: null, control: null, activity: null, running: null, counts: null, tables: null }
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

  seriesEntry (t, prev, snap) {
    const dt = (snap.atMs - prev.atMs) / 1000
    const d = (k) => counterDelta(prev.db?.[k], snap.db?.[k])
    let commits = d('xactCommit')
    if (commits !== null) commits = Math.max(0, commits - (snap.own.commits - prev.own.commits))
    const tup = ['tupReturned', 'tupFetched', 'tupInserted', 'tupUpdated', 'tupDeleted'].map(d)
    const a = snap.activity
    return {
      t,
      walBytesPerS: ratePerS(counterDelta(prev.walLsn, snap.walLsn), dt),
      xactCommitPerS: ratePerS(commits, dt),
      blksReadPerS: ratePerS(d('blksRead'), dt),
      blksHitPerS: ratePerS(d('blksHit'), dt),
      tuplesPerS: ratePerS(tup.includes(null) ? null : tup.reduce((x, y) => x + y, 0), dt),
      backends: a?.backends ?? null,
      waitEvents: a?.waitEvents ?? null,
      lockWaits: a?.lockWaits ?? null,
      autovacuumWorkers: a?.autovacuumWorkers ?? null
    }
  }

  detectEvents (t, snap) {
    const prevT = this.series.length ? this.series[this.series.length - 1].t : null
    const found = [
      ...this.checkpoints.update({ t, prevT, control: snap.control, serverEpoch: snap.serverEpoch, counters: snap.checkpoints, checkpointer: snap.activity?.checkpointer ?? null }),
      ...this.autovacuum.update({ t, running: snap.running, counts: snap.counts })
    ]
    for (const e of found) {
      this.events.push(e)
      this.log.debug?.({ event: e }, 'server event')
    }
  }

  // Repeat light readings until the workload's counters stop moving (backends that just exited
  // have flushed), within settleMs; then one full reading.
  async settledReading () {
    const deadline = this.now() + this.opts.settleMs
    let last = await this.read(false)
    while (this.now() < deadline) {
      await sleep(this.opts.settlePollMs)
      const cur = await this.read(false)
      const moved = DATABASE_COUNTERS.some(([k]) => k !== 'xactCommit' && k !== 'tupReturned' && k !== 'tupFetched' && k !== 'blksHit' && cur.db?.[k] !== last.db?.[k]) ||
        workloadCommits(last, cur) > 0
      last = cur
      if (!moved) break
    }
    return this.read(true)
  }

  async statementsResult () {
    const info = this.statementsInfo
    if (!info?.available) return { available: false, reason: info?.reason ?? 'not probed' }
    try {
      const end = await readStatements(this.conn, info)
      this.own.commits++
      const out = { available: true, top: topStatements(this.statementsBase ?? new Map(), end.rows, this.opts.topStatements) }
      if (end.hidden > 0) {
        out.hidden = end.hidden
        this.note(`pg_stat_statements: ${end.hidden} statements of other roles are hidden (needs pg_read_all_stats)`)
      }
      return out
    } catch (err) {
      return { available: false, reason: `pg_stat_statements: ${err.message}` }
    }
  }

  // Remember what could not be read; true the first time a message is seen.
  note (message) {
    const n = this.missing.get(message) ?? 0
    this.missing.set(message, n + 1)
    return n === 0
  }
}

// Deltas that are absent on some versions by design (listed in `missing` elsewhere when relevant).
const OPTIONAL_DELTAS = new Set(['walRecords', 'walFpi', 'checkpointsDone', 'cacheHitRatio'])

// Any autovacuum worker in the activity reading? (Roles that cannot see workers cannot see
// their progress either.)
function workersRunning (activity) {
  return activity ? activity.rows.some(r => r[0] === 'autovacuum worker') : false
}

function workloadCommits (a, b) {
  const d = counterDelta(a.db?.xactCommit, b.db?.xactCommit)
  return d === null ? 0 : d - (b.own.commits - a.own.commits)
}

/**
 * Count pg_stat_activity rows (grouped by backend_type, state, wait_event_type, wait_event, here):
 * client backends of this database by state and by wait type (active without a wait = CPU),
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
      if (s === 'idle') continue
      const w = waitType ?? (s === 'active' ? 'CPU' : null)
      if (w !== null) waitEvents[w] = (waitEvents[w] ?? 0) + n
      if (waitType === 'Lock') lockWaits += n
    }
  }
  return { backends, waitEvents, lockWaits, autovacuumWorkers, checkpointer }
}

function emptyDeltas () {
  const d = {}
  for (const [k] of DATABASE_COUNTERS) d[k] = null
  for (const k of ['walBytes', 'walRecords', 'walFpi', 'checkpointsTimed', 'checkpointsRequested', 'checkpointsDone', 'buffersWritten', 'buffersClean', 'cacheHitRatio']) d[k] = null
  return d
}

function round3 (x) {
  return Math.round(x * 1000) / 1000
}
