// The top of the report of a run that is a series of stages: a capacity search (its answer: the
// rate sustained, its latency, the step that failed and why; then the table of steps) or a run
// with --stages / --clients-stages (the table of stages). Whole-run figures mean less there, so
// the run's header says it and leaves out what does not apply (time to steady state).

import { escapeHtml as h } from './escape.js'
import { fmt, table } from './header.js'

const isNum = (v) => typeof v === 'number' && Number.isFinite(v)
const ms = (v) => (isNum(v) ? fmt(v, 3) : '-')

/**
 * What kind of run a document is, for its report's title and header.
 * @param {any} doc a results document
 * @returns {'capacity'|'stages'|'run'}
 */
export function runKind (doc) {
  if (Array.isArray(doc.capacity?.steps)) return 'capacity'
  if (Array.isArray(doc.stages) && doc.stages.length > 0) return 'stages'
  return 'run'
}

/**
 * The answer and the steps of a capacity document, or the stages of a staged run; '' otherwise.
 * @param {any} doc
 * @returns {string} HTML
 */
export function stagedHeaderHtml (doc) {
  const kind = runKind(doc)
  if (kind === 'capacity') return capacityHtml(doc.capacity)
  if (kind === 'stages') return stagesHtml(doc.stages)
  return ''
}

function capacityHtml (c) {
  const a = c.answer ?? {}
  const line = String(a.line ?? 'capacity: no answer recorded').replace(/^capacity: /, '')
  const rows = c.steps.map((s) => [
    String(s.index), s.phase ?? '-', fmt(s.offeredRate, 1), fmt(s.achievedRate, 1), ms(s.latencyMs?.p50), ms(s.latencyMs?.p99),
    s.held ? 'held' : 'failed', s.held ? '' : (s.why ?? '')
  ])
  return [
    '<section class="answer">',
    `<h2>Capacity: ${h(isNum(a.rate) ? `${fmt(a.rate, 0)} tps` : 'not found')}</h2>`,
    `<p><strong>${h(line)}</strong></p>`,
    `<p class="note">${h(`The search stepped the offered rate up, then bisected: each step is measured after its settle${c.until?.length ? ` and held when ${[c.until].flat().join(' and ')} held` : ''}. The figures below the steps are the whole run's, all steps together.`)}</p>`,
    '<h3>Steps</h3>',
    table(['step', 'phase', 'offered tps', 'achieved tps', 'p50 ms', 'p99 ms', 'result', 'why'], rows, 'numbers'),
    '</section>'
  ].join('\n')
}

function stagesHtml (stages) {
  const rate = stages[0].kind === 'rate'
  const target = (s) => (s.ramp && s.target.from !== s.target.to ? `${s.target.from} to ${s.target.to}` : String(s.target.to))
  const rows = stages.map((s) => [
    String(s.index + 1), `${fmt(s.startS, 1)} to ${fmt(s.startS + s.lengthS, 1)} s`, target(s), fmt(s.achievedTps, 1),
    String(s.summary?.failed ?? 0), ms(s.summary?.latencyMs?.p50), ms(s.summary?.latencyMs?.p99)
  ])
  return [
    '<section class="answer">',
    `<h2>${h(`${stages.length} stage${stages.length === 1 ? '' : 's'} of ${rate ? 'arrival rate' : 'clients'}`)}</h2>`,
    table(['stage', 'time', rate ? 'target tps' : 'clients', 'achieved tps', 'failed', 'p50 ms', 'p99 ms'], rows, 'numbers'),
    '<p class="note">Each stage is measured on its own; the figures below are the whole run\'s, all stages together.</p>',
    '</section>'
  ].join('\n')
}
