// A judged capacity step as the answer and the step table read it: held at p(99) 17.9 ms, or
// failed at 41.2 ms and 6 % behind; `extra` overrides any field.

/**
 * @param {number} index @param {number} offeredRate @param {boolean} held
 * @param {Record<string, any>} [extra]
 */
export const stepRecord = (index, offeredRate, held, extra = {}) => ({
  index,
  offeredRate,
  held,
  achievedRate: offeredRate,
  behind: held ? 0 : 0.06,
  failed: 0,
  failedMost: null,
  dropped: 0,
  latencyMs: { p50: 1, p90: 2, p99: held ? 17.9 : 41.2, max: 50 },
  thresholds: [{ expr: 'p(99) < 20ms', pass: held, kind: 'time', actual: held ? 17.9 : 41.2, reason: held ? null : 'x' }],
  why: held ? [] : ['x'],
  driver: { saturated: false },
  ...extra
})
