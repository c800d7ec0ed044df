// The answer of `pgload capacity` from its steps: the highest offered rate that held, the step
// above it that did not, and whether the server or the client was the limit; and its one line.

import { percent, failedWords } from './step.js'

const grouped = (v) => Math.round(v).toLocaleString('en-US')
const ms = (v) => v === null || v === undefined ? '-' : `${Number(v.toPrecision(3))} ms`

/**
 * @typedef {object} CapacityAnswer
 * @property {'server'|'client'|'failures'|'none-held'|'none-failed'} limit what bounded the answer
 *   (failures: the step above failed with failed transactions, which say nothing of capacity)
 * @property {number|null} rate the highest offered rate that held (arrivals per second)
 * @property {number|null} achievedRate what that step achieved
 * @property {number|null} heldStep its step index
 * @property {number|null} nextRate the lowest offered rate above it that failed
 * @property {number|null} nextStep its step index
 * @property {string} line
 */

/**
 * @param {import('./step.js').StepRecord[]} steps
 * @param {{ stopped?: string|null }} [end] why the search stopped early, if it did
 * @returns {CapacityAnswer}
 */
export function capacityAnswer (steps, { stopped = null } = {}) {
  const held = steps.filter(s => s.held)
  const best = held.reduce((a, s) => (a === null || s.offeredRate > a.offeredRate ? s : a), null)
  const failedAbove = steps.filter(s => !s.held && (best === null || s.offeredRate > best.offeredRate))
  const next = failedAbove.reduce((a, s) => (a === null || s.offeredRate < a.offeredRate ? s : a), null)
  const base = { rate: best?.offeredRate ?? null, achievedRate: best?.achievedRate ?? null, heldStep: best?.index ?? null, nextRate: next?.offeredRate ?? null, nextStep: next?.index ?? null }
  const tail = stopped ? `; ${stopped}` : ''
  if (steps.length === 0) return { ...base, limit: 'none-held', line: `capacity: no step was measured${tail}` }
  if (next?.driver?.saturated || (best === null && steps.some(s => s.driver?.saturated))) {
    const sat = next ?? steps.find(s => s.driver?.saturated)
    const lower = best ? `the server sustained at least ${grouped(best.offeredRate)} tps with ${figure(best)}; ` : ''
    return {
      ...base,
      limit: 'client',
      line: `capacity: not found: ${lower}at ${grouped(sat.offeredRate)} tps the client was the limit, not the server (${driverWords(sat.driver)}): give pgload more CPU (another machine, or fewer processes on this one)${tail}`
    }
  }
  // failed transactions (a restart, lost connections) spoil the step's latency: not the server's capacity
  const failing = next
  if (failing?.failed > 0) {
    const lower = best ? `the server sustained at least ${grouped(best.offeredRate)} tps with ${figure(best)}; ` : ''
    return {
      ...base,
      limit: 'failures',
      line: `capacity: not found: ${lower}at ${grouped(failing.offeredRate)} tps ${failedWords(failing.failed, failing.failedMost)}, so its ${figure(failing)} says nothing of the server's capacity: run again when the server is stable${tail}`
    }
  }
  if (best === null) {
    return { ...base, limit: 'none-held', line: `capacity: no step held: ${grouped(next.offeredRate)} tps failed (${failWords(next)})${tail}` }
  }
  if (next === null) {
    return { ...base, limit: 'none-failed', line: `capacity: at least ${grouped(best.offeredRate)} tps sustained with ${figure(best)} (no step failed${tail || '; raise --max-rate'})` }
  }
  return {
    ...base,
    limit: 'server',
    line: `capacity: ${grouped(best.offeredRate)} tps sustained with ${figure(best)} (next step ${grouped(next.offeredRate)} tps: ${failWords(next)})${tail}`
  }
}

/** The step's figure the first --until threshold names (p(99) 17.9 ms), else its p(99). */
function figure (step) {
  const t = step.thresholds[0]
  if (t && t.kind === 'time' && t.actual !== null) return `${aggName(t.expr)} ${ms(t.actual)}`
  return `p(99) ${ms(step.latencyMs.p99)}`
}

function aggName (expr) {
  const m = /(p\(\s*[\d.]+\s*\)|p\d+|avg|med|max|min)\b/.exec(expr)
  return m ? m[1].replace(/\s+/g, '') : 'p(99)'
}

/** Why a step failed, in figures: its threshold values, and how far it fell behind. */
function failWords (step) {
  const parts = step.thresholds.filter(t => !t.pass).map(t => t.kind === 'time' && t.actual !== null ? `${aggName(t.expr)} ${ms(t.actual)}` : t.reason)
  if (step.thresholds.every(t => t.pass) && step.thresholds[0]?.kind === 'time') parts.push(figure(step))
  if (step.behind >= 0.005) parts.push(`fell behind by ${percent(step.behind)}`)
  if (step.dropped > 0) parts.push(`${grouped(step.dropped)} arrivals dropped`)
  return parts.join(', ')
}

function driverWords (d) {
  const runnable = typeof d.onCpuShare === 'number' && typeof d.cpuWaitShare === 'number'
  return runnable
    ? `the driver's thread was runnable ${percent(Math.min(1, d.onCpuShare + d.cpuWaitShare))} of the step, waiting for a CPU ${percent(d.cpuWaitShare)}`
    : `the driver's event loop was busy ${percent(d.eventLoopUtilization ?? 0)} of the step`
}
