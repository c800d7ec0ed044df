// The lines `pgload capacity` prints as each step is judged: one row per step.

import { percent, failedWords } from './step.js'

const COLUMNS = [['step', 4], ['offered', 9], ['achieved', 9], ['p50 ms', 9], ['p90 ms', 9], ['p99 ms', 9], ['max ms', 9], ['failed', 8], ['dropped', 8], ['', 0]]

const num = (v, digits = 3) => v === null || v === undefined ? '-' : Number(v.toPrecision(digits)).toLocaleString('en-US')
const rate = (v) => Math.round(v).toLocaleString('en-US')

/**
 * @param {import('./controller.js').CapacitySettings} cap
 * @returns {string}
 */
export function formatStepHeader (cap) {
  const rule = `steps of ${cap.stepS} s after ${cap.settleS} s to settle; a step holds while ${cap.until.map(t => t.expr).join(' and ')} and it falls behind by at most ${percent(cap.behindMargin)}`
  return rule + '\n' + COLUMNS.map(([name, w]) => name.padStart(w)).join('  ').trimEnd()
}

// a step that held despite failures still says what they were
const held = (s) => s.held && s.failed > 0 ? `, ${failedWords(s.failed, s.failedMost ?? null)}` : ''

/**
 * @param {import('./step.js').StepRecord} s
 * @returns {string}
 */
export function formatStepRow (s) {
  const l = s.latencyMs
  const verdict = s.held ? 'held' : `FAILED: ${s.why.join('; ')}`
  const client = s.driver?.saturated ? ' (the client was saturated)' : ''
  const cells = [String(s.index), rate(s.offeredRate), num(s.achievedRate, 4), num(l.p50), num(l.p90), num(l.p99), num(l.max), rate(s.failed ?? 0), String(s.dropped), verdict + client + held(s)]
  return cells.map((c, i) => c.padStart(COLUMNS[i][1])).join('  ')
}
