// The results so far, as a results-shaped document the report's charts read (lib/report): the
// closed intervals, per type the counts and the latency histogram merged so far, and the server
// series the sampler has taken. Kept cheap on the run's tick: intervals are stored without their
// histograms, which are merged into the per-type ones only when a page asks (or in batches).

import { addInto, createHistogram, decodeHistogram, encodeHistogram, latencySummaryMs } from '../metrics/histogram.js'
import { round3 } from '../format/round.js'

// encoded interval histograms kept before they are merged even when no page asks
const MERGE_BATCH = 60

export class LiveDocument {
  /**
   * @param {{ workload: string, label?: string|null, intervalS: number, startTime: string, shard?: { index: number, count: number }|null }} meta
   *   nothing secret: no server address, no command line, no environment
   */
  constructor (meta) {
    this.meta = meta
    this.shape = { terminals: 0, connections: 0, durationS: null, warmupS: 0, types: [] }
    this.intervals = []
    this.elapsedS = 0
    this.phase = 'starting' // starting | warm-up | running | finished
    this.warmup = null
    this.load = { activeConnections: 0, waiting: 0 }
    /** the run's state and why, as its 'status' events say (null: not started) */
    this.status = null
    /** @type {Map<string, { count: number, failed: number, retries: number, hist: any, pending: string[], latencyMs: any }>} */
    this.types = new Map()
    this.failed = 0
    this.retries = 0
    this.sampler = null
    /** @type {import('../waits/interval-classes.js').IntervalClasses|null} the wait sampler's counts per interval */
    this.waits = null
    /** the entries of the wait classes made so far (waitSeries) */
    this._waitSeries = []
    /** @type {import('../engine/run-handle.js').StageEvent|null} the stage of the load profile under way */
    this.stage = null
    /** the stages begun so far, in the results document's shape as far as the charts read it */
    this.stages = []
    /** a scenario run's planned windows by name ({ startS, endS }), which the charts mark; null otherwise */
    this.scenarios = null
    this.version = 0
  }

  /** @param {import('../engine/run-handle.js').StageEvent} e a stage of --stages or --clients-stages begins */
  setStage (e) {
    this.stage = e
    // the charts shade the stages begun, each over its planned time, and judge no steady state
    // for a load that changes on purpose (lib/report/stage-data.js)
    this.stages = this.stages.filter((s) => s.index !== e.index)
    this.stages.push({ index: e.index, kind: e.kind, startS: e.startS, lengthS: round3(e.endS - e.startS), target: e.target, ramp: e.ramp })
    this.version++
  }

  /** @param {import('./run-events.js').RunShape} shape */
  setShape (shape) {
    this.shape = shape
    for (const name of shape.types) this.typeOf(name)
  }

  /** The server statistics sampler whose series and events the charts show (or null). */
  setSampler (sampler) { this.sampler = sampler }

  /** @param {import('../waits/interval-classes.js').IntervalClasses|null} classes the wait classes over time to show (null: none) */
  setWaits (classes) {
    this.waits = classes
    this._waitSeries = []
  }

  /** @param {import('../engine/run-handle.js').WarmupEvent} e */
  addWarmup (e) {
    this.phase = 'warm-up'
    this.warmup = { elapsedS: e.elapsedS, warmupS: e.warmupS }
    this.load = { activeConnections: e.connections.active, waiting: e.connections.waiting }
    this.version++
  }

  /** @param {import('../engine/run-handle.js').IntervalEvent} e */
  addInterval (e) {
    const { histograms, lagHistogram, queueHistogram, ...entry } = e.interval
    this.intervals.push(entry)
    for (const [name, c] of Object.entries(e.types)) {
      const t = this.typeOf(name)
      t.count += c.count
      t.failed += c.failed
      t.retries += c.retries
      this.failed += c.failed
      this.retries += c.retries
    }
    for (const [name, encoded] of Object.entries(histograms ?? {})) {
      const t = this.typeOf(name)
      t.pending.push(encoded)
      if (t.pending.length >= MERGE_BATCH) mergePending(t)
    }
    this.elapsedS = e.elapsedS
    this.phase = e.final ? this.phase : 'running'
    this.load = { activeConnections: e.connections.active, waiting: e.connections.waiting }
    this.version++
  }

  /** @param {import('../engine/run-handle.js').RunStatus} status a change of the run's state */
  setStatus (status) {
    this.status = { state: status.state, reason: status.reason }
    this.version++
  }

  finish () {
    this.phase = 'finished'
    this.version++
  }

  /** Transactions so far, all types. */
  get transactions () {
    let n = 0
    for (const t of this.types.values()) n += t.count
    return n
  }

  /**
   * The document so far, in the results document's shape as far as the charts read it.
   * @param {{ histograms?: boolean }} [opts] histograms: false leaves out each type's merged
   *   histogram (null), and gives the latency figures as they were when last merged
   * @returns {any}
   */
  document ({ histograms = true } = {}) {
    const transactions = {}
    for (const [name, t] of this.types) {
      if (histograms) {
        mergePending(t)
        t.latencyMs = latencySummaryMs(t.hist)
      }
      transactions[name] = {
        count: t.count,
        failed: t.failed,
        retries: t.retries,
        tps: this.elapsedS > 0 ? round3(t.count / this.elapsedS) : null,
        latencyMs: t.latencyMs ?? latencySummaryMs(t.hist),
        histogram: histograms && t.hist.totalCount > 0 ? encodeHistogram(t.hist) : null
      }
    }
    const s = this.sampler
    return {
      run: {
        workload: this.meta.workload,
        label: this.meta.label ?? null,
        startTime: this.meta.startTime,
        durationS: round3(this.elapsedS),
        transactionTypes: [...this.types.keys()],
        options: { intervalS: this.meta.intervalS }
      },
      transactions,
      intervals: this.intervals,
      stages: this.stages,
      serverStats: s ? { series: s.series.filter((e) => !e.warmup), events: [...s.events] } : null,
      ...(this.waits ? { waits: { available: true, series: this.waitSeries() } } : {}),
      ...(this.scenarios ? { scenarios: this.scenarios } : {})
    }
  }

  /**
   * The wait classes of the intervals closed so far (the one under way is not done): each made
   * once, but the last again, which a read sent before its end may still reach.
   */
  waitSeries () {
    const made = this._waitSeries
    made.length = Math.max(0, Math.min(made.length, this.intervals.length - 1))
    for (let i = made.length; i < this.intervals.length; i++) made.push(this.waits.entry(i, this.intervals[i]))
    return made.slice()
  }

  typeOf (name) {
    let t = this.types.get(name)
    if (!t) {
      t = { count: 0, failed: 0, retries: 0, hist: createHistogram(), pending: [], latencyMs: null }
      this.types.set(name, t)
    }
    return t
  }
}

function mergePending (t) {
  for (const encoded of t.pending) addInto(t.hist, decodeHistogram(encoded))
  t.pending.length = 0
}
