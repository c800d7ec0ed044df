// --stages: the arrivals of a part of the run as a non-homogeneous Poisson process, by time
// change: a unit-rate process (sums of Exp(1) draws) mapped through the inverse of the expected
// arrivals so far, Λ(t), which is piecewise quadratic (the rate is piecewise linear). Arrivals
// no terminal has taken wait in a bounded FIFO; past its bound they are dropped and counted.
// Allocation-free once running: typed arrays, no object per arrival.

/**
 * The queue is seen lazily: between two takes nothing leaves it, so when a terminal takes an
 * arrival at `nowUs`, every arrival due by then is admitted (or dropped) first, in order, which is
 * what the queue held at each of those arrival times. The run's tick does the same (settle), so
 * drops are counted within an interval of happening even when no terminal is free for long.
 */
export class StagedArrivals {
  /**
   * @param {import('../plan/profile.js').StageProfile} profile whole-run targets
   * @param {number} share this part's fraction of the arrivals (its terminals / the run's)
   * @param {import('../random/prng.js').Prng} random the part's arrival stream
   * @param {{ dropped(stage?: number): void, arrived(stage?: number): void, stageAt?: (relUs: number) => number }} recorder
   *   counts the arrivals of the measured window (when admitted or dropped, or, taken by a free
   *   terminal, once due) and the drops, each in the stage it arrived in (stageAt, on the measured
   *   clock: decided once per arrival, when it is first seen)
   */
  constructor (profile, share, random, recorder) {
    const n = profile.stages.length + 1 // the warm-up before the first stage, then the stages
    this._startUs = new Float64Array(n)
    this._endUs = new Float64Array(n)
    this._a = new Float64Array(n) // arrivals per us at the segment's start
    this._k = new Float64Array(n) // change of that per us
    this._lambda = new Float64Array(n + 1) // expected arrivals before each segment
    this._profile = profile
    this._share = share
    this._random = random
    this._recorder = recorder
    const whole = profile.maxQueue
    this._cap = whole > 0 ? Math.max(1, Math.round(whole * share)) : 0
    this._ring = new Float64Array(Math.min(Math.max(this._cap, 1), 1024))
    this._ringStage = new Int32Array(this._ring.length) // each waiting arrival's stage
    this._head = 0
    this._size = 0
    // arrivals a free terminal holds, not due yet (in order): counted, and let go, when due
    this._early = new Float64Array(16)
    this._earlyStage = new Int32Array(16)
    this._earlyHead = 0
    this._earlySize = 0
    this._abandoned = [] // held by a terminal that stopped first (only as the run stops): arrival, stage
    this._stageAt = typeof recorder.stageAt === 'function' ? (relUs) => recorder.stageAt(relUs) : () => -1
    /** the stage of the arrival take() returned last (-1: before the measured window) */
    this.lastStage = -1
    this._seg = 0
    this._sum = 0 // the unit-rate process: expected arrivals at the next arrival
    this._pendingUs = Infinity
    this._lastUs = -Infinity // the last arrival handed out or admitted
    this._measureStartUs = 0
    this._deadlineUs = Infinity
    this.dropped = 0
  }

  /** Arrivals this part may hold waiting (its share of --max-queue). */
  get capacity () { return this._cap }

  /**
   * The clock starts: the warm-up (at the profile's `before` rate) from startUs, the stages from
   * measureStartUs; nothing is due at or after deadlineUs.
   * @param {number} startUs @param {number} measureStartUs @param {number} deadlineUs
   */
  begin (startUs, measureStartUs, deadlineUs) {
    const p = this._profile
    const perUs = this._share / 1e6
    this._startUs[0] = startUs
    this._endUs[0] = measureStartUs
    this._a[0] = p.before * perUs
    this._k[0] = 0
    p.stages.forEach((s, i) => {
      const j = i + 1
      this._startUs[j] = measureStartUs + s.startUs
      this._endUs[j] = measureStartUs + s.endUs
      const from = s.ramp ? s.from : s.to
      this._a[j] = from * perUs
      this._k[j] = (s.to - from) * perUs / (s.endUs - s.startUs)
    })
    for (let j = 0; j < this._a.length; j++) {
      const d = this._endUs[j] - this._startUs[j]
      this._lambda[j + 1] = this._lambda[j] + this._a[j] * d + this._k[j] * d * d / 2
    }
    this._measureStartUs = measureStartUs
    this._deadlineUs = deadlineUs
    this._pendingUs = this._draw()
  }

