// The wait sampler's counts: samples by transaction type, statement and wait event, and by the
// latency of the transaction each sample belonged to (a log-scale bucket), so that the samples
// of the slowest transactions (above the type's p99, known only at the end) can be told apart.

export { latencyBucket, NO_LATENCY, NO_STATEMENT } from '../results/waits-figures.js'

/**
 * @typedef {object} TypeTally
 * @property {number} samples samples of the type's transactions (server time)
 * @property {Map<string, Map<number, number>>} events event -> latency bucket -> samples
 * @property {Map<number, Map<string, number>>} statements statement index -> event -> samples
 */

export class WaitTally {
  /** @param {number} typeCount */
  constructor (typeCount) {
    /** @type {TypeTally[]} */
    this.types = Array.from({ length: typeCount }, () => ({ samples: 0, events: new Map(), statements: new Map() }))
    /** connections between transactions: not any transaction's server time */
    this.idle = 0
    /** the backend idle outside a transaction while the client's had not ended: outside the server */
    this.outside = 0
    /** the connection moved from one transaction to another while it was sampled */
    this.moved = 0
    /** rows the server did not show (state NULL) */
    this.hidden = 0
    /** connections whose backend had no row (it had just exited) */
    this.gone = 0
  }

  /**
   * One sample of a transaction's server time.
   * @param {number} type @param {number} statement NO_STATEMENT when not known
   * @param {string} event @param {number} bucket NO_LATENCY when not known
   */
  add (type, statement, event, bucket) {
    const t = this.types[type]
    if (t === undefined) return
    t.samples++
    let byBucket = t.events.get(event)
    if (byBucket === undefined) t.events.set(event, byBucket = new Map())
    byBucket.set(bucket, (byBucket.get(bucket) ?? 0) + 1)
    let byEvent = t.statements.get(statement)
    if (byEvent === undefined) t.statements.set(statement, byEvent = new Map())
    byEvent.set(event, (byEvent.get(event) ?? 0) + 1)
  }

  /** Samples of every kind, attributed or not. */
  get total () {
    return this.types.reduce((n, t) => n + t.samples, 0) + this.idle + this.outside + this.moved + this.hidden + this.gone
  }
}
