// The run's figures as Prometheus metrics (prom-client): counters of transactions, failures and
// retries per type, latency and schedule-lag histograms, terminals and connections in use, the
// run's progress, and the server counters the sampler reads, every series labelled with the run
// id, label, shard and workload; a scenario run's run series also by `scenario`. Updated once per
// closed interval, never per transaction.

import client from 'prom-client'
import { BucketHistogram, ratioBuckets } from './bucket-histogram.js'
import { decodeHistogram } from '../metrics/histogram.js'

/** Latency and lag buckets: 10 us .. 100 s, each 10 % above the one below (about 170). */
export const LATENCY_BUCKETS_S = ratioBuckets(0.00001, 100)

/** The metric names the endpoint serves (the Grafana dashboard's test reads this list). */
export const METRIC_NAMES = [
  'pgload_transactions_total', 'pgload_failures_total', 'pgload_retries_total',
  'pgload_latency_seconds', 'pgload_schedule_lag_seconds',
  'pgload_terminals', 'pgload_connections', 'pgload_connections_in_use', 'pgload_terminals_waiting',
  'pgload_run_elapsed_seconds', 'pgload_run_duration_seconds', 'pgload_run_progress_ratio', 'pgload_run_measuring',
  'pgload_server_commits_total', 'pgload_server_rollbacks_total', 'pgload_server_wal_bytes_total',
  'pgload_server_blocks_read_total', 'pgload_server_blocks_hit_total', 'pgload_server_checkpoints_total',
  'pgload_server_backends', 'pgload_wait_sessions', 'pgload_wait_samples_total'
]

export class RunMetrics {
  /**
   * @param {{ runId: string, label: string, shard: string, workload: string }} labels on every series
   * @param {{ scenarios?: boolean }} [opts] scenarios: a scenario run's, whose run series (all but
   *   the server's) carry a `scenario` label, given to each method as `scenario`
   */
  constructor (labels, { scenarios = false } = {}) {
    const r = this.registry = new client.Registry()
    r.setDefaultLabels(labels)
    const registers = [r]
    const by = scenarios ? ['scenario'] : []
    this.scenarioLabel = scenarios
    const counter = (name, help, labelNames = []) => new client.Counter({ name, help, labelNames, registers })
    const gauge = (name, help, labelNames = by) => new client.Gauge({ name, help, labelNames, registers })
    this.transactions = counter('pgload_transactions_total', 'Transactions committed (expected rollbacks included), by type', [...by, 'type'])
    this.failures = counter('pgload_failures_total', 'Failed transactions by type and kind (SQLSTATE or pgload code)', [...by, 'type', 'kind'])
    this.retries = counter('pgload_retries_total', 'Retries spent on serialization failures and deadlocks, by type', [...by, 'type'])
    this.latency = new BucketHistogram({ name: 'pgload_latency_seconds', help: 'Transaction latency from the intended start, by type; buckets 10 % apart', labelNames: [...by, 'type'], buckets: LATENCY_BUCKETS_S, registers })
    this.lag = new BucketHistogram({ name: 'pgload_schedule_lag_seconds', help: 'Schedule lag (start behind the intended start), all types; buckets 10 % apart', labelNames: by, buckets: LATENCY_BUCKETS_S, registers })
    this.terminals = gauge('pgload_terminals', 'Terminals (clients) of the run')
    this.connections = gauge('pgload_connections', 'Connections in the pool')
    this.inUse = gauge('pgload_connections_in_use', 'Connections lent to a transaction at the last tick')
    this.waiting = gauge('pgload_terminals_waiting', 'Terminals waiting for a connection at the last tick')
    this.elapsed = gauge('pgload_run_elapsed_seconds', 'Seconds of the measured window so far')
    this.duration = gauge('pgload_run_duration_seconds', 'Planned measured duration (absent for a run of a count of transactions)')
    this.progress = gauge('pgload_run_progress_ratio', 'Share of the planned duration done, 0..1')
    this.measuring = gauge('pgload_run_measuring', '1 while the measured window is open, 0 during start and warm-up')
    this.server = {
      xactCommitPerS: counter('pgload_server_commits_total', 'Server commits in the database (pgload\'s own sampler excluded), from the sampler\'s readings'),
      xactRollbackPerS: counter('pgload_server_rollbacks_total', 'Server rollbacks in the database, from the sampler\'s readings'),
      walBytesPerS: counter('pgload_server_wal_bytes_total', 'WAL bytes written by the server, from the sampler\'s readings'),
      blksReadPerS: counter('pgload_server_blocks_read_total', 'Blocks read into shared buffers, from the sampler\'s readings'),
      blksHitPerS: counter('pgload_server_blocks_hit_total', 'Blocks found in shared buffers, from the sampler\'s readings')
    }
    this.checkpoints = counter('pgload_server_checkpoints_total', 'Checkpoints that ended during the run')
    this.backends = gauge('pgload_server_backends', 'Backends of the database by state at the last sample', ['state'])
    this.waitSessions = gauge('pgload_wait_sessions', 'pgload\'s own backends by wait class in the last interval, as average active sessions (samples / reads)', ['class'])
    this.waitSamples = counter('pgload_wait_samples_total', 'Sampled sessions of pgload\'s own backends by wait class', ['class'])
    this.lastSampleT = 0
    this.checkpointsSeen = 0
    /** planned duration by scenario ('' for a plain run) */
    this.durationsS = new Map()
    if (!scenarios) this.measuring.set(0)
  }