  /**
   * A new whole-run rate from atUs to the profile's end (an adaptive stage: `pgload capacity`).
   * The unit-rate process goes on; only its map to time changes after atUs, so the arrivals stay
   * one Poisson process, those due before atUs are admitted (or dropped) at the old rate, and the
   * next one drawn is moved to where the new rate puts it (it may be due already: the change is
   * made a little after atUs, and arrivals count from their scheduled time). The change moves
   * past atUs only as far as the last arrival already handed out.
   * @param {number} atUs when the new rate begins (a stage's start, in the recent past)
   * @param {number} ratePerS arrivals per second for the whole run, >= 0
   */
  changeRate (atUs, ratePerS) {
    this.settle(atUs)
    atUs = Math.max(atUs, this._lastUs)
    let j = this._a.length - 1
    while (j > 0 && this._startUs[j] > atUs) j--
    const endUs = this._endUs[this._a.length - 1]
    const d = Math.max(0, atUs - this._startUs[j])
    const lambdaAt = this._lambda[j] + this._a[j] * d + (this._k[j] === 0 ? 0 : this._k[j] * d * d / 2)
    // segments 0..j-1 as they were, j cut at atUs, then the new rate to the end
    const n = j + 2
    const grow = (old) => { const a = new Float64Array(n); a.set(old.subarray(0, Math.min(n, old.length))); return a }
    this._startUs = grow(this._startUs)
    this._endUs = grow(this._endUs)
    this._a = grow(this._a)
    this._k = grow(this._k)
    const lambda = new Float64Array(n + 1)
    lambda.set(this._lambda.subarray(0, j + 1))
    this._lambda = lambda
    this._endUs[j] = atUs
    this._startUs[j + 1] = atUs
    this._endUs[j + 1] = Math.max(atUs, endUs)
    this._a[j + 1] = ratePerS * this._share / 1e6
    this._k[j + 1] = 0
    lambda[j + 1] = lambdaAt
    lambda[j + 2] = lambdaAt + this._a[j + 1] * (this._endUs[j + 1] - atUs)
    if (this._pendingUs !== Infinity || this._sum < lambda[n]) {
      this._seg = Math.min(this._seg, j)
      this._pendingUs = this._map()
    }
  }

  /**
   * The arrival a free terminal takes at nowUs: the oldest waiting, else the next to come
   * (Infinity: no more arrivals in the run).
   * @param {number} nowUs
   * @returns {number} the scheduled arrival, monotonic microseconds
   */
  take (nowUs) {
    this.settle(nowUs)
    if (this._size > 0) {
      const t = this._ring[this._head]
      this.lastStage = this._ringStage[this._head]
      this._head = (this._head + 1) % this._ring.length
      this._size--
      return t
    }
    const t = this._pendingUs
    const stage = this.lastStage = this._stageOf(t)
    // one not due yet is held by the terminal, and counted when it is due, in its interval
    if (t > nowUs && t < this._deadlineUs) this._pushEarly(t, stage)
    else if (t >= this._measureStartUs && t < this._deadlineUs) this._recorder.arrived(stage)
    if (t !== Infinity) this._lastUs = t
    this._pendingUs = this._draw()
    return t
  }

  /**
   * Whether a free terminal should wait rather than take an arrival at nowUs: none is waiting,
   * and the next to come is already held by another free terminal. A terminal holds an arrival
   * from when it takes it until it is due; at most one does, so a rate changed meanwhile
   * (changeRate) moves every arrival after it.
   * @param {number} nowUs
   * @returns {boolean}
   */
  mustWait (nowUs) {
    this.settle(nowUs)
    return this._size === 0 && this._earlySize > 0 && this._pendingUs > nowUs && this._pendingUs < this._deadlineUs
  }

  /**
   * Admit every arrival due by nowUs into the queue, dropping those that find it full.
   * @param {number} nowUs
   */
  settle (nowUs) {
    while (this._earlySize > 0 && this._early[this._earlyHead] <= nowUs) {
      const t = this._early[this._earlyHead]
      const stage = this._earlyStage[this._earlyHead]
      this._earlyHead = (this._earlyHead + 1) % this._early.length
      this._earlySize--
      if (t >= this._measureStartUs) this._recorder.arrived(stage)
    }
    while (this._pendingUs <= nowUs && this._pendingUs < this._deadlineUs) {
      const measured = this._pendingUs >= this._measureStartUs
      const stage = this._stageOf(this._pendingUs)
      this._lastUs = this._pendingUs
      if (measured) this._recorder.arrived(stage)
      if (this._size < this._cap) this._push(this._pendingUs, stage)
      else {
        this.dropped++
        if (measured) this._recorder.dropped(stage)
      }
      this._pendingUs = this._draw()
    }
  }

