// The run's pools when transaction types are routed to servers of their own (--route): the run's
// own pool first, then one per other target, each as large as the run's own (a terminal holds a
// connection only while a transaction runs, so each needs at most that many). The run drives the
// group as one pool; a terminal takes and returns its connection in its type's pool.

export class PoolGroup {
  /** @param {import('./pool.js').ConnectionPool[]} pools the run's own first */
  constructor (pools) {
    this.pools = pools
    this.main = pools[0]
  }

  get active () { return this.pools.reduce((n, p) => n + p.active, 0) }
  get waiting () { return this.pools.reduce((n, p) => n + p.waiting, 0) }
  // the connect figures and backends of the run's own server, where its statistics are sampled
  get connects () { return this.main.connects }
  get connectUs () { return this.main.connectUs }
  get closedPids () { return this.main.closedPids }

  /**
   * Open every pool, one after the other; one that fails closes them all.
   * @returns {Promise<number>} elapsed milliseconds
   */
  async fill () {
    let ms = 0
    try {
      for (const p of this.pools) ms += await p.fill()
    } catch (err) {
      await this.close()
      throw err
    }
    return ms
  }

  failWaiters () {
    for (const p of this.pools) p.failWaiters()
  }

  /** @param {{ timeoutMs?: number }} [opts] */
  async close (opts) {
    await Promise.all(this.pools.map((p) => p.close(opts)))
  }
}
