// Server-side statistics of a run: a baseline when measuring starts, one reading per run tick
// (rates, backends, waits, checkpoint/autovacuum markers) and the run's deltas at the end, all on
// the sampler's own connection. Failures never reach the run: they are logged and listed in
// `missing`.

import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { computeDeltas, perTransaction, tableDeltas } from './counters.js'
import { AutovacuumTracker, CheckpointTracker } from './events.js'
import { HostStats } from './host-stats.js'
import { ioDeltas } from './io.js'
import { MARKER } from './queries.js'
import { StatsReader } from './reader.js'
import { countersMoved, seriesEntry, trackerReading } from './sample-entry.js'
import { ServerLogCheckpoints } from './server-log.js'
import { TOP_STATEMENTS, probeStatements, readStatements, statementDeltas } from './statements-top.js'
import { statementWrites } from './read-only-writes.js'
import { round3 } from '../../format/round.js'
import { plural } from '../../format/plural.js'

export { summarizeActivity } from './reader.js'

const DEFAULTS = {
  exitWaitMs: 5000, // ms finish() waits at most for the run's backends to exit
  settleMs: 1000, // ms finish() waits at most for the workload backends' last statistics to arrive
  settlePollMs: 150, // ms between readings while settling
  statementTimeoutMs: 5000, // ms after which any sampler query is cancelled
  lockTimeoutMs: 1000, // ms the table size functions may wait for a lock
  reconnectAfterMs: 5000, // ms between attempts to reopen a lost sampler connection
  topStatements: TOP_STATEMENTS // statements kept from pg_stat_statements
}

// Deltas absent on some versions by design (pg_stat_wal 14+, num_done 18+), not listed as missing.
const OPTIONAL_DELTAS = new Set(['walRecords', 'walFpi', 'checkpointsDone', 'cacheHitRatio'])

const silentLog = { debug () {}, info () {}, warn () {}, error () {}, child () { return silentLog } }

/**
 * Samples server statistics during a run. Lifecycle: `start()` (own connection, baseline),
 * `sample(t)` on each run tick, optionally `resetBaseline()` when warm-up ends (or
 * `start({ measuredFrom })`), `finish(runInfo)` -> the results' `serverStats`. Call `finish`
 * after the run's own connections are closed: PostgreSQL (15+) publishes a busy backend's
 * counters at most once a second, an idle one's after 10 s, an exiting one's at once.
 */
export class StatsSampler {
  /**
   * @param {{ openConnection: () => Promise<any>, tables?: string[], log?: any, now?: () => number,
   *   serverLog?: string|null, settleMs?: number, settlePollMs?: number, statementTimeoutMs?: number,
   *   lockTimeoutMs?: number, reconnectAfterMs?: number, topStatements?: number,
   *   hostStats?: { embedded?: boolean, host?: string, system?: object }|null }} opts
   *   serverLog: path of the server's log file when this machine can read it (the embedded
   *   server's): checkpoint times then come from its lines; hostStats: take the server host's CPU
   *   and disk from /proc (lib/server/stats/host-stats.js)
   */
  constructor ({ openConnection, tables = [], log, now = () => performance.now(), serverLog = null, hostStats = null, ...rest }) {
    this.log = (log ?? silentLog).child?.({ component: 'server-stats' }) ?? log
    this.now = now
    this.tables = [...tables]
    this.opts = { ...DEFAULTS, ...rest }
    this.missing = new Map() // message -> times seen
    this.reader = new StatsReader({
      openConnection,
      tables: this.tables,
      now,
      statementTimeoutMs: this.opts.statementTimeoutMs,
      lockTimeoutMs: this.opts.lockTimeoutMs,
      note: (m) => this.note(m)
    })
    this.started = false
    this.finished = false
    this.measuring = true
    this.series = []
    this.events = []
    this.stats = { samples: 0, skipped: 0, failed: 0, totalMs: 0, maxMs: 0 }
    this.checkpoints = new CheckpointTracker()
    this.autovacuum = new AutovacuumTracker()
    this.serverLog = serverLog ? new ServerLogCheckpoints({ path: serverLog }) : null
    this.host = hostStats ? new HostStats({ ...hostStats, now }) : null
    this.zeroEpoch = null // the server's clock at run time 0, from the fastest reading
    this.checkpointsLogged = false // the events' checkpoints come from the server log
    this.inFlight = null
    this.listeners = new Set()
  }

  /**
   * Be told of each series entry as it is taken (the progress line's server part, the live view).
   * @param {(entry: object, sampler: StatsSampler) => void} fn must not throw
   * @returns {() => void} the unsubscribe
   */
  onSample (fn) {
    this.listeners.add(fn)
    return () => this.listeners.delete(fn)
  }

