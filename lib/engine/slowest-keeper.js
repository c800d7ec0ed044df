// The N slowest transactions of each type and the parameters they ran with (--explain-slowest),
// kept as the run goes: a transaction is looked at only when its latency beats its type's N-th
// slowest so far (one comparison against a typed array for all the others, no allocation).

import { SLOT_INTS } from './activity-slots.js'

/**
 * One kept transaction: its latency, what the workload captured of it, and where the wait
 * sampler saw it: its activity slot and transaction number there (slot -1: none).
 * @typedef {{ latencyUs: number, parameters: any, slot: number, seq: number }} SlowTransaction
 */

export class SlowestKeeper {
  /**
   * @param {number} typeCount transaction types
   * @param {number} n transactions kept per type (>= 1)
   * @param {(type: number, state: any, randomState: number[]) => any} capture the workload's
   *   captureParameters: what the terminal's state (and its random generator's state when the
   *   transaction began) holds of the transaction that just ended (plain data: it crosses threads)
   */
  constructor (typeCount, n, capture) {
    this.n = n
    this._capture = capture
    /** per type, the latency a transaction must beat to be kept (-1 until n are kept) */
    this.floorUs = new Float64Array(typeCount).fill(-1)
    /** @type {SlowTransaction[][]} */
    this.types = Array.from({ length: typeCount }, () => [])
  }

  /**
   * A transaction of `type` ended in `latencyUs`, slower than its type's floor: keep it.
   * @param {number} type @param {number} latencyUs @param {any} state the terminal's workload state
   * @param {number} [activityBase] its connection's activity slot (lib/engine/activity-slots.js), -1: none
   * @param {number} [activitySeq] its number in that slot
   * @param {number[]} [randomState] the terminal's random generator's state when the transaction began
   */
  offer (type, latencyUs, state, activityBase = -1, activitySeq = 0, randomState = undefined) {
    const kept = this.types[type]
    const slot = activityBase >= 0 ? activityBase / SLOT_INTS : -1
    const entry = { latencyUs, parameters: this._capture(type, state, randomState), slot, seq: activitySeq }
    if (kept.length < this.n) kept.push(entry)
    else kept[indexOfFastest(kept)] = entry
    if (kept.length === this.n) this.floorUs[type] = kept[indexOfFastest(kept)].latencyUs
  }

  /**
   * The kept transactions, slowest first, per type index.
   * @returns {SlowTransaction[][]}
   */
  entries () {
    return this.types.map((kept) => kept.slice().sort((a, b) => b.latencyUs - a.latencyUs))
  }
}

/** @param {SlowTransaction[]} kept */
function indexOfFastest (kept) {
  let at = 0
  for (let i = 1; i < kept.length; i++) if (kept[i].latencyUs < kept[at].latencyUs) at = i
  return at
}

/**
 * The N slowest per type over several parts' lists (worker threads).
 * @param {(SlowTransaction[][]|undefined)[]} parts each part's entries(), by type index
 * @param {number} n
 * @returns {SlowTransaction[][]|undefined}
 */
export function mergeSlowest (parts, n) {
  const lists = parts.filter((p) => p !== undefined)
  if (lists.length === 0) return undefined
  const typeCount = Math.max(...lists.map((l) => l.length))
  return Array.from({ length: typeCount }, (_, t) => lists.flatMap((l) => l[t] ?? []).sort((a, b) => b.latencyUs - a.latencyUs).slice(0, n))
}