  /** A series' labels: the scenario's first, in a scenario run. */
  #labels (scenario, more = {}) {
    return this.scenarioLabel ? { scenario, ...more } : more
  }

  /** Set a gauge of the run (of a scenario, in a scenario run). */
  #set (gauge, value, scenario) {
    if (this.scenarioLabel) gauge.set({ scenario }, value)
    else gauge.set(value)
  }

  /**
   * @param {import('./run-events.js').RunShape} shape
   * @param {string} [scenario] in a scenario run: whose shape
   */
  setShape (shape, scenario) {
    this.#set(this.terminals, shape.terminals, scenario)
    this.#set(this.connections, shape.connections, scenario)
    if (shape.durationS) this.#set(this.duration, shape.durationS, scenario)
    this.durationsS.set(scenario ?? '', shape.durationS)
    if (this.scenarioLabel) this.#set(this.measuring, 0, scenario)
    for (const type of shape.types) {
      this.transactions.inc(this.#labels(scenario, { type }), 0)
      this.retries.inc(this.#labels(scenario, { type }), 0)
    }
  }

  /**
   * One closed interval (the run handle's 'interval' payload, the same with worker threads).
   * @param {import('../engine/run-handle.js').IntervalEvent} e
   * @param {string} [scenario] in a scenario run: whose interval
   */
  addInterval (e, scenario) {
    const iv = e.interval
    const labels = (more) => this.#labels(scenario, more)
    for (const [type, c] of Object.entries(e.types)) {
      if (c.count > 0) this.transactions.inc(labels({ type }), c.count)
      if (c.retries > 0) this.retries.inc(labels({ type }), c.retries)
      if (c.failed > 0) for (const [kind, n] of Object.entries(c.errors ?? { unknown: c.failed })) this.failures.inc(labels({ type, kind }), n)
    }
    for (const [type, encoded] of Object.entries(iv.histograms ?? {})) this.latency.addHdr(labels({ type }), decodeHistogram(encoded))
    if (iv.lagHistogram) this.lag.addHdr(labels(), decodeHistogram(iv.lagHistogram))
    this.loadAt(e.connections, scenario)
    this.#set(this.elapsed, e.elapsedS, scenario)
    this.#set(this.measuring, e.final ? 0 : 1, scenario)
    const durationS = this.durationsS.get(scenario ?? '')
    if (durationS) this.#set(this.progress, Math.min(1, e.elapsedS / durationS), scenario)
  }

  /**
   * @param {import('../engine/run-handle.js').WarmupEvent} e a warm-up interval passed
   * @param {string} [scenario]
   */
  addWarmup (e, scenario) { this.loadAt(e.connections, scenario) }

  /**
   * @param {import('../engine/run-handle.js').ConnectionUse} c
   * @param {string} [scenario]
   */
  loadAt (c, scenario) {
    this.#set(this.inUse, c.active, scenario)
    this.#set(this.waiting, c.waiting, scenario)
  }

  /**
   * One server sample (lib/server/stats/sampler.js): its rates over the time since the last one.
   * @param {any} entry
   * @param {{ events: any[] }} sampler
   */
  addServerSample (entry, sampler) {
    if (entry.warmup) { this.lastSampleT = entry.t; return }
    const dt = entry.t - this.lastSampleT
    this.lastSampleT = entry.t
    if (dt > 0) {
      for (const [key, c] of Object.entries(this.server)) {
        const rate = entry[key]
        if (typeof rate === 'number' && rate > 0) c.inc(rate * dt)
      }
    }
    const ends = sampler.events.filter((ev) => ev.kind === 'checkpoint-end').length
    if (ends > this.checkpointsSeen) this.checkpoints.inc(ends - this.checkpointsSeen)
    this.checkpointsSeen = Math.max(this.checkpointsSeen, ends)
    if (entry.backends) for (const [state, n] of Object.entries(entry.backends)) if (typeof n === 'number') this.backends.set({ state }, n)
  }

  /**
   * The wait sampler's counts of the interval just closed (lib/waits/interval-classes.js): a class
   * without samples in it goes to 0, not its last value.
   * @param {import('../waits/interval-classes.js').IntervalCounts|undefined} counts
   */
  addWaits (counts) {
    this.waitClasses ??= new Set()
    for (const cls of this.waitClasses) if (!counts?.samples.has(cls)) this.waitSessions.set({ class: cls }, 0)
    if (!counts || counts.ticks === 0) return
    for (const [cls, n] of counts.samples) {
      this.waitClasses.add(cls)
      this.waitSessions.set({ class: cls }, Math.round(n / counts.ticks * 1000) / 1000)
      this.waitSamples.inc({ class: cls }, n)
    }
  }

  /** @param {string} [scenario] in a scenario run: the scenario that finished */
  finish (scenario) {
    if (!this.scenarioLabel) this.measuring.set(0)
    else if (scenario !== undefined) this.measuring.set({ scenario }, 0)
    // a scenario run's end: every scenario's window is closed
    else for (const name of this.durationsS.keys()) this.measuring.set({ scenario: name }, 0)
  }

  /** @returns {Promise<string>} the Prometheus text format */
  text () { return this.registry.metrics() }

  get contentType () { return this.registry.contentType }
}