  /**
   * Whether a checkpoint began in the window and has not ended by the last reading.
   * @returns {boolean}
   */
  checkpointRunning () {
    let open = 0
    for (const e of this.events) {
      if (e.kind === 'checkpoint-start') open++
      else if (e.kind === 'checkpoint-end') open = Math.max(0, open - 1)
    }
    return open > 0
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
      await this.reader.probe()
      if (this.serverLog) {
        const problem = await this.serverLog.probe(this.reader).catch(err => err.message)
        if (problem) {
          this.note(`checkpoint times from samples only: ${problem}`)
          this.serverLog = null
        }
      }
      this.statementsInfo = await probeStatements(this.reader).catch(err => ({ available: false, reason: err.message }))
      await this.host?.start(this.reader)
      await this.takeBaseline()
      this.prev = this.base
      this.measuring = this.measuredFrom === null
      this.started = true
      return true
    } catch (err) {
      this.log.warn({ err }, 'server statistics unavailable')
      this.note(`server statistics: ${err.message}`)
      await this.reader.close()
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
   * Make the deltas count from now (call when warm-up ends). Never throws.
   * @returns {Promise<void>}
   */
  async resetBaseline () {
    if (!this.started || this.finished) return
    while (this.inFlight) await this.inFlight
    this.inFlight = this.takeBaseline(0).then(() => { this.measuring = true }, (err) => {
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
   * @param {{ transactions?: number, backendPids?: number[] }} [runInfo] the run's transactions
   *   (committed + rolled back), for the per-transaction figures, and the backend pids of its
   *   connections, closed by now, whose exit (which publishes their counters) is waited for
   * @returns {Promise<object>} the results' `serverStats` (shape in docs/architecture.md)
   */
  async finish (runInfo = {}) {
    if (this.finished) return this.result
    this.finished = true
    while (this.inFlight) await this.inFlight
    let deltas = null
    let tables = {}
    let io = null
    let statements = { available: false, reason: 'server statistics were not collected' }
    if (this.started) {
      if (!this.measuring) this.note(`the measured window (from t=${this.measuredFrom}s) never started: the deltas include the warm-up`)
      try {
        if (!this.reader.connected) await this.reader.connect()
        await this.backendsExited(runInfo.backendPids ?? [])
        const end = await this.settledReading()
        const own = { commits: end.own.commits - this.base.own.commits, rollbacks: end.own.rollbacks - this.base.own.rollbacks }
        deltas = computeDeltas(this.base, end, own)
        for (const [k, v] of Object.entries(deltas)) {
          if (v === null && !OPTIONAL_DELTAS.has(k)) this.note(`deltas.${k}: not readable, or reset during the run`)
        }
        tables = tableDeltas(this.base.tables, end.tables, this.tables)
        if (this.base.io && end.io) io = ioDeltas(this.base.io, end.io)
        await this.checkpointsFromLog(runInfo.durationS)
        statements = await this.statementsResult()
      } catch (err) {
        this.log.warn({ err }, 'server statistics: final reading failed')
        this.note(`final reading: ${err.message}`)
      }
    }
    await this.reader.close()
    const s = this.stats
    this.result = {
      deltas: deltas ?? computeDeltas({}, {}),
      perTransaction: perTransaction(deltas ?? {}, runInfo.transactions),
      tables,
      io,
      series: this.series,
      events: this.events.sort((a, b) => a.t - b.t),
      checkpointSource: this.checkpointsLogged ? 'log' : 'samples',
      statements,
      host: this.host && this.started ? await this.host.finish(this.series) : null,
      sampler: { samples: s.samples, skipped: s.skipped, failed: s.failed, meanMs: s.samples ? round3(s.totalMs / s.samples) : null, maxMs: round3(s.maxMs) },
      missing: [...this.missing].map(([m, n]) => n > 1 ? `${m} (${n} times)` : m)
    }
    return this.result
  }

  /**
   * Give up without a final reading (the server does not answer, or Ctrl-C twice): the
   * connection is destroyed, and a finish() under way ends with what it has.
   */
  abandon () {
    this.finished = true
    this.reader.abandon()
  }

  // ---- internals ----

  // The window starts at run time t: its deltas, and its checkpoints (one already running is
  // found from this reading on; those seen before are not in the window).
  async takeBaseline (t = 0) {
    // Our own earlier transactions must be in the shared statistics before the baseline is read.
    await this.reader.flushOwn()
    this.base = await this.reader.read(true)
    await this.host?.markWindow()
    this.checkpoints = new CheckpointTracker()
    this.checkpoints.update(trackerReading(t, null, this.base))
    this.events = this.events.filter(e => !e.kind.startsWith('checkpoint-'))
    if (this.serverLog) await this.serverLog.markWindowStart().catch(() => {})
    if (this.statementsInfo?.available) {
      try {
        this.statementsBase = (await readStatements(this.reader, this.statementsInfo, { withText: false })).rows
      } catch (err) {
        this.statementsInfo = { available: false, reason: `pg_stat_statements: ${err.message}` }
      }
    }
  }

  async takeSample (t) {
    const t0 = this.now()
    try {
      if (!this.reader.connected) {
        await this.reader.close()
        if (this.now() - this.reader.lastConnectAt < this.opts.reconnectAfterMs) throw new Error('sampler connection lost')
        await this.reader.connect()
      }
      // the host's figures read beside the server's, to cover the same interval
      const [snap, host] = await Promise.all([this.reader.read(false), this.host?.sample()])
      const entry = seriesEntry(t, this.prev, snap)
      if (this.host) entry.host = host
      this.prev = snap
      if (snap.serverEpoch > 0) this.zeroEpoch = Math.min(this.zeroEpoch ?? Infinity, snap.serverEpoch - t)
      if (!this.measuring && t >= this.measuredFrom) {
        await this.takeBaseline(t) // the window's first reading: markers count from it
        this.measuring = true
      } else {
        this.detectEvents(t, snap)
      }
      if (!this.measuring) entry.warmup = true
      this.series.push(entry)
      for (const fn of this.listeners) {
        try { fn(entry, this) } catch (err) { this.log.warn({ err }, 'a server sample listener failed') }
      }
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
      if (err.code === 'CONNECTION_LOST') await this.reader.close()
      return null
    }
  }

  detectEvents (t, snap) {
    const prevT = this.series.length ? this.series[this.series.length - 1].t : null
    const found = [
      ...this.checkpoints.update(trackerReading(t, prevT, snap)),
      ...this.autovacuum.update({ t, running: snap.running, counts: snap.counts })
    ]
    for (const e of found) {
      this.events.push(e)
      this.log.debug?.({ event: e }, 'server event')
    }
  }

  // The server log's checkpoint lines replace the markers found from samples, unless the samples
  // saw a checkpoint end that the log does not have (then the log is not this server's, or not
  // up to date, and the samples stay).
  async checkpointsFromLog (durationS) {
    if (!this.serverLog) return
    const fromSamples = this.events.filter(e => e.kind.startsWith('checkpoint-'))
    const lastT = this.series.length ? this.series[this.series.length - 1].t : 0
    // without a sample, the baseline's reading is the nearest to run time 0
    const zero = this.zeroEpoch ?? this.base.serverEpoch
    try {
      const logged = await this.serverLog.events(this.reader, zero, durationS ?? lastT)
      const ends = (list) => list.filter(e => e.kind === 'checkpoint-end').length
      if (ends(fromSamples) > ends(logged)) throw new Error(`it shows ${ends(logged)} checkpoint ends where the samples saw ${ends(fromSamples)}`)
      this.events = [...this.events.filter(e => !e.kind.startsWith('checkpoint-')), ...logged]
      this.checkpointsLogged = true
    } catch (err) {
      this.note(`checkpoint times from samples only: server log: ${err.message}`)
      this.serverLog = null
    }
  }

  // A backend adds its last counters to the shared statistics as it exits, which happens after
  // the client closed its socket and may take a while on a loaded machine; until then the
  // deltas would miss up to a second of the run. Its pid leaves pg_stat_activity only after that.
  async backendsExited (pids) {
    const list = pids.filter(p => Number.isInteger(p) && p > 0)
    if (list.length === 0) return
    const query = `SELECT ${MARKER} count(*)::int AS n FROM pg_stat_activity WHERE pid IN (${list.join(',')})`
    const deadline = this.now() + this.opts.exitWaitMs
    try {
      for (;;) {
        const left = (await this.reader.query(query)).rows[0][0]
        if (Number(left) === 0) return
        if (this.now() >= deadline) {
          this.note(`${left} of the run's ${plural(list.length, 'backend')} had not exited ${this.opts.exitWaitMs / 1000} s after the run: the deltas may miss their last second`)
          return
        }
        await sleep(Math.min(50, this.opts.settlePollMs))
      }
    } catch (err) {
      // the final reading is still worth taking; a lost connection fails it there
      this.note(`waiting for the run's backends to exit: ${err.message}`)
    }
  }

  // Repeat light readings until the workload's counters stop moving (backends that just exited
  // have published theirs), within settleMs; then one full reading.
  async settledReading () {
    const deadline = this.now() + this.opts.settleMs
    let last = await this.reader.read(false)
    while (this.now() < deadline) {
      await sleep(this.opts.settlePollMs)
      const cur = await this.reader.read(false)
      const moved = countersMoved(last, cur)
      last = cur
      if (!moved) break
    }
    return this.reader.read(true)
  }

  async statementsResult () {
    const info = this.statementsInfo
    if (!info?.available) return { available: false, reason: info?.reason ?? 'not probed' }
    try {
      const end = await readStatements(this.reader, info)
      const all = statementDeltas(this.statementsBase ?? new Map(), end.rows)
      const top = all.toSorted((a, b) => b.totalMs - a.totalMs).slice(0, this.opts.topStatements)
      const out = { available: true, top, writes: statementWrites(all) }
      if (end.hidden > 0) {
        out.hidden = end.hidden
        this.note(`pg_stat_statements: ${plural(end.hidden, 'statement')} of other roles ${end.hidden === 1 ? 'is' : 'are'} hidden (needs pg_read_all_stats)`)
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
