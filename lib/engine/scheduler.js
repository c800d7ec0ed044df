// One timer for every wake-up in the run: a binary min-heap of (time, waiter) with a single
// setTimeout armed for the earliest deadline. Holds 100,000 sleeping terminals cheaply.

/**
 * Something that can be woken: the scheduler calls `wake(nowUs)` once its time has come.
 * @typedef {{ wake(nowUs: number): void }} Waiter
 */

export class Scheduler {
  /**
   * @param {{ nowUs: () => number }} clock
   */
  constructor ({ nowUs }) {
    this.nowUs = nowUs
    this._times = new Float64Array(1024)
    /** @type {Waiter[]} */
    this._items = []
    this._size = 0
    this._timer = null
    this._armedFor = Infinity
    this._immediate = null
    this._stopped = false
    this._fire = this._fire.bind(this)
  }

  get size () { return this._size }

  /**
   * Wake `waiter` at `atUs` (monotonic microseconds).
   * @param {number} atUs
   * @param {Waiter} waiter
   */
  add (atUs, waiter) {
    if (this._size === this._times.length) {
      const grown = new Float64Array(this._times.length * 2)
      grown.set(this._times)
      this._times = grown
    }
    // sift up
    let i = this._size++
    const times = this._times
    const items = this._items
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (times[parent] <= atUs) break
      times[i] = times[parent]
      items[i] = items[parent]
      i = parent
    }
    times[i] = atUs
    items[i] = waiter
    if (i === 0) this._arm()
  }

  /**
   * Wake every waiter due by `nowUs`, a clock reading the caller has just taken. The engine calls
   * it as each transaction ends: with many terminals, an end comes far more often than the 1 ms
   * a timer can resolve, so a due wake-up waits for the next end instead of the next timer tick.
   * Never early: only waiters whose time has come are woken.
   * @param {number} nowUs
   */
  wakeDue (nowUs) {
    if (this._size === 0 || this._times[0] > nowUs || this._stopped) return
    while (this._size > 0 && this._times[0] <= nowUs) {
      this._pop().wake(nowUs)
    }
    this._arm()
  }

  /** Stop firing; pending waiters are dropped. */
  stop () {
    this._stopped = true
    if (this._timer) clearTimeout(this._timer)
    if (this._immediate) clearImmediate(this._immediate)
    this._timer = null
    this._immediate = null
    this._items.length = 0
    this._size = 0
  }

  _pop () {
    const times = this._times
    const items = this._items
    const top = items[0]
    const last = --this._size
    const t = times[last]
    const item = items[last]
    items[last] = undefined
    // sift down
    let i = 0
    const half = last >> 1
    while (i < half) {
      let child = 2 * i + 1
      if (child + 1 < last && times[child + 1] < times[child]) child++
      if (times[child] >= t) break
      times[i] = times[child]
      items[i] = items[child]
      i = child
    }
    if (last > 0) {
      times[i] = t
      items[i] = item
    }
    return top
  }

  _arm () {
    if (this._stopped || this._size === 0) return
    const at = this._times[0]
    const delayUs = at - this.nowUs()
    // Overdue: the next turn of the event loop. Anything later gets a timer (1 ms granularity):
    // waiting for it on the event loop would burn client CPU.
    if (delayUs < 0) {
      if (this._immediate === null) this._immediate = setImmediate(this._fire)
      return
    }
    if (this._timer !== null && this._armedFor <= at) return
    if (this._timer !== null) clearTimeout(this._timer)
    this._armedFor = at
    this._timer = setTimeout(this._fire, Math.floor(delayUs / 1000))
  }

  _fire () {
    // A timer and an immediate can both be pending (an overdue wake-up came while the timer was
    // armed): whichever comes first cancels the other, or the other would fire on its own and
    // start a second chain of timers that re-arm each other for ever.
    if (this._timer !== null) clearTimeout(this._timer)
    if (this._immediate !== null) clearImmediate(this._immediate)
    this._timer = null
    this._immediate = null
    this._armedFor = Infinity
    if (this._stopped) return
    const now = this.nowUs()
    while (this._size > 0 && this._times[0] <= now) {
      this._pop().wake(now)
    }
    this._arm()
  }
}
