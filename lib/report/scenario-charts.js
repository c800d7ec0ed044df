// A scenario run's report gives each scenario a section of its own: its figures, then its
// throughput and latency over time and its latency distribution, drawn from the scenario's own
// section of the results as if it were a run, on the run's time axis.

import { escapeHtml as h } from './escape.js'
import { summaryTable } from './header.js'
import { waitsSectionHtml } from './waits-table.js'
import { intervalSeconds } from './datasets.js'
import { round3 } from '../format/round.js'

/** The charts of RUN_CHARTS each scenario's section has, in that order. */
export const SCENARIO_CHART_IDS = ['throughput', 'latency-over-time', 'latency-distribution']

const isNum = (v) => typeof v === 'number' && Number.isFinite(v)

/**
 * @typedef {{ name: string, section: string, slug: string, doc: any, html: string }} ScenarioPart
 *   section: its heading; slug: its part of chart file names; doc: its section as a results
 *   document (the whole run's `scenarios` kept, so its time charts mark the others too)
 */

/**
 * Each scenario of a results document as a part of its report; none for a run without scenarios.
 * @param {any} doc
 * @returns {ScenarioPart[]}
 */
export function scenarioParts (doc) {
  const scenarios = doc?.scenarios
  if (!scenarios || typeof scenarios !== 'object') return []
  const stepS = intervalSeconds(doc)
  return Object.entries(scenarios).filter(([, s]) => s && typeof s === 'object').map(([name, s]) => {
    const part = scenarioDoc(doc, s, stepS)
    return { name, section: `Scenario ${name}`, slug: name, doc: part, html: scenarioFiguresHtml(name, s, part) }
  })
}

/**
 * A scenario's section in the shape of a run's document. Its intervals are on its own clock; they
 * move to the run's by its opening, rounded to the interval grid as the run's totals place them.
 */
function scenarioDoc (doc, s, stepS) {
  const opened = isNum(s.openedS) ? s.openedS : s.startS
  const shiftS = Math.round(opened / stepS) * stepS
  const transactions = s.transactions ?? {}
  return {
    schemaVersion: doc.schemaVersion,
    tool: doc.tool,
    server: doc.server,
    run: {
      ...doc.run,
      workload: s.workload ?? doc.run.workload,
      options: { ...s.options, intervalS: stepS },
      durationS: round3(s.endS - s.startS),
      clients: s.clients ?? null,
      connections: s.connections ?? null,
      transactionTypes: Object.keys(transactions),
      weights: undefined
    },
    summary: s.summary,
    transactions,
    intervals: (s.intervals ?? []).map((iv) => ({ ...iv, t: round3(iv.t + shiftS) })),
    scenarios: doc.scenarios
  }
}

/** The section's opening: its workload, window, load and tags, and its figures per type. */
function scenarioFiguresHtml (name, s, part) {
  const tags = Object.entries(s.tags ?? {}).map(([k, v]) => `${k}=${v}`).join(', ')
  const facts = [
    s.workload, `${s.startS}–${s.endS} s of the run`,
    isNum(s.clients) ? `${s.clients} client${s.clients === 1 ? '' : 's'}` : null,
    isNum(s.options?.rate) && s.options.rate > 0 ? `${s.options.rate} tps offered` : null,
    tags ? `tags: ${tags}` : null
  ].filter(Boolean).join(' · ')
  // where its transactions spent their time, on its own clock (its intervals and its waits' series)
  const waits = s.waits ? waitsSectionHtml({ waits: s.waits, intervals: s.intervals }) : ''
  return `<p class="sub scenario-facts" data-scenario="${h(name)}">${h(facts)}</p>${summaryTable(part)}${waits}`
}
