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
 * @param {string|null} [label] the run's label when several runs are reported: it opens the heading
 * @returns {string} HTML
 */
export function stagedHeaderHtml (doc, label = null) {
  const kind = runKind(doc)
  const run = label ? `Run ${label}: ` : ''
  if (kind === 'capacity') return capacityHtml(doc.capacity, run)
  if (kind === 'stages') return stagesHtml(doc.stages, run)
  return ''
}

function capacityHtml (c, run) {
  const a = c.answer ?? {}
  const line = String(a.line ?? 'capacity: no answer recorded').replace(/^capacity: /, '')
  const rows = c.steps.map((s) => [
    String(s.index), s.phase ?? '-', fmt(s.offeredRate, 1), fmt(s.achievedRate, 1), ms(s.latencyMs?.p50), ms(s.latencyMs?.p99),
    fmt(s.failed ?? 0, 0), fmt(s.dropped ?? 0, 0), s.held ? 'held' : 'failed', s.held ? '' : (s.why ?? '')
  ])
  const until = c.until?.length ? ` and held when ${[c.until].flat().join(' and ')} held` : ''
  return [
    '<section class="answer">',
    `<h2>${h(run ? `${run}capacity ` : 'Capacity: ')}${h(isNum(a.rate) ? `${fmt(a.rate, 0)} tps` : 'not found')}</h2>`,
    `<p><strong>${h(line)}</strong></p>`,
    `<p class="note">${h(`${searchWords(c.steps)}Each step is measured after its settle${until}. The run's details below are the whole run's, all steps together.`)}</p>`,
    '<h3>Steps</h3>',
    table(['step', 'phase', 'offered tps', 'achieved tps', 'p50 ms', 'p99 ms', 'failed', 'dropped', 'result', 'why'], rows, 'numbers'),
    '</section>'
  ].join('\n')
}

/**
 * What the search did, read from its steps: where it started, whether its geometric steps went
 * up or down (a first rate that failed sends them down), and how many steps bisected.
 * @param {{ phase?: string, offeredRate: number }[]} steps in the order they ran
 * @returns {string} a sentence and a space, or '' without steps
 */
export function searchWords (steps) {
  if (steps.length === 0) return ''
  const tps = (v) => `${fmt(v, 1)} tps`
  const geometric = steps.filter((s) => s.phase !== 'bisection')
  const bisection = steps.filter((s) => s.phase === 'bisection')
  const first = steps[0].offeredRate
  const last = geometric.at(-1)?.offeredRate ?? first
  const moved = last > first ? `stepped the offered rate up from ${tps(first)} to ${tps(last)}` : last < first ? `stepped the offered rate down from ${tps(first)} to ${tps(last)}` : `started at ${tps(first)}`
  const n = bisection.length
  const bisected = n ? `, then bisected in ${n} step${n === 1 ? '' : 's'} (${bisection.map((s) => fmt(s.offeredRate, 1)).join(', ')} tps)` : ''
  return `The search ${moved}${bisected}. `
}

function stagesHtml (stages, run) {
  const rate = stages[0].kind === 'rate'
  const target = (s) => (s.ramp && s.target.from !== s.target.to ? `${s.target.from} to ${s.target.to}` : String(s.target.to))
  const rows = stages.map((s) => [
    String(s.index + 1), `${fmt(s.startS, 1)} to ${fmt(s.startS + s.lengthS, 1)} s`, target(s), fmt(s.achievedTps, 1),
    String(s.summary?.failed ?? 0), ms(s.summary?.latencyMs?.p50), ms(s.summary?.latencyMs?.p99)
  ])
  return [
    '<section class="answer">',
    `<h2>${h(`${run}${stages.length} stage${stages.length === 1 ? '' : 's'} of ${rate ? 'arrival rate' : 'clients'}`)}</h2>`,
    table(['stage', 'time', rate ? 'target tps' : 'clients', 'achieved tps', 'failed', 'p50 ms', 'p99 ms'], rows, 'numbers'),
    '<p class="note">Each stage is measured on its own; the figures below are the whole run\'s, all stages together.</p>',
    '</section>'
  ].join('\n')
}
