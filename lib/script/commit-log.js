// With --failover, the values that identify each acknowledged commit of pgbench's history scripts
// (tpcb-like, simple-update: the pgbench_history row it inserted), in commit order, so that the
// RPO check can list the commits the new primary lacks (lib/failover/history-check.js).
// 16 bytes per commit, in one typed array that doubles as it fills.

/** The script variables a pgbench_history row is made of, in its column order. */
export const HISTORY_VARIABLES = Object.freeze(['tid', 'bid', 'aid', 'delta'])
const WIDTH = HISTORY_VARIABLES.length

export class CommitLog {
  /** @param {number[]} slots the variables' slots (HISTORY_VARIABLES' order) */
  constructor (slots) {
    this.slots = slots
    this.values = new Int32Array(WIDTH * 1024)
    this.count = 0
  }

  /** @param {{ getParam: (slot: number) => number|string|null }} vars a terminal's variables after its commit */
  add (vars) {
    let at = this.count * WIDTH
    if (at + WIDTH > this.values.length) {
      const bigger = new Int32Array(this.values.length * 2)
      bigger.set(this.values)
      this.values = bigger
    }
    for (const slot of this.slots) this.values[at++] = Number(vars.getParam(slot))
    this.count++
  }

  /**
   * The i-th commit's values.
   * @param {number} i
   * @returns {{ tid: number, bid: number, aid: number, delta: number }}
   */
  entry (i) {
    const v = this.values
    const at = i * WIDTH
    return { tid: v[at], bid: v[at + 1], aid: v[at + 2], delta: v[at + 3] }
  }

  /**
   * The run's pgbench_history rows on the server, by their values, with how many have them.
   * @param {string} since a timestamp literal: the server's clock before the run
   */
  rowsSql (since) {
    return `select tid, bid, aid, delta, count(*) from pgbench_history where mtime >= ${since} group by 1, 2, 3, 4`
  }

  /** The i-th commit as a key `tid,bid,aid,delta`, as `rowsSql`'s rows give it. @param {number} i */
  key (i) {
    const at = i * WIDTH
    return `${this.values[at]},${this.values[at + 1]},${this.values[at + 2]},${this.values[at + 3]}`
  }
}