  /**
   * Drop every arrival waiting for a terminal (counted as dropped): a new stage that must not
   * inherit the backlog of the one before (`pgload capacity` after a step the server could not
   * hold), and at the run's end those no terminal served.
   * @returns {number} the arrivals dropped
   */
  dropWaiting () {
    const n = this._size
    for (let i = 0; i < n; i++) {
      this.dropped++
      const at = (this._head + i) % this._ring.length
      if (this._ring[at] >= this._measureStartUs) this._recorder.dropped(this._ringStage[at])
    }
    this._head = 0
    this._size = 0
    return n
  }

  /**
   * A terminal stopped without serving the arrival it held (the run is stopping).
   * @param {number} t the arrival
   * @param {number} [stage] its stage (lastStage when the terminal took it)
   */
  abandon (t, stage = this._stageOf(t)) {
    if (t < this._deadlineUs) this._abandoned.push(t, stage)
  }

  /**
   * The run's end: every arrival due by endUs counted, and those never served (waiting for a
   * terminal, or held by one that stopped) dropped.
   * @param {number} endUs
   */
  end (endUs) {
    this.settle(endUs)
    const abandoned = this._abandoned
    for (let i = 0; i < abandoned.length; i += 2) {
      const t = abandoned[i]
      if (t > endUs) continue
      this.dropped++
      if (t >= this._measureStartUs) this._recorder.dropped(abandoned[i + 1])
    }
    this._abandoned.length = 0
    this.dropWaiting()
  }

  /** Arrivals waiting for a terminal now. */
  get waiting () { return this._size }

  /** The stage of an arrival at t (monotonic us), -1 outside the measured window. */
  _stageOf (t) {
    return t >= this._measureStartUs && t < this._deadlineUs ? this._stageAt(t - this._measureStartUs) : -1
  }

  _push (t, stage) {
    if (this._size === this._ring.length) this._grow()
    const at = (this._head + this._size) % this._ring.length
    this._ring[at] = t
    this._ringStage[at] = stage
    this._size++
  }

  _pushEarly (t, stage) {
    if (this._earlySize === this._early.length) {
      const old = this._early
      const oldStage = this._earlyStage
      const ring = new Float64Array(old.length * 2)
      const stages = new Int32Array(old.length * 2)
      for (let i = 0; i < this._earlySize; i++) {
        ring[i] = old[(this._earlyHead + i) % old.length]
        stages[i] = oldStage[(this._earlyHead + i) % old.length]
      }
      this._early = ring
      this._earlyStage = stages
      this._earlyHead = 0
    }
    const at = (this._earlyHead + this._earlySize) % this._early.length
    this._early[at] = t
    this._earlyStage[at] = stage
    this._earlySize++
  }

  _grow () {
    const old = this._ring
    const oldStage = this._ringStage
    const ring = new Float64Array(Math.min(old.length * 2, this._cap))
    const stages = new Int32Array(ring.length)
    for (let i = 0; i < this._size; i++) {
      ring[i] = old[(this._head + i) % old.length]
      stages[i] = oldStage[(this._head + i) % old.length]
    }
    this._ring = ring
    this._ringStage = stages
    this._head = 0
  }

  /** The next arrival: Λ⁻¹ of the unit-rate process's next point; Infinity past the last stage. */
  _draw () {
    this._sum += -Math.log(1 - this._random.double())
    return this._map()
  }

  /** Λ⁻¹ of the unit-rate process's current point (this._sum). */
  _map () {
    const lambda = this._lambda
    const last = this._a.length - 1
    while (this._seg <= last && lambda[this._seg + 1] < this._sum) this._seg++
    if (this._seg > last) return Infinity
    const j = this._seg
    const x = this._sum - lambda[j]
    const a = this._a[j]
    const k = this._k[j]
    // a τ + k τ² / 2 = x, in the form that stays exact when k is near 0
    const root = Math.sqrt(Math.max(0, a * a + 2 * k * x))
    const tau = a + root > 0 ? 2 * x / (a + root) : 0
    return Math.round(this._startUs[j] + tau)
  }
}
