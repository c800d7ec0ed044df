// With --failover, the key of each acknowledged New-Order commit (its orders row: warehouse,
// district, order number), in commit order, so that the RPO check can list the orders the new
// primary lacks (lib/failover/history-check.js). 12 bytes per commit, in one typed array that
// doubles as it fills.

const WIDTH = 3

export class OrderLog {
  constructor () {
    this.values = new Int32Array(WIDTH * 1024)
    this.count = 0
  }

  /** @param {number} w @param {number} d @param {number} oId */
  add (w, d, oId) {
    const at = this.count * WIDTH
    if (at + WIDTH > this.values.length) {
      const bigger = new Int32Array(this.values.length * 2)
      bigger.set(this.values)
      this.values = bigger
    }
    this.values[at] = w
    this.values[at + 1] = d
    this.values[at + 2] = oId
    this.count++
  }

  /**
   * The i-th commit's order.
   * @param {number} i
   * @returns {{ w: number, d: number, oId: number }}
   */
  entry (i) {
    const at = i * WIDTH
    return { w: this.values[at], d: this.values[at + 1], oId: this.values[at + 2] }
  }

  /** The i-th commit as a key `w,d,o_id`, as `rowsSql`'s rows give it. @param {number} i */
  key (i) {
    const at = i * WIDTH
    return `${this.values[at]},${this.values[at + 1]},${this.values[at + 2]}`
  }

  /**
   * The run's orders rows on the server, by key, with how many have it (one).
   * @param {string} since a timestamp literal: the server's clock before the run
   */
  rowsSql (since) {
    return `select o_w_id, o_d_id, o_id, count(*) from orders where o_entry_d >= ${since} group by 1, 2, 3`
  }
}
