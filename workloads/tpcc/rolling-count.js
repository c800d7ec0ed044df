// Events per whole second over a sliding window (the progress line's rolling tpmC): a ring of
// per-second counters, so counting is O(1) and reading is O(window).

export class RollingCount {
  /** @param {number} windowS the longest window read, in seconds */
  constructor (windowS) {
    this.windowS = windowS
    this.size = windowS + 2
    this.counts = new Uint32Array(this.size)
    this.seconds = new Float64Array(this.size).fill(-1)
  }

  /** @param {number} atS the event's time in seconds (any clock, the same for every call) */
  add (atS) {
    const s = Math.floor(atS)
    const i = s % this.size
    if (this.seconds[i] !== s) {
      this.seconds[i] = s
      this.counts[i] = 0
    }
    this.counts[i]++
  }

  /**
   * Events per minute over the whole seconds before nowS: the last `windowS` of them, or the
   * whole seconds since fromS when that is later (the run started less than a window ago); a
   * window of 0 before the first whole second, never a rate over a fraction of one.
   * @param {number} nowS
   * @param {number} fromS
   * @returns {{ perMinute: number, windowS: number }}
   */
  perMinute (nowS, fromS) {
    const end = Math.floor(nowS)
    const start = Math.max(end - this.windowS, Math.ceil(fromS))
    const windowS = end - start
    if (windowS <= 0) return { perMinute: 0, windowS: 0 }
    let n = 0
    for (let s = Math.floor(start); s < end; s++) {
      const i = s % this.size
      if (this.seconds[i] === s) n += this.counts[i]
    }
    return { perMinute: n * 60 / windowS, windowS }
  }
}
