// The stages of a run in the report: bands shaded on every time chart, and latency against
// throughput per stage (achieved tps); for a capacity document, latency against the offered rate
// of each step, with the --until limit and the answer marked.

import { thresholdRows } from './datasets.js'
import { round3 } from '../format/round.js'
import { steadyStateOf } from '../metrics/steady-state.js'

const isNum = (v) => typeof v === 'number' && Number.isFinite(v)
const rate = (v) => Math.round(v).toLocaleString('en-US')

/** What a stage offered, in words: a rate or a number of clients, a ramp or a step. */
function targetWords (s) {
  const unit = s.kind === 'clients' ? ' clients' : '/s'
  return s.ramp && s.target.from !== s.target.to ? `${rate(s.target.from)}→${rate(s.target.to)}${unit}` : `${rate(s.target.to)}${unit}`
}

/** The words the report says instead of a time to steady state where the load varies on purpose. */
export const STEADY_NOT_APPLICABLE = 'does not apply: the load changes from stage to stage on purpose'

/**
 * Whether a run varies its load on purpose (stages, a capacity search): then no time to steady
 * state is judged, since the throughput is meant to move.
 * @param {any} doc
 */
export function loadVaries (doc) {
  return (Array.isArray(doc.stages) && doc.stages.length > 0) || Array.isArray(doc.capacity?.steps)
}

// a stage's number keeps this far from a dashed event line (as a share of the time axis: about
// 10 px of a 640 px plot), else it moves along its band to where the lines are farthest
const CLEAR_OF_MARKER = 0.016

/**
 * One band per stage over the time it was measured (its planned end, or the run's end for the
 * last), shaded alternately, with its number and target. The number stands mid-band unless a
 * dashed event line would cross it there: then at the quarter of the band farthest from the lines.
 * @param {any} doc
 * @param {{ avoid?: number[], maxT?: number }} [marks] the times of the dashed lines, and the time axis's end
 * @returns {{ t: number, t2: number, mid: number, shade: number, label: string, tip: string }[]} mid: where the number goes
 */
export function stageBands (doc, { avoid = [], maxT = 0 } = {}) {
  if (!Array.isArray(doc.stages)) return []
  return doc.stages.filter((s) => isNum(s?.startS) && isNum(s.lengthS) && s.lengthS > 0).map((s) => {
    const t2 = round3(s.startS + s.lengthS)
    return {
      t: s.startS,
      t2,
      mid: round3(numberPlace(s.startS, t2, avoid, Math.max(maxT, t2) * CLEAR_OF_MARKER)),
      shade: s.index % 2 === 0 ? 0.1 : 0.2,
      label: `${s.index + 1}`,
      tip: `stage ${s.index + 1}: ${targetWords(s)}, ${isNum(s.achievedTps) ? s.achievedTps : '-'} tps achieved` + (s.dropped > 0 ? `, ${s.dropped} dropped` : '')
    }
  })
}

/** Mid-band, or the point of the band (in eighths) farthest from the lines when one is nearer than `clear`. */
function numberPlace (t, t2, avoid, clear) {
  const distance = (x) => Math.min(Infinity, ...avoid.map((a) => Math.abs(a - x)))
  const mid = (t + t2) / 2
  if (distance(mid) >= clear) return mid
  const candidates = [4, 3, 5, 2, 6, 1, 7].map((k) => t + (t2 - t) * k / 8)
  return candidates.reduce((best, x) => (distance(x) > distance(best) ? x : best), mid)
}

/**
 * Points of latency against throughput: for a capacity document its steps (offered rate, the
 * step's measured part), else the stages (achieved tps, the whole stage).
 * @param {any} doc
 * @returns {{ points: object[], limits: { ms: number, label: string }[], answer: object[], capacity: boolean }}
 */
export function stageLatencyData (doc) {
  const steps = doc.capacity?.steps
  if (Array.isArray(steps) && steps.length > 0) {
    const points = []
    for (const s of steps) {
      for (const stat of ['p50', 'p99']) {
        const ms = s.latencyMs?.[stat]
        if (isNum(ms) && ms > 0) points.push({ x: s.offeredRate, ms, stat, label: `${s.index}`, tip: `step ${s.index}: ${rate(s.offeredRate)}/s offered, ${s.achievedRate} tps achieved, ${s.held ? 'held' : 'failed'}` })
      }
    }
    const limits = thresholdRows({ thresholds: steps[0].thresholds ?? [] })
    const a = doc.capacity.answer
    const answer = isNum(a?.rate) ? [answerMark(a.rate, points)] : []
    return { points: labelSides(points, limits, a?.rate), limits, answer, capacity: true }
  }
  const points = []
  for (const s of Array.isArray(doc.stages) ? doc.stages : []) {
    for (const stat of ['p50', 'p99']) {
      const ms = s.summary?.latencyMs?.[stat]
      if (isNum(ms) && ms > 0 && isNum(s.achievedTps)) points.push({ x: s.achievedTps, ms, stat, label: `${s.index + 1}`, tip: `stage ${s.index + 1}: ${targetWords(s)}, ${s.achievedTps} tps achieved` })
    }
  }
  const limits = thresholdRows(doc)
  return { points: labelSides(points, limits), limits, answer: [], capacity: false }
}

/**
 * The capacity found, as a vertical line with its words at the top: on the line's right while it
 * stands in the left half of the rates (else they would run over the latency axis's labels), on
 * its left otherwise (else they would run past the chart).
 * @param {number} x the rate found
 * @param {{ x: number }[]} points
 */
function answerMark (x, points) {
  const widest = Math.max(x, ...points.map((p) => p.x))
  return { x, label: `capacity ${rate(x)}/s`, right: x <= widest / 2 }
}

/**
 * Which side of its point each number goes: away from the nearest limit's dashed line, so that
 * the line does not run through it (a point just under the limit gets its number below); and,
 * with a capacity found, away from its dotted line: on the left of a point at or below it.
 * @param {{ x: number, ms: number }[]} points
 * @param {{ ms: number }[]} limits
 * @param {number|null} [answer] the capacity found
 */
function labelSides (points, limits, answer = null) {
  return points.map((p) => {
    const nearest = limits.reduce((best, l) => (best === null || Math.abs(l.ms - p.ms) < Math.abs(best.ms - p.ms) ? l : best), null)
    return { ...p, above: nearest === null || p.ms >= nearest.ms, left: isNum(answer) && p.x <= answer }
  })
}

/** A run's time to steady state, or null where its load varies on purpose. */
export const judgedSteadyState = (doc) => (loadVaries(doc) ? null : steadyStateOf(doc))
