// --clients-stages: which terminals run when. The active number follows the profile (a step at
// a stage's start, or a linear ramp through it); terminal i (its number in the whole run, so that
// threads and shards agree) runs while that number is above i, and otherwise waits, holding no
// connection, until the time it is above i again.

export class ActiveClients {
  /**
   * @param {import('../plan/profile.js').StageProfile} profile
   */
  constructor (profile) {
    this._stages = profile.stages
    this._before = profile.before
    this._measureStartUs = 0
    this._deadlineUs = Infinity
  }

  /** @param {number} measureStartUs @param {number} deadlineUs */
  begin (measureStartUs, deadlineUs) {
    this._measureStartUs = measureStartUs
    this._deadlineUs = deadlineUs
  }

  /**
   * When terminal `id` may run: nowUs if it may now, else the first later time it may (Infinity:
   * not again before the run's end).
   * @param {number} id the terminal's number in the whole run
   * @param {number} nowUs monotonic microseconds
   * @returns {number}
   */
  runnableAtUs (id, nowUs) {
    const need = id + 1
    const rel = nowUs - this._measureStartUs
    if (rel < 0 && this._before >= need) return nowUs
    const stages = this._stages
    let i = 0
    while (i < stages.length && rel >= stages[i].endUs) i++
    const t = this._fromStage(i, need, Math.max(rel, 0))
    // runnable now: the clock's own reading, never one rounded up past it, which would put the
    // terminal to sleep for less than a microsecond again and again
    if (t <= rel) return nowUs
    const abs = this._measureStartUs + Math.ceil(t)
    return abs < this._deadlineUs ? abs : Infinity
  }

  // the first time, relative to the measured window, from `rel` in stage i or later with `need`
  // active (Infinity: none)
  _fromStage (i, need, rel) {
    const stages = this._stages
    for (; i < stages.length; i++) {
      const s = stages[i]
      const from = Math.max(rel, s.startUs)
      let t = Infinity
      if (!s.ramp || s.from === s.to) {
        if (s.to >= need) t = from
      } else {
        // the active number at `from`: from + (to - from) * (t - start) / length (no closure: this
        // runs once per transaction of a ramping stage)
        const activeAtFrom = s.from + (s.to - s.from) * (from - s.startUs) / (s.endUs - s.startUs)
        if (activeAtFrom >= need - 1e-9) t = from
        else if (s.to > s.from && s.to >= need) t = s.startUs + (need - s.from) / (s.to - s.from) * (s.endUs - s.startUs)
      }
      if (t < s.endUs) return t
    }
    return Infinity
  }
}
