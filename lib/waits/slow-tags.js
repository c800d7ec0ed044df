// The wait samples of each type's slowest sampled transactions, one by one (--explain-slowest):
// the replayed transactions' own waits, matched by their activity slot and transaction number.
// Kept as the sampler counts a transaction's samples (at its rate, not per transaction).

/**
 * One transaction's samples.
 * @typedef {{ slot: number, seq: number, latencyUs: number, events: Record<string, number> }} TaggedTransaction
 */

export class SlowTags {
  /**
   * @param {number} typeCount @param {number} n transactions kept per type
   */
  constructor (typeCount, n) {
    this.n = n
    /** @type {TaggedTransaction[][]} */
    this.types = Array.from({ length: typeCount }, () => [])
  }

  /**
   * A sampled transaction ended: keep its samples when it is among its type's n slowest so far.
   * @param {number} slot @param {number} seq @param {number} latencyUs
   * @param {any[]} pending its samples, [type, statement, event, ...]
   */
  offer (slot, seq, latencyUs, pending) {
    const kept = this.types[pending[0]]
    if (kept === undefined) return
    let at = kept.length
    if (kept.length >= this.n) {
      at = 0
      for (let i = 1; i < kept.length; i++) if (kept[i].latencyUs < kept[at].latencyUs) at = i
      if (kept[at].latencyUs >= latencyUs) return
    }
    const events = {}
    for (let i = 2; i < pending.length; i += 3) events[pending[i]] = (events[pending[i]] ?? 0) + 1
    kept[at] = { slot, seq, latencyUs, events }
  }

  /**
   * The samples of the transaction numbered `seq` on `slot`, or null when none were kept.
   * @param {number} slot @param {number} seq
   * @returns {TaggedTransaction|null}
   */
  find (slot, seq) {
    for (const kept of this.types) for (const t of kept) if (t.slot === slot && t.seq === seq) return t
    return null
  }
}
