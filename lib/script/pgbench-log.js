// pgbench-compatible --log files: one line per transaction, or --aggregate-interval lines
// (reference section 9.2/9.3), fed by the workload's onTransactionEnd hook.

import { closeSync, openSync, writeSync } from 'node:fs'

const FLUSH_BYTES = 64 * 1024

/** printf("%.0f"): round half to even, as glibc does on exact halves. */
function f0 (x) {
  const r = Math.round(x)
  return String((r - x === 0.5 && r % 2 !== 0) ? r - 1 : r)
}

function emptyStats (startUs) {
  return {
    startUs,
    cnt: 0,
    latSum: 0,
    latSum2: 0,
    latMin: 0,
    latMax: 0,
    lagSum: 0,
    lagSum2: 0,
    lagMin: 0,
    lagMax: 0,
    skipped: 0,
    retried: 0,
    retries: 0,
    serialization: 0,
    deadlock: 0
  }
}

/** Writes pgbench's log formats to `${prefix}.${pid}` (or to an injected `write`). */
export class PgbenchLogWriter {
  /**
   * @param {object} opts
   * @param {string} [opts.prefix] --log-prefix, default pgbench_log
   * @param {number} [opts.pid] file suffix, default process.pid
   * @param {number} [opts.aggregateIntervalS] --aggregate-interval
   * @param {number} [opts.samplingRate] --sampling-rate (0 < r <= 1)
   * @param {import('../random/prng.js').Prng} [opts.sample] pgbench's sample_rs
   * @param {boolean} [opts.throttled] -R given: lag fields
   * @param {number} [opts.maxTries] --max-tries: retries field unless 1
   * @param {boolean} [opts.failuresDetailed] serialization/deadlock instead of failed
   * @param {boolean} [opts.latencyLimited] -L given: skipped counts
   * @param {(text: string) => void} [opts.write] sink for tests; default a file
   */
  constructor (opts = {}) {
    this.aggUs = (opts.aggregateIntervalS ?? 0) * 1e6
    this.samplingRate = opts.samplingRate ?? 0
    this.sample = opts.sample ?? null
    this.throttled = !!opts.throttled
    this.maxTries = opts.maxTries ?? 1
    this.failuresDetailed = !!opts.failuresDetailed
    this.latencyLimited = !!opts.latencyLimited
    this.file = null
    this.fd = -1
    if (opts.write) this.sink = opts.write
    else {
      this.file = `${opts.prefix ?? 'pgbench_log'}.${opts.pid ?? process.pid}`
      this.fd = openSync(this.file, 'w')
      this.sink = null
    }
    this.buf = ''
    this.agg = null
  }

  _out (line) {
    if (this.sink) { this.sink(line); return }
    this.buf += line
    if (this.buf.length >= FLUSH_BYTES) this.flush()
  }

  flush () {
    if (this.fd >= 0 && this.buf.length > 0) writeSync(this.fd, this.buf)
    this.buf = ''
  }

  /**
   * Log one transaction (after the client's counter was incremented, as pgbench).
   * @param {number} clientId
   * @param {number} txnNo
   * @param {number} scriptIndex
   * @param {{ status: string, latencyUs: number, lagUs: number, tries: number, sqlstate: string|null, endEpochUs: number }} info
   */
  transaction (clientId, txnNo, scriptIndex, info) {
    if (this.samplingRate !== 0 && this.sample !== null && this.sample.double() > this.samplingRate) return
    const nowUs = Math.trunc(info.endEpochUs)
    const skipped = info.status === 'skipped'
    const failed = info.status === 'failed'
    if (this.aggUs > 0) {
      this.agg ??= emptyStats(Math.floor(nowUs / 1e6) * 1e6)
      while (this.agg.startUs + this.aggUs <= nowUs) {
        this._writeAggregate(this.agg)
        this.agg = emptyStats(this.agg.startUs + this.aggUs)
      }
      this._accumulate(this.agg, skipped, failed, info)
      return
    }
    let what
    if (skipped) what = 'skipped'
    else if (failed) what = this.failuresDetailed ? (info.sqlstate === '40P01' ? 'deadlock' : 'serialization') : 'failed'
    else what = f0(info.latencyUs)
    let line = `${clientId} ${txnNo} ${what} ${scriptIndex} ${Math.floor(nowUs / 1e6)} ${nowUs % 1e6}`
    if (this.throttled) line += ' ' + f0(info.lagUs)
    if (this.maxTries !== 1) line += ' ' + (info.tries - 1)
    this._out(line + '\n')
  }

  _accumulate (a, skipped, failed, info) {
    if (skipped) { a.skipped++; return }
    if (info.tries > 1) { a.retries += info.tries - 1; a.retried++ }
    if (failed) {
      if (info.sqlstate === '40P01') a.deadlock++
      else if (info.sqlstate === '40001') a.serialization++
      return
    }
    const lat = info.latencyUs
    if (a.cnt === 0 || lat < a.latMin) a.latMin = lat
    if (a.cnt === 0 || lat > a.latMax) a.latMax = lat
    a.latSum += lat
    a.latSum2 += lat * lat
    if (this.throttled) {
      const lag = info.lagUs
      if (a.cnt === 0 || lag < a.lagMin) a.lagMin = lag
      if (a.cnt === 0 || lag > a.lagMax) a.lagMax = lag
      a.lagSum += lag
      a.lagSum2 += lag * lag
    }
    a.cnt++
  }

  _writeAggregate (a) {
    const lag = this.throttled ? [a.lagSum, a.lagSum2, a.lagMin, a.lagMax] : [0, 0, 0, 0]
    const retried = this.maxTries !== 1 ? a.retried : 0
    const retries = this.maxTries !== 1 ? a.retries : 0
    this._out([
      Math.floor(a.startUs / 1e6), a.cnt, f0(a.latSum), f0(a.latSum2), f0(a.latMin), f0(a.latMax),
      ...lag.map(f0), this.latencyLimited ? a.skipped : 0, retried, retries,
      this.failuresDetailed ? a.serialization : 0, this.failuresDetailed ? a.deadlock : 0
    ].join(' ') + '\n')
  }

  /** Flush and close; the last, incomplete aggregate interval is not written (as pgbench). */
  close () {
    this.flush()
    if (this.fd >= 0) { closeSync(this.fd); this.fd = -1 }
  }
}
