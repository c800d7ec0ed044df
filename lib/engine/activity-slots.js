// What each of a run's connections is doing, published for a reader outside the transaction path
// (the wait sampler): one preallocated slot per connection, written with plain stores by the
// terminal that holds the connection, no allocation per transaction or statement. With worker
// threads the arrays sit on SharedArrayBuffers: each worker takes its own range of slots, the
// reader in the main thread sees them all. Aligned 32- and 64-bit stores are read whole; the reader
// checks a slot before and after its read of the server, so a store seen late costs at most one
// sample's attribution.

/** Int32 fields of a slot. */
export const PID = 0 // the connection's backend pid; 0: the slot is free
export const TYPE = 1 // the transaction type running on it; -1: between transactions
export const STATEMENT = 2 // the statement of that type running (the workload's index); -1: none said
export const SEQ = 3 // transactions begun on the slot, the one running included
export const WANT = 4 // the sequence number whose latency a reader asks for (0: none)
export const DONE = 5 // the sequence number whose latency is in the slot's latency field
export const SLOT_INTS = 6
/** The PID of a slot whose connection's key is no server backend's pid (a pooler's). */
export const NOT_A_BACKEND = -1

/**
 * What a worker thread needs to use its range of a run's shared slots (posted to it).
 * @typedef {{ capacity: number, buffers: { ints: SharedArrayBuffer, latencyUs: SharedArrayBuffer }, first: number, count: number }} SharedSlots
 */

/** Slots of the run: `capacity` slots, each with SLOT_INTS ints and one latency (microseconds). */
export class ActivitySlots {
  /**
   * @param {number} capacity how many connections can hold a slot at once
   * @param {{ shared?: boolean, buffers?: SharedSlots['buffers'], first?: number, count?: number }} [opts]
   *   shared: on SharedArrayBuffers (worker threads); buffers: those of another thread's slots, of
   *   which this one takes slots first .. first + count - 1
   */
  constructor (capacity, { shared = false, buffers = undefined, first = 0, count = capacity } = {}) {
    this.capacity = capacity
    const Buffer = shared ? SharedArrayBuffer : ArrayBuffer
    /** @type {Int32Array} */
    this.ints = new Int32Array(buffers?.ints ?? new Buffer(capacity * SLOT_INTS * 4))
    /** @type {Float64Array} latency of the transaction numbered DONE, microseconds */
    this.latencyUs = new Float64Array(buffers?.latencyUs ?? new Buffer(capacity * 8))
    // free slots, a stack: a connection opened takes one, a connection closed gives it back
    this._free = new Int32Array(count)
    for (let i = 0; i < count; i++) this._free[i] = first + count - 1 - i
    this._freeCount = count
  }

  /**
   * Slots first .. first + count - 1 for a worker thread (shared slots only).
   * @param {number} first @param {number} count
   * @returns {SharedSlots}
   */
  share (first, count) {
    const buffers = { ints: /** @type {SharedArrayBuffer} */ (this.ints.buffer), latencyUs: /** @type {SharedArrayBuffer} */ (this.latencyUs.buffer) }
    return { capacity: this.capacity, buffers, first, count }
  }

  /**
   * A worker thread's slots, over the buffers the main thread shared.
   * @param {SharedSlots} shared
   */
  static over (shared) {
    return new ActivitySlots(shared.capacity, shared)
  }

  /**
   * A connection opened: give it a slot (`conn.activityBase`, the index of its first int), or
   * none (-1) when every slot is taken.
   * @param {{ backendPid?: number, activityBase?: number }} conn
   */
  bind (conn) {
    const pid = conn.backendPid
    // a key that is no server's pid (a pooler's, which may be negative) takes a slot marked so:
    // the sampler then knows its connections have no backend it could read
    if (typeof pid !== 'number' || this._freeCount === 0) { conn.activityBase = -1; return }
    const base = this._free[--this._freeCount] * SLOT_INTS
    const a = this.ints
    a[base + PID] = pid > 0 ? pid : NOT_A_BACKEND
    a[base + TYPE] = -1
    a[base + STATEMENT] = -1
    a[base + WANT] = 0
    a[base + DONE] = 0
    conn.activityBase = base
  }

  /**
   * A connection closed: its slot is free again.
   * @param {{ activityBase?: number }} conn
   */
  unbind (conn) {
    const base = conn.activityBase
    if (base === undefined || base < 0) return
    conn.activityBase = -1
    this.ints[base + PID] = 0
    this.ints[base + TYPE] = -1
    this._free[this._freeCount++] = base / SLOT_INTS
  }

  /**
   * A transaction of type `type` begins on the connection whose slot starts at `base`.
   * @param {number} base @param {number} type
   */
  begin (base, type) {
    const a = this.ints
    a[base + TYPE] = type
    a[base + STATEMENT] = -1
    a[base + SEQ]++
  }

  /**
   * The transaction on the slot ended.
   * @param {number} base
   * @returns {number} its sequence number (for latency())
   */
  end (base) {
    const a = this.ints
    a[base + TYPE] = -1
    return a[base + SEQ]
  }

  /**
   * The latency of transaction `seq` of the slot, kept when a reader asked for it.
   * @param {number} base @param {number} seq @param {number} latencyUs
   */
  latency (base, seq, latencyUs) {
    const a = this.ints
    if (a[base + WANT] !== seq) return
    this.latencyUs[base / SLOT_INTS] = latencyUs
    a[base + DONE] = seq
  }
}
